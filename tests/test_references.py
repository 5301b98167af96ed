"""Every paper a page cites is on the references page of that language, with its venue.

A citation is an arXiv id (``arXiv:2302.05442`` or an arxiv.org link) or an author-year
mention (``Dehghani et al., 2023``, ``Dehghani 외, 2023``). Each must match an entry of the
references page's paper list: the same arXiv id, or the author's surname and the year in one
entry. Every entry names where it appeared (a venue, a technical report or an arXiv preprint).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_build import DOCS, LANGS, lang_of_source, source_name

ARXIV = re.compile(r"(?:arXiv:|arxiv\.org/abs/)(\d{4}\.\d{4,5})")
AUTHOR_YEAR = re.compile(r"([A-Z][\w\-]+) (?:et al\.|외)[,]? \(?(\d{4})")
VENUE = re.compile(
    r"\b(NeurIPS|ICML|ICLR|EMNLP|Findings of EMNLP|AISTATS|Springer|Technical report|기술 보고서|"
    r"arXiv preprint|arXiv 프리프린트) ?(\d{4})?"
)
PAPERS_HEADING = {"en": "## Papers", "ko": "## 논문"}


def pages(lang: str) -> list[Path]:
    every = sorted(DOCS.glob("*.md")) + sorted((DOCS / "notebooks").glob("*.md"))
    return [p for p in every if lang_of_source(p.name) == lang]


def references_page(lang: str) -> Path:
    return DOCS / source_name("references", lang)


def paper_entries(text: str, lang: str) -> list[str]:
    """The bullet items of the references page's paper section."""
    section = text.split(PAPERS_HEADING[lang], 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


def citations(text: str) -> set[tuple[str, str]]:
    """("arxiv", id) and (surname, year) for every citation in ``text``."""
    found = {("arxiv", m) for m in ARXIV.findall(text)}
    return found | set(AUTHOR_YEAR.findall(text))


def missing(cited: set[tuple[str, str]], entries: list[str]) -> set[tuple[str, str]]:
    def listed(kind: str, value: str) -> bool:
        if kind == "arxiv":
            return any(value in ARXIV.findall(entry) for entry in entries)
        return any(kind in entry and value in entry for entry in entries)

    return {c for c in cited if not listed(*c)}


def test_the_matcher_sees_a_missing_paper_and_a_wrong_year():
    entries = ["- A. Zhai and others. *Title*. ICML 2023. [arXiv:2303.06296](x)."]
    text = "as Zhai et al. (2023) and Zhai 외, 2024 say; see arXiv:2309.14322"
    assert missing(citations(text), entries) == {("Zhai", "2024"), ("arxiv", "2309.14322")}


@pytest.mark.parametrize("lang", LANGS)
def test_every_cited_paper_is_on_the_references_page(lang):
    entries = paper_entries(references_page(lang).read_text(encoding="utf-8"), lang)
    gaps = {}
    for page in pages(lang):
        lost = missing(citations(page.read_text(encoding="utf-8")), entries)
        if lost:
            gaps[page.name] = sorted(lost)
    assert not gaps, f"cited but not on {references_page(lang).name}: {gaps}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_paper_entry_names_its_venue_and_year(lang):
    entries = paper_entries(references_page(lang).read_text(encoding="utf-8"), lang)
    assert entries
    for entry in entries:
        venue = VENUE.search(entry)
        assert venue and re.search(r"\b(19|20)\d{2}\b", entry), f"no venue or year: {entry[:80]}"


def test_both_references_pages_list_the_same_papers():
    ids = {
        lang: {i for e in paper_entries(references_page(lang).read_text("utf-8"), lang)
               for i in ARXIV.findall(e)}
        for lang in ("ko", "en")
    }  # fmt: skip
    assert ids["ko"] == ids["en"]
