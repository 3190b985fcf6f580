"""Fetch Jolt Physics' source from the registry package that carries it, verified and cached.

The sdist of ``simvx-physics-jolt`` ships an unmodified JoltPhysics tree under
``vendor/JoltPhysics``. We locate the archive through pip's own index setting
(``PIP_INDEX_URL`` or pip's configuration, else pip's default index), check its sha256,
and unpack only ``Build/``, ``Jolt/`` and ``LICENSE`` into a cache shared by every build.

Prints the path of the unpacked JoltPhysics root on stdout; exits non-zero with a
message on stderr on failure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

PACKAGE = "simvx-physics-jolt"
VERSION = "0.0.0.dev3104"
ARCHIVE = "simvx_physics_jolt-0.0.0.dev3104.tar.gz"
SHA256 = "fb0f5678f0d0ff45413eee8e0ae0d71f11883302f27d4f1bd3d56d891dc71ebc"
INNER_ROOT = "vendor/JoltPhysics"
WANTED = ("Build/", "Jolt/", "LICENSE")
JOLT_VERSION = "5.5.0"


def default_cache_dir() -> Path:
    explicit = os.environ.get("JOLTGYM_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "joltgym"


def pip_index_url() -> str:
    """The simple-API index pip itself would use first."""
    env = os.environ.get("PIP_INDEX_URL")
    if env:
        return env
    try:
        from pip._internal.configuration import Configuration

        config = Configuration(isolated=False)
        config.load()
        for key in ("global.index-url", ":env:.index-url", "install.index-url"):
            try:
                return config.get_value(key)
            except Exception:
                continue
    except Exception:
        pass
    from pip._internal.models.index import PyPI

    return PyPI.simple_url


def locate_archive(index_url: str) -> str:
    project_url = index_url.rstrip("/") + "/" + PACKAGE + "/"
    request = urllib.request.Request(
        project_url, headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        listing = json.load(response)
    for entry in listing.get("files", []):
        if entry.get("filename") == ARCHIVE:
            declared = entry.get("hashes", {}).get("sha256")
            if declared and declared != SHA256:
                raise RuntimeError(
                    f"index lists {ARCHIVE} with sha256 {declared}, expected {SHA256}"
                )
            return urllib.parse.urljoin(project_url, entry["url"])
    raise RuntimeError(f"{ARCHIVE} not found in the index listing of {PACKAGE}")


def download(url: str, target: Path) -> None:
    digest = hashlib.sha256()
    partial = target.with_suffix(".part")
    with urllib.request.urlopen(url, timeout=300) as response, open(partial, "wb") as out:
        while chunk := response.read(1 << 16):
            digest.update(chunk)
            out.write(chunk)
    if digest.hexdigest() != SHA256:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"sha256 mismatch for {url}: got {digest.hexdigest()}")
    partial.replace(target)


def verify(path: Path) -> bool:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest() == SHA256


def extract(archive: Path, destination: Path) -> None:
    staging = Path(tempfile.mkdtemp(dir=destination.parent, prefix=".jolt-unpack-"))
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = []
            for member in tar.getmembers():
                parts = member.name.split("/", 1)
                if len(parts) != 2 or not parts[1].startswith(INNER_ROOT + "/"):
                    continue
                relative = parts[1][len(INNER_ROOT) + 1 :]
                if not relative.startswith(WANTED) or not (member.isfile() or member.isdir()):
                    continue
                member.name = relative
                members.append(member)
            tar.extractall(staging, members=members, filter="data")
        if not (staging / "Jolt" / "Jolt.h").is_file() or not (staging / "Build" / "CMakeLists.txt").is_file():
            raise RuntimeError(f"{archive.name} does not contain {INNER_ROOT}/Jolt and Build")
        if destination.exists():
            shutil.rmtree(destination)
        staging.replace(destination)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def ensure_source(cache_dir: Path) -> Path:
    cache_dir.mkdir(parents=True, exist_ok=True)
    source = cache_dir / f"JoltPhysics-{JOLT_VERSION}"
    stamp = source / ".joltgym-sha256"
    if stamp.is_file() and stamp.read_text().strip() == SHA256:
        return source
    archive = cache_dir / ARCHIVE
    if not (archive.is_file() and verify(archive)):
        download(locate_archive(pip_index_url()), archive)
    extract(archive, source)
    stamp.write_text(SHA256 + "\n")
    return source


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args()
    try:
        path = ensure_source(args.cache_dir or default_cache_dir())
    except Exception as exc:  # report any failure as one readable line for CMake
        print(f"joltgym: could not obtain Jolt Physics source: {exc}", file=sys.stderr)
        return 1
    print(path.as_posix())
    return 0


if __name__ == "__main__":
    sys.exit(main())
