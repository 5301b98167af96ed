"""Korean pages, notebooks, figure strings and nav labels follow the term sheet in CONTRIBUTING.md.

- A variant the sheet rules out ("쓰지 않는 표기") appears nowhere in Korean text except on
  the glossary page (where it is listed as a search synonym) and as the English gloss in
  parentheses directly after its term ("QK 정규화(QK-norm)"). A variant marked (낱말) is
  matched as a whole noun by Kiwi: 층 in "여러 층으로", not in 계층.
- An English gloss in parentheses after a Korean word ("쿼리(query)") appears at most once
  per page: at the term's first use.
- d_k has one name and one symbol (헤드 차원, √d_k), the auxiliary 보다 is written apart
  (해 보기), and 가중치 never names the parameters W^Q, W^K.
- The English pages, figure strings and titles write the head dimension d_k as the Korean
  ones do (√d_k, d_k = 1024, ÷√dₖ): the study note's bare d only in its own words, on the
  page that sets out the note claim by claim and in quotations of it.
- The unit-variance divisor has one notation, σ_qσ_k√d_k, everywhere text lives.

Each check takes :class:`~attention_explained.lint.text.Line` objects and returns its
problems as ``path:line: message`` strings, naming the term to use instead. The checks that
read words (``word_violations``, ``spacing_violations``) take an analyser: Kiwi's, from
:func:`attention_explained.sitebuild.search.kiwi_analyser` (the one the search build uses).
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

from attention_explained.lint.text import DOCS, Line, blank, where
from attention_explained.settings import LANGS
from attention_explained.sitebuild.terms import Term

# The page that sets out the study note claim by claim may quote the note's own symbol d.
# The note's page in every language: docs/note.md (the default's), docs/note.<lang>.md.
NOTE_PAGE_NAMES = ("note.md", *(f"note.{lang}.md" for lang in LANGS[1:]))
# An English gloss: "(query)", "(scaled dot-product attention)", "(QK-norm)" right after Hangul.
GLOSS = re.compile(r"(?<=[\uac00-\ud7a3])\s?\(([A-Za-z][A-Za-z0-9 .\-]*)\)")


def note_pages(docs: Path = DOCS) -> frozenset[Path]:
    """The note's own page in both languages: where its bare d is set out."""
    return frozenset(docs / name for name in NOTE_PAGE_NAMES)


NOTE_PAGES = note_pages()


def _allowed_glosses(text: str, terms: list[Term]) -> str:
    """Blank out "(…)" directly after a term: that is where its English gloss may stand."""
    for term in terms:
        text = re.sub(
            re.escape(term.term) + r"\s?\([^)]*\)",
            lambda m, t=term.term: t + " " * (len(m.group(0)) - len(t)),
            text,
        )
    return text


def variant_violations(lines: list[Line], terms: list[Term]) -> list[str]:
    variants = [v for term in terms for v in term.variants]
    # Only a term that holds a variant is blanked first (QK 정규화 is not 'QK-norm'); a shorter
    # term inside a variant is not (내적 in 내적 값, 가중치 in 가중치 감쇠).
    shielding = [t for t in terms if any(v in t.term for v in variants)]
    problems = []
    for line in lines:
        text = _allowed_glosses(line.text, terms)
        for term in shielding:  # a variant inside the sheet's own term is the term, not a variant
            text = text.replace(term.term, " " * len(term.term))
        for term in terms:
            for variant in term.variants:
                if variant not in term.words and variant in text:
                    problems.append(
                        f"{line.where()}: '{variant}' is ruled out by the term sheet; "
                        f"write '{term.term}'"
                    )
    return problems


def gloss_violations(lines: list[Line]) -> list[str]:
    """An English gloss in parentheses after a Korean word: at most once per page."""
    problems = []
    seen: dict[str, Line] = {}
    for line in lines:
        for match in GLOSS.finditer(line.text):
            gloss = match.group(1).strip()
            first = seen.get(gloss.lower())
            if first is None:
                seen[gloss.lower()] = line
                continue
            problems.append(
                f"{line.where()}: English gloss '({gloss})' repeated (first at line "
                f"{first.number}); give it only at the term's first use on the page"
            )
    return problems


NOUN_TAGS = frozenset({"NNG", "NNP", "NNB"})


