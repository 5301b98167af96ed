"""Prose checks on a page's main text: hedges, glosses, bare links in parentheses.

**Hedges and qualifiers**: the word lists, and how many per 1,000 characters.

A hedge ("probably", "아마") or a qualifier ("roughly", "대략", "거의") tells the reader that a
statement is less than exact. Where that is the finding, keep it; everywhere else it slows the
reading. ``python -m attention_explained lint --pages`` and ``tests/test_prose.py`` hold every
page's main text (``reading.main_text``: outside folded blocks and code) to at most
``MAX_PER_1000`` per 1,000 characters in both languages.

The lists are explicit so that they can be reviewed by reading them. Each entry is a regular
expression and a note of what it catches; a Korean entry matches inside a word only where the
note says so. Characters are counted as for the reading time: every character but spaces, a
number or an inline formula as three.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from attention_explained.languages import pick, source_language
from attention_explained.lint.text import where
from attention_explained.settings import LANGS
from attention_explained.sitebuild.reading import (
    COMMENT,
    FRONT_MATTER,
    TOKEN_MARK,
    korean_characters,
    main_text,
)

MAX_PER_1000 = 3.0

NOT_HANGUL_BEFORE = r"(?<![\uac00-\ud7a3])"
NUMBERISH = r"(?=\s*(?:[\d$≈~\-−]|" + TOKEN_MARK + r"))"  # "about 3", "약 {{ae:x}}"

HEDGES: dict[str, list[tuple[str, str]]] = {
    "ko": [
        (NOT_HANGUL_BEFORE + r"대략", "대략 (roughly)"),
        (NOT_HANGUL_BEFORE + r"약" + NUMBERISH, "약 before a number, not 요약 or 약점"),
        (r"쯤", "-쯤 (15분쯤, 어디쯤)"),
        (NOT_HANGUL_BEFORE + r"아마", "아마, 아마도"),
        (r"정도", "정도, 어느 정도 (one hit)"),
        (NOT_HANGUL_BEFORE + r"거의", "거의 (almost)"),
        (NOT_HANGUL_BEFORE + r"다소", "다소 (somewhat)"),
        (NOT_HANGUL_BEFORE + r"꽤", "꽤 (fairly)"),
        (NOT_HANGUL_BEFORE + r"대체로", "대체로 (mostly)"),
        (NOT_HANGUL_BEFORE + r"대부분", "대부분 (most of)"),
        (NOT_HANGUL_BEFORE + r"사실상", "사실상 (effectively)"),
        (NOT_HANGUL_BEFORE + r"비교적", "비교적 (relatively)"),
        (NOT_HANGUL_BEFORE + r"상당히", "상당히 (considerably)"),
        (NOT_HANGUL_BEFORE + r"일반적으로", "일반적으로 (generally)"),
        (NOT_HANGUL_BEFORE + r"흔히", "흔히 (often)"),
        (r"수도 있", "-ㄹ 수도 있다 (may)"),
        (r"것 같", "-ㄴ 것 같다 (seems)"),
        (r"(?<=[\uac00-\ud7a3] )듯", "-ㄴ 듯하다 (seems)"),
        (r"것으로 보", "-ㄴ 것으로 보인다 (appears)"),
        (r"편입니다|편이", "-ㄴ 편이다 (tends to be)"),
        (r"가능성", "가능성 (likely)"),
        (NOT_HANGUL_BEFORE + r"주로", "주로 (mainly)"),
        (NOT_HANGUL_BEFORE + r"대개", "대개 (usually)"),
        (NOT_HANGUL_BEFORE + r"종종", "종종 (often)"),
        (NOT_HANGUL_BEFORE + r"때로", "때로, 때로는 (sometimes)"),
        (NOT_HANGUL_BEFORE + r"약간", "약간 (slightly)"),
        (NOT_HANGUL_BEFORE + r"조금", "조금 (a little)"),
        (NOT_HANGUL_BEFORE + r"어쩌면", "어쩌면 (perhaps)"),
    ],
    "en": [
        (r"\babout" + NUMBERISH, "about before a number"),
        (r"\baround" + NUMBERISH, "around before a number"),
        (r"\broughly\b", "roughly"),
        (r"\bapproximately\b", "approximately"),
        (r"\b(?:un)?likely\b", "likely, unlikely"),
        (r"\bprobably\b", "probably"),
        (r"\bmay\b", "may"),
        (r"\bmight\b", "might"),
        (r"\bcould\b", "could"),
        (r"\bnearly\b", "nearly"),
        (r"\balmost\b", "almost"),
        (r"\bsomewhat\b", "somewhat"),
        (r"\bfairly\b", "fairly"),
        (r"\bquite\b", "quite"),
        (r"\brather\b(?! than)", "rather, not 'rather than'"),
        (r"\bperhaps\b", "perhaps"),
        (r"\bpossibly\b", "possibly"),
        (r"\bpresumably\b", "presumably"),
        (r"\barguably\b", "arguably"),
        (r"\bessentially\b", "essentially"),
        (r"\beffectively\b", "effectively"),
        (r"\bpractically\b", "practically"),
        (r"\bvirtually\b", "virtually"),
        (r"\bmostly\b", "mostly"),
        (r"\blargely\b", "largely"),
        (r"\bgenerally\b", "generally"),
        (r"\btypically\b", "typically"),
        (r"\busually\b", "usually"),
        (r"\bseems?\b", "seem, seems"),
        (r"\bappears? to\b", "appear to, appears to"),
        (r"\btends? to\b", "tend to, tends to"),
        (r"\bsuggests?\b", "suggest, suggests"),
        (r"\boften\b", "often"),
        (r"\bsometimes\b", "sometimes"),
        (r"\bslightly\b", "slightly"),
        (r"\bmainly\b", "mainly"),
        (r"\brelatively\b", "relatively"),
        (r"\bmore or less\b", "more or less"),
    ],
}
PATTERNS = {
    lang: [(re.compile(rx, re.I), note) for rx, note in entries] for lang, entries in HEDGES.items()
}


def hedges(prose: str, lang: str) -> list[tuple[str, str]]:
    """Every hedge in ``prose``: (the matched text with a little context, the entry's note)."""
    found = []
    for pattern, note in pick(PATTERNS, lang, "attention_explained/lint/prose.py HEDGES"):
        for match in pattern.finditer(prose):
            start, end = max(0, match.start() - 12), match.end() + 12
            context = prose[start:end].replace("\n", " ").replace(TOKEN_MARK, "#")
            found.append((context, note))
    return found


def hedge_density(markdown: str, lang: str) -> tuple[float, list[tuple[str, str]]]:
    """Hedges per 1,000 characters of the page's main text, and the hedges themselves."""
    prose = main_text(markdown).prose
    found = hedges(prose, lang)
    characters = max(1, korean_characters(prose))
    return 1000 * len(found) / characters, found


# -- links and glosses ----------------------------------------------------------------------

# "([왜 1이 아닐까](saturation.md#variance-9))": a parenthesis holding nothing but a link.
BARE_LINK = re.compile(r"\(\s*\[[^\]]+\]\([^)\s]+(?:\s+\"[^\"]*\")?\)\s*\)")


def bare_links(markdown: str) -> list[str]:
    """Parentheses in the main text that hold only a link: write the link into the sentence."""
    prose = COMMENT.sub("", main_text(markdown, keep_links=True).prose)
    return [match.group(0) for match in BARE_LINK.finditer(prose)]


# An English gloss in parentheses right after Korean: "헤드 차원(head dimension)".
GLOSS = re.compile(r"((?:[\w·-]+ ){0,4}[\w·-]*[\uac00-\ud7a3][\w·-]*)\(([A-Za-z][A-Za-z .,'-]*)\)")
HEADINGS = re.compile(r"^#+ .*$", re.M)


def late_glosses(markdown: str) -> list[tuple[str, str]]:
    """Glosses that do not stand at their term's first use on the page (headings aside).

    The Korean term is taken as the last words before the parenthesis, as many as the gloss
    has English words (a hyphen separates words: "cross-entropy" is 교차 엔트로피). The page
    is read in source order, folded blocks included, outside code, comments, math and link
    texts (a link names a page, like a heading), and outside the front matter (its
    ``description`` is for search engines and link cards, not the page's reader).
    """
    text = COMMENT.sub("", FRONT_MATTER.sub("", markdown))
    text = re.sub(r"^(\s*)(```|~~~).*?^\1\2", "", text, flags=re.S | re.M)
    text = HEADINGS.sub("", text)  # a heading names the topic; the gloss follows in the text
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"\$[^$\n]*\$", " ", text)
    text = re.sub(r"!?\[[^\]]*\]\([^)]*\)", " ", text).replace("*", "")  # links name pages
    late = []
    for match in GLOSS.finditer(text):
        english = match.group(2)
        count = len(english.replace("-", " ").split())
        phrase = " ".join(match.group(1).split()[-count:])
        phrase = re.sub(r"^[^\uac00-\ud7a3A-Za-z]+", "", phrase)
        earlier = text[: match.end(1) - len(phrase)]
        if phrase and phrase in earlier:
            late.append((phrase, english))
    return late


