"""CITATION.cff is valid CFF 1.2.0, and the BibTeX on the references page says the same."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml
from site_build import DOCS, REPO

CFF = REPO / "CITATION.cff"


def test_citation_cff_is_valid():
    # check-jsonschema ships the Citation File Format schema, so this runs offline.
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.citation-file-format",
            str(CFF),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def bibtex(page: str) -> dict[str, str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```bibtex\n(.*?)```", text, re.S)
    assert len(blocks) == 1, f"{page}: expected one BibTeX block, found {len(blocks)}"
    assert blocks[0].startswith("@software{"), blocks[0]
    return {k: v.strip() for k, v in re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?$", blocks[0], re.M)}


@pytest.mark.parametrize("page", ["references.md", "references.en.md"])
def test_the_references_page_cites_what_citation_cff_says(page):
    cff = yaml.safe_load(CFF.read_text(encoding="utf-8"))
    entry = bibtex(page)
    title = entry["title"].replace(r"$\sqrt{d_k}$", "√d_k")
    assert title == cff["title"]
    assert entry["version"] == cff["version"]
    assert entry["year"] == str(cff["date-released"])[:4]
    assert entry["url"] == cff["url"]
    assert cff["repository-code"] in entry["note"]
    author = cff["authors"][0]["name"]
    assert entry["author"] == "{" + author.replace("_", r"\_") + "}"
    source = (DOCS / page).read_text(encoding="utf-8")
    assert "{ #how-to-cite }" in source, f"{page}: the section needs the how-to-cite anchor"


def test_citation_version_is_the_package_version():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    assert yaml.safe_load(CFF.read_text(encoding="utf-8"))["version"] == version
