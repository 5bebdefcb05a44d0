"""The links of the README and the docs lead somewhere: a `#anchor` names a heading of its file
(GitHub's anchors), and a relative path names a file of the repository."""

import collections
import pathlib
import re

import pytest

pytestmark = pytest.mark.parallel_safe  # reads files only (machine_sharing.py)

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(text: str) -> set[str]:
    """GitHub's anchor of each heading: lower case, only letters, digits, spaces, hyphens and
    underscores kept, spaces made hyphens, and -1, -2, ... after a heading met before."""
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # a shell comment is no heading
    seen: collections.Counter[str] = collections.Counter()
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return found


def test_anchors_number_a_repeated_heading():
    assert anchors("# A\n## Results\n### SameGame\n## `x` y\n```\n# not a heading\n```\n### SameGame\n") == {
        "a", "results", "samegame", "x-y", "samegame-1"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_somewhere(page):
    text = page.read_text()
    targets = anchors(text)
    broken = []
    for link in LINK.findall(text):
        if "://" in link or link.startswith("mailto:"):
            continue
        path, _, anchor = link.partition("#")
        if path and not (page.parent / path).exists():
            broken.append(link)
        elif not path and anchor not in targets:
            broken.append(link)
    assert not broken, f"{page.name}: links that lead nowhere: {broken}"
