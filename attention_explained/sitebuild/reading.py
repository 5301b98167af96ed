"""A page's main text and its reading time, as pure functions over its Markdown source.

The main text is what a reader meets without opening anything: every line of the page
except its front matter, code blocks, collapsed blocks (``??? note …`` and their indented
body; an open ``???+`` block or a ``!!!`` box is read, so it counts), footnote definitions
and HTML comments (the claim markers). The hedge linter and the reading time both read it.

Reading time, the rule the pages state (glossary, "읽는 시간" / "Reading time"):

- Korean: 500 characters a minute (every character but spaces); English: 200 words a minute;
- a number (``{{ae:…}}``) or an inline formula (``$…$``) counts as one word, or three
  characters in Korean;
- each figure, each table and each display equation (``$$…$$``) costs a fixed
  ``FIGURE_SECONDS``, ``TABLE_SECONDS``, ``DISPLAY_MATH_SECONDS``;
- the page prints the total rounded to whole minutes (half up), at least 1.

No MkDocs here: the build's plugin calls :func:`reading_line` for each page, and the tests
call :func:`reading_time` on the same source.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from attention_explained.languages import pick

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "COMMENT",
    "FRONT_MATTER",
    "TOKEN_MARK",
    "korean_characters",
    "main_text",
    "reading_seconds",
    "reading_time",
    "with_reading_line",
]

KOREAN_CHARACTERS_PER_MINUTE = 500
ENGLISH_WORDS_PER_MINUTE = 200
KOREAN_CHARACTERS_PER_TOKEN = 3  # a number or an inline formula
FIGURE_SECONDS = 15
TABLE_SECONDS = 15
DISPLAY_MATH_SECONDS = 10

FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)
FENCE = re.compile(r"^(\s*)(```|~~~)")
COLLAPSED = re.compile(r"^(\s*)\?\?\?(?!\+)")  # ??? folded; ???+ is open
FOOTNOTE_DEF = re.compile(r"^\[\^[^\]]+\]:")
FIGURE = re.compile(r"^\s*!\[[^\]]*\]\([^)]*\)\s*$")
HEADING_ATTRS = re.compile(r"\s*\{[^}]*\}\s*$")
INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)(?:\\.|[^$\\])+?\$")
NUMBER = re.compile(r"\{\{\s*ae:[^}]*\}\}")
TOKEN_MARK = "\x00"  # one number or inline formula, after inline_tokens
IMAGE_OR_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\]")
ATTRS = re.compile(r"\{\s*[:#.][^}]*\}")
BOX_TITLE = re.compile(r'^(\s*)(?:!!!|\?\?\?\+)\s*[\w-]+(?:\s+"([^"]*)")?\s*$')
WORD = re.compile(r"\w", re.U)
HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")  # markup is not read; the text between tags is


@dataclass(frozen=True)
class MainText:
    """The main text's prose (Markdown syntax removed; numbers and formulas as
    ``TOKEN_MARK``) and its counted blocks."""

    prose: str
    figures: int
    tables: int
    display_math: int


def main_text(markdown: str, *, keep_links: bool = False) -> MainText:
    """The page's main text: see the module docstring for what is left out. Links become
    their text unless ``keep_links``."""
    text = COMMENT.sub("", FRONT_MATTER.sub("", markdown))
    lines = text.splitlines()
    kept: list[str] = []
    figures = tables = display = 0
    i = 0
    in_table = False
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:  # a code block: skip to its closing fence
            marker = fence.group(2)
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                i += 1
            i += 1
            continue
        folded = COLLAPSED.match(line)
        if folded or FOOTNOTE_DEF.match(line):  # skip the block's indented body
            indent = len(folded.group(1)) if folded else 0
            i += 1
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                i += 1
            continue
        stripped = line.strip()
        if stripped.startswith("$$"):  # a display equation: a fixed cost, not its TeX
            display += 1
            if not (len(stripped) > 2 and stripped.endswith("$$") and stripped != "$$"):
                i += 1
                while i < len(lines) and "$$" not in lines[i]:
                    i += 1
            i += 1
            continue
        if FIGURE.match(line):
            figures += 1
            i += 1
            continue
        if stripped.startswith("|"):
            if not in_table:
                tables += 1
            in_table = True
            i += 1
            continue
        in_table = False
        box = BOX_TITLE.match(line)
        if box:  # a box's title is read; its keyword is not
            kept.append(box.group(2) or "")
        else:
            kept.append(line)
        i += 1
    prose = "\n".join(kept)
    prose = NUMBER.sub(TOKEN_MARK, prose)
    prose = INLINE_MATH.sub(TOKEN_MARK, prose)
    if not keep_links:
        prose = IMAGE_OR_LINK.sub(r"\1", prose)
    prose = HTML_TAG.sub("", prose)
    prose = FOOTNOTE_REF.sub("", prose)
    prose = ATTRS.sub("", prose)
    prose = re.sub(r"^\s*#+\s*", "", prose, flags=re.M)
    prose = re.sub(r"[*`]", "", prose)
    return MainText(prose, figures, tables, display)


def korean_characters(prose: str) -> int:
    """Characters other than spaces; a number or formula counts as three."""
    tokens = prose.count(TOKEN_MARK)
    plain = re.sub(r"\s", "", prose.replace(TOKEN_MARK, ""))
    return len(plain) + KOREAN_CHARACTERS_PER_TOKEN * tokens


def english_words(prose: str) -> int:
    """Words with a letter or digit in them; a number or formula counts as one word."""
    tokens = prose.count(TOKEN_MARK)
    words = [w for w in prose.replace(TOKEN_MARK, " ").split() if WORD.search(w)]
    return len(words) + tokens


# How a language's main text is counted: (what counts, how many of it a minute).
TEXT_RATE = {
    "ko": (korean_characters, KOREAN_CHARACTERS_PER_MINUTE),
    "en": (english_words, ENGLISH_WORDS_PER_MINUTE),
}


def reading_seconds(markdown: str, lang: str) -> float:
    """The page's reading time in seconds, by the rule in the module docstring."""
    text = main_text(markdown)
    count, per_minute = pick(TEXT_RATE, lang, "attention_explained/sitebuild/reading.py TEXT_RATE")
    seconds = 60 * count(text.prose) / per_minute
    return (
        seconds
        + FIGURE_SECONDS * text.figures
        + TABLE_SECONDS * text.tables
        + DISPLAY_MATH_SECONDS * text.display_math
    )