# -- as problems: path:line: message ---------------------------------------------------------


def lang_of(path: Path) -> str:
    """A page's language from its name: ``name.<lang>.md`` is ``lang``'s (one of
    settings.LANGS), ``name.md`` the default's (the first of settings.LANGS)."""
    return source_language(path.name, LANGS, LANGS[0])


def line_of(markdown: str, *needles: str) -> int:
    """The first source line that holds the first of ``needles`` found in it (1 if none is:
    the checks read a text with the Markdown syntax removed, so what they found is not
    always verbatim in the source)."""
    lines = markdown.splitlines()
    for needle in needles:
        for number, line in enumerate(lines, 1):
            if needle in line:
                return number
    return 1


def hedge_problems(path: Path) -> list[str]:
    """The page, at its first line, if its main text holds more than ``MAX_PER_1000`` hedges
    per 1,000 characters; the message lists them."""
    density, found = hedge_density(path.read_text("utf-8"), lang_of(path))
    if density <= MAX_PER_1000:
        return []
    listed = "; ".join(f"…{context}… ({note})" for context, note in found)
    return [
        f"{where(path, 1)}: {density:.2f} hedges or qualifiers per 1,000 characters of main "
        f"text (at most {MAX_PER_1000:g}): {listed}"
    ]


def bare_link_problems(path: Path) -> list[str]:
    """Each parenthesis of the main text that holds only a link, at its line."""
    markdown = path.read_text("utf-8")
    return [
        f"{where(path, line_of(markdown, found))}: '{found}': write the link into the sentence"
        for found in bare_links(markdown)
    ]


