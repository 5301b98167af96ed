"""Every page has its own ``description`` (front matter; a notebook's under ``jupyter:``) in
each language: present, at most 160 characters, not the site's description, not another
page's."""

from __future__ import annotations

import re

import yaml
from site_build import DOCS, REPO

LIMIT = 160


def front_matter(text: str) -> dict:
    found = re.match(r"---\n(.*?)\n---\n", text, re.S)
    return yaml.safe_load(found.group(1)) if found else {}


def site_descriptions() -> set[str]:
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    return set(re.findall(r"^\s*site_description: (.+)$", config, re.M))


def test_every_page_has_its_own_short_description():
    sites = site_descriptions()
    assert len(sites) == 2, sites  # Korean, and English for /en/
    pages = sorted(DOCS.rglob("*.md"))
    assert len(pages) >= 20
    seen: dict[str, str] = {}
    for page in pages:
        where = page.relative_to(DOCS)
        meta = front_matter(page.read_text(encoding="utf-8"))
        # a notebook keeps it in its jupytext metadata: elsewhere jupytext makes it a cell
        description = meta.get("description") or (meta.get("jupyter") or {}).get("description")
        assert isinstance(description, str) and description.strip(), f"{where}: no description"
        assert len(description) <= LIMIT, f"{where}: {len(description)} > {LIMIT} characters"
        assert description not in sites, f"{where}: repeats the site description"
        assert description not in seen, f"{where}: the same description as {seen.get(description)}"
        assert not re.search(r'[<>&"]|\{\{', description), f"{where}: markup in the description"
        seen[description] = str(where)
