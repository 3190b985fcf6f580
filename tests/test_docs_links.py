"""Every relative link in README.md and docs/*.md resolves: the file it names exists, and an anchor
(``path#anchor`` or ``#anchor``) names a heading of that file by GitHub's slug rules."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target); the text may hold one level of brackets (an image inside a link).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def prose_lines(text: str, keep_code: bool = False) -> list[str]:
    """The lines of a Markdown page outside fenced and indented code blocks, inline code removed
    (or, with ``keep_code``, kept without its backticks)."""
    lines, fenced, previous_blank, in_indented = [], False, True, False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            previous_blank = False
            continue
        if fenced:
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and (previous_blank or in_indented):
            in_indented = True
            continue
        in_indented = False
        previous_blank = not line.strip()
        lines.append(INLINE_CODE.sub((lambda m: m.group(0).strip("`")) if keep_code else "", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, punctuation other than hyphens and
    underscores dropped, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in "-_ ")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, seen = set(), {}
    for line in prose_lines(page.read_text(encoding="utf-8"), keep_code=True):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")  # GitHub numbers repeated headings
    return found


def links(page: Path) -> list[str]:
    targets = []
    for line in prose_lines(page.read_text(encoding="utf-8")):
        targets += LINK.findall(line)
        targets += REFERENCE.findall(line)
    return [t[1:-1] if t.startswith("<") else t for t in targets]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if EXTERNAL.match(target) or target.startswith("//"):
            continue  # absolute URLs are not checked
        path, _, anchor = target.partition("#")
        dest = page if not path else (page.parent / unquote(path)).resolve()
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        elif anchor and dest.suffix == ".md" and unquote(anchor).lower() not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    return broken


def test_the_pages_are_found():
    assert (ROOT / "README.md") in PAGES and len(PAGES) > 1


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    broken = broken_links(page)
    assert not broken, f"{page.relative_to(ROOT)} has broken links:\n" + "\n".join(broken)


def test_the_checker_sees_a_broken_link(tmp_path):
    (tmp_path / "there.md").write_text("# A heading, with `code`!\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](there.md#a-heading-with-code) [ok](there.md#twice-1) [ok](#page) [web](https://example.org)\n"
        "![missing](images/none.png) [bad anchor](there.md#nowhere) [self](#elsewhere)\n"
        "`[in code](nothing.md)`\n\n```\n[in a fence](nothing.md)\n```\n"
    )
    global ROOT
    root, ROOT = ROOT, tmp_path
    try:
        broken = broken_links(page)
    finally:
        ROOT = root
    assert [b.split(":")[0] for b in broken] == ["images/none.png", "there.md#nowhere", "#elsewhere"]