def word_violations(lines: list[Line], terms: list[Term], analyse) -> list[str]:
    """Variants marked (낱말): a noun Kiwi reads as exactly that word (층, not 계층)."""
    words = {word: term for term in terms for word in term.words}
    problems = []
    for line in lines:
        if not any(word in line.text for word in words):
            continue
        morphemes = analyse(line.text)
        for (form, tag, start, length), after in zip(
            morphemes, [*morphemes[1:], None], strict=True
        ):
            # 폭넓게: Kiwi may read 폭 + 넓다; a stem glued to a verb is a compound, not the noun.
            compound = after is not None and after[2] == start + length and after[1][0] == "V"
            if tag in NOUN_TAGS and form in words and not compound:
                problems.append(
                    f"{line.where()}: '{form}' is ruled out by the term sheet; "
                    f"write '{words[form].term}'"
                )
    return problems


def spacing_violations(lines: list[Line], analyse) -> list[str]:
    """The auxiliary 보다 stands apart from its verb: 해 보기, 확인해 보세요 (not 해보기)."""
    problems = []
    for line in lines:
        morphemes = analyse(line.text)
        for before, (form, tag, start, _) in pairwise(morphemes):
            if (
                form == "보"
                and tag == "VX"
                and before[1] == "EC"
                and before[2] + before[3] == start
            ):
                word = re.search(r"\S*$", line.text[:start]).group(0) + line.text[start : start + 2]
                problems.append(
                    f"{line.where()}: '{word.strip()}': write the auxiliary 보다 apart "
                    "from its verb ('해 보기', '확인해 보세요')"
                )
    return problems


QUOTE = re.compile(r'"[^"\n]*"|“[^”\n]*”')
# The note's bare symbol for d_k: √d, \sqrt{d}, "노트의 d", "차원 d", "d = 1024".
NOTE_SYMBOL = [
    (re.compile(r"\\sqrt\{d\}|√d(?![_ₖA-Za-z0-9{])"), "write √d_k ($\\sqrt{d_k}$, ÷√dₖ)"),
    (
        re.compile(r"노트(?:의|가|에서)\s*\$d\$"),
        "the note's d is 헤드 차원 $d_k$: say it once, on the note page",
    ),
    (re.compile(r"차원\s*\$d\$"), "write 헤드 차원 $d_k$"),
    (
        re.compile(r"쿼리와 키 벡터의 길이|(?:쿼리와 |쿼리·)?키 벡터 하나의 길이"),
        "write 헤드 차원 $d_k$",
    ),
    (re.compile(r"(?<![\w\\])d\s*=\s*\{?\d"), "write d_k = … (the head dimension)"),
    (re.compile(r"\$d\$|(?<![A-Za-z_\\{$])d(?=[\uac00-\ud7a3])"), "write $d_k$ (dₖ outside math)"),
]


# The same in English: √d, "d = 1024", $d$, 9d, [30, d], 1/d, "against d", "as d grows".
ENGLISH_NOTE_SYMBOL = [
    NOTE_SYMBOL[0],
    (re.compile(r"(?<![\w\\])d\s*=\s*\{?\d"), "write d_k = … (the head dimension)"),
    (re.compile(r"\$d\$"), "write $d_k$ (dₖ outside math)"),
    (
        re.compile(r"(?<![\w\\.])\d+d(?![\w{ₖ])|,\s*d\]|(?<![\w\\])1/d(?![\w{ₖ])"),
        "write 9d_k, [30, d_k], 1/d_k (the head dimension)",
    ),
    (
        re.compile(
            r"\b(?:dimension|against|by|over|every|each|at)\s+d\b(?![_ₖ'’])"
            r"|(?<![\w\\'’])d\s+(?:grows|is large|increases)"
        ),
        "write dₖ ($d_k$): the head dimension",
    ),
]


def notation_violations(
    lines: list[Line],
    *,
    prose: bool = True,
    patterns=NOTE_SYMBOL,
    exempt: frozenset[Path] = NOTE_PAGES,
) -> list[str]:
    """d_k keeps its subscript outside quotations of the note ("÷√d" in the note's words)
    and outside the note's own page (``exempt``: docs/note.md and docs/note.en.md).

    Only prose has quotations: in figure strings and mkdocs.yml a quote delimits a string."""
    problems = []
    for line in lines:
        if line.path in exempt:
            continue
        text = blank(QUOTE, line.text) if prose else line.text
        for pattern, advice in patterns:
            for match in pattern.finditer(text):
                problems.append(f"{line.where()}: '{match.group(0)}': {advice}")
    return problems