@functools.lru_cache(maxsize=256)  # a serve rebuild asks again for every unchanged page
def reading_time(markdown: str, lang: str) -> int:
    """The minutes a page prints: its seconds rounded half up to whole minutes, at least 1."""
    return max(1, math.floor(reading_seconds(markdown, lang) / 60 + 0.5))


# The printed line, right under the page's title. Its link explains the rule.
LINE = {
    "ko": '[읽는 시간]({glossary}#reading-time "{rule}") {minutes}분',
    "en": '[Reading time]({glossary}#reading-time "{rule}"): {minutes} min',
}
RULE = {
    "ko": "접힌 블록과 코드를 뺀 본문을 1분에 500자로, 그림·표는 15초, 수식은 10초로 셉니다",
    "en": "Main text outside folded blocks and code at 200 words a minute; "
    "15 s per figure or table, 10 s per display equation",
}
LINE_PATTERN = {
    "ko": re.compile(r"읽는 시간</a>\s*(\d+)분"),
    "en": re.compile(r"Reading time</a>:\s*(\d+) min"),
}
H1 = re.compile(r"^# .*$", re.M)


def reading_line(minutes: int, lang: str, glossary: str) -> str:
    """The Markdown line a page shows (``glossary``: the glossary's path from the page)."""
    line = pick(LINE, lang, "attention_explained/sitebuild/reading.py LINE")
    rule = pick(RULE, lang, "attention_explained/sitebuild/reading.py RULE")
    return line.format(glossary=glossary, rule=rule, minutes=minutes)


def printed_minutes(html: str, lang: str) -> int | None:
    """The minutes a built page prints, or None if it prints none."""
    pattern = pick(LINE_PATTERN, lang, "attention_explained/sitebuild/reading.py LINE_PATTERN")
    match = pattern.search(html)
    return int(match.group(1)) if match else None


def with_reading_line(markdown: str, lang: str, glossary: str) -> str:
    """The page with its reading-time line after its ``#`` title (unchanged without one)."""
    title = H1.search(markdown)
    if title is None:
        return markdown
    line = reading_line(reading_time(markdown, lang), lang, glossary)
    at = title.end()
    return f"{markdown[:at]}\n\n{line}\n{{ .ae-reading-time }}\n{markdown[at:]}"