def late_gloss_problems(path: Path) -> list[str]:
    """Each English gloss after an earlier use of its term, at the gloss's line."""
    markdown = path.read_text("utf-8")
    problems = []
    for phrase, english in late_glosses(markdown):
        number = line_of(markdown, f"{phrase}({english})", f"({english})")
        problems.append(
            f"{where(path, number)}: gloss '{phrase}({english})' after an earlier use of "
            f"'{phrase}': give it at the term's first use on the page"
        )
    return problems


# -- comparisons between printed numbers ----------------------------------------------------

CLAIM_MARKER = re.compile(r"<!--\s*claim:\s*([^\s>]+)\s*-->")
PLACEHOLDER = re.compile(r"\{\{\s*ae:([^}\s]*)\s*\}\}")
# Words that compare two quantities, or a quantity with a bound.
COMPARISON = {
    "ko": re.compile(
        r"\d+\s*배|[두세네열]\s*배|분의\s*1|미만|이하|절반|넘습니다|넘게|넘지|넘는|못 미"
        r"|보다 (?:작|크|낮|높|적|많)"
    ),
    "en": re.compile(
        r"\b(?:less|more|fewer|smaller|larger|greater|lower|higher) than\b|\btimes\b|\btwice\b"
        r"|\bhalf\b|\bbelow\b|\bunder\b|\babove\b|\bat (?:most|least)\b|\bexceed"
        r"|\ba (?:third|quarter|fifth|sixth|seventh|eighth|ninth|tenth|twentieth)\b"
    ),
}


@dataclass(frozen=True)
class ClaimText:
    """The text a claim marker closes (back to the previous marker or paragraph start)."""

    claim: str
    text: str
    numbers: tuple[str, ...]  # the {{ae:…}} names in it


def claim_texts(markdown: str) -> list[ClaimText]:
    """Every claim marker's text, folded blocks included."""
    out = []
    for paragraph in re.split(r"\n\s*\n", markdown):
        start = 0
        for marker in CLAIM_MARKER.finditer(paragraph):
            text = " ".join(paragraph[start : marker.start()].split())
            out.append(ClaimText(marker.group(1), text, tuple(PLACEHOLDER.findall(text))))
            start = marker.end()
    return out


def comparisons(markdown: str, lang: str) -> list[ClaimText]:
    """The claim texts that print a number and use a comparison word (in their words: a
    number's name, such as ``{{ae:x.below_half}}``, is not read)."""
    words = pick(COMPARISON, lang, "attention_explained/lint/prose.py COMPARISON")
    return [
        c for c in claim_texts(markdown) if c.numbers and words.search(PLACEHOLDER.sub(" ", c.text))
    ]