# 가중치 is an attention weight p_ij; the learned W^Q, W^K, W^V, W^O are 파라미터.
PARAMETER_AS_WEIGHT = re.compile(
    r"(?:초기|학습된|학습되는|레이어의|모델의)\s*가중치(?!\s*감쇠)"
    r"|가중치\s*\$?\\?(?:mathbf\{)?W"
    r"|가중치(?:를|도)?\s*(?:복사|생성|만들|만든|만드)"
    r"|가중치의 모양|가중치는 쿼리, 키"
)


def parameter_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: '{match.group(0)}': 가중치 names attention weights only; "
        "the learned W^Q, W^K, W^V are 파라미터 (or 투영 행렬)"
        for line in lines
        for match in PARAMETER_AS_WEIGHT.finditer(line.text)
    ]


# Calques a Korean reader stumbles on, each with what Korean writes instead.
CALQUES = [
    (re.compile(r"가져갈 것"), "a box label 'takeaway': write '핵심'"),
    (re.compile(r"해 볼 것"), "a box label 'try this': write '실습' or '직접 해 보기'"),
    (
        re.compile(r"(?<![\d.])(?<!시드 )\d번(?:에 따라|이 |을 보면)"),
        "'3번에 따라' for a list item: name it ('세 번째 성질')",
    ),
]


def calque_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: '{match.group(0)}' reads translated: {advice}"
        for line in lines
        for pattern, advice in CALQUES
        for match in pattern.finditer(line.text)
    ]


# 임베딩 차원 is d_model only: "임베딩 차원 d" for the width of q and k is the misuse to catch.
EMBEDDING_MISUSE = re.compile(r"임베딩 차원\s*\$?d(?!\S*model)")


def embedding_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: '임베딩 차원' names d_model only; for the width of q and k "
        "(d, d_k) write '헤드 차원'"
        for line in lines
        if EMBEDDING_MISUSE.search(line.text)
    ]


def all_violations(
    lines: list[Line], terms: list[Term], analyse, *, prose=True, exempt=NOTE_PAGES
) -> list[str]:
    """Every term sheet check of Korean text (the gloss check is the pages' own)."""
    return (
        variant_violations(lines, terms)
        + embedding_violations(lines)
        + word_violations(lines, terms, analyse)
        + spacing_violations(lines, analyse)
        + notation_violations(lines, prose=prose, exempt=exempt)
        + parameter_violations(lines)
        + calque_violations(lines)
    )


# The unit-variance divisor has one notation: σ_qσ_k√d_k (3√d_k as the note's instance).
SIGMA_SQUARED_DIVISOR = re.compile(r"σ²\s*√|σ\^2\s*√|\\sigma\^2\s*\\sqrt|\\sigma\^\{2\}\s*\\sqrt")


def divisor_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: write the unit-variance divisor as σ_qσ_k√d_k "
        f"($\\sigma_q\\sigma_k\\sqrt{{d_k}}$), or 3√d_k for the note's components"
        for line in lines
        if SIGMA_SQUARED_DIVISOR.search(line.text)
    ]


def glossary_violations(glossary: Path, terms: list[Term]) -> list[str]:
    """Search maps each variant to its term: the glossary row of the term lists them all."""
    rows = [
        (number, line)
        for number, line in enumerate(glossary.read_text(encoding="utf-8").splitlines(), 1)
        if "|" in line
    ]
    problems = []
    for term in terms:
        if not term.variants:
            continue
        found = next(
            ((n, r) for n, r in rows if r.split("|")[1].strip().startswith(term.term)), None
        )
        if found is None:
            problems.append(
                f"{where(glossary, rows[0][0] if rows else 1)}: no row for '{term.term}'"
            )
            continue
        number, row = found
        missing = [v for v in term.variants if v not in row]
        if missing:
            problems.append(f"{where(glossary, number)}: row '{term.term}' lacks {missing}")
    return problems
