"""Exercises that check the reader's answer: the ``<!-- answer: … -->`` markers.

A numeric exercise ends its question paragraph with ``<!-- answer: <number-name> ±<tolerance>
-->`` (optionally followed by a quoted label naming the quantity the box checks, when the
question asks for several: ``<!-- answer: name ±0.01 "tr J" -->``). ``<number-name>`` is a
``{{ae:…}}`` number whose printed value is the expected answer; the tolerance is absolute.

:func:`take_answers` replaces each marker with an empty, hidden ``<span class="ae-answer">``
in its paragraph, carrying the number's printed value and the tolerance. The box itself is
drawn after the paragraph by ``docs/assets/javascripts/answers.js`` in the page's language, so
a page without JavaScript, the search index and the PDF edition show the question and its
folded answer as before.

:func:`check_answers` (also run by :func:`take_answers`): a marker naming an unknown number,
or one whose printed value is not a single number, stops the build naming the page and
exercise.

:func:`parse_answer` is how a typed answer is read. ``answers.js`` reads the same way, and
``tests/test_browser_answers.py`` checks that both read every printed answer alike:

- full-width digits and signs, superscripts and spaces are folded (Unicode NFKC; every space
  removed), ``−`` (U+2212) is a minus, and a leading ``≈``, ``~`` or ``약`` is dropped;
- a decimal (``0.5``, ``.5``, ``-3``), a fraction of two decimals (``1/2``, ``64/9``), or a
  power of ten (``2e-42``, ``2×10^-42``, ``2·10⁻⁴²``);
- a comma only groups thousands (``4,224``); any other comma (``0,5``) is refused with a
  message to write a point, since in Korean, as in English, the comma groups thousands.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import NamedTuple

ANSWER_MARKER = re.compile(r"<!--\s*answer:(?P<body>.*?)-->", re.S)
MARKER_BODY = re.compile(
    r"^\s*(?P<name>[^\s±\"]+)\s+±\s*(?P<tolerance>\d+(?:\.\d+)?(?:[eE]-?\d+)?)"
    r'(?:\s+"(?P<label>[^"<>]+)")?\s*$'
)
EXERCISE_START = re.compile(r"^[ \t]*\*\*(?P<number>\d+)\. ", re.M)
BLANK_LINE = re.compile(r"\n[ \t]*\n")

DECIMAL = r"[+-]?(?:\d+\.?\d*|\.\d+)"
PLAIN = re.compile(rf"^{DECIMAL}$")
FRACTION = re.compile(rf"^(?P<top>{DECIMAL})/(?P<bottom>{DECIMAL})$")
EXPONENT = re.compile(rf"^(?P<mantissa>{DECIMAL})?(?:[eE]|[×xX*·]10\^?)(?P<power>[+-]?\d+)$")
POWER_OF_TEN = re.compile(r"^10\^?(?P<power>[+-]?\d+)$")
SQUARE_ROOT = re.compile(rf"^(?:√|sqrt)(?:(?P<bare>{DECIMAL})|\((?P<inner>{DECIMAL})\))$")  # √64
THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d*)?$")  # never 0,xxx
APPROXIMATELY = ("≈", "~", "약")


class AnswerError(ValueError):
    """A marker is malformed, names an unknown number, or its number is not one value."""


class Answer(NamedTuple):
    where: str  # the page's source path
    exercise: str  # "exercise 2", or "line 40" for a marker outside a numbered exercise
    name: str  # the {{ae:…}} number whose printed value is the expected answer
    tolerance: str  # absolute, as written in the marker


def normalise(text: str) -> str:
    """``text`` as the parser reads it: NFKC-folded, without spaces, U+2212 as ``-``."""
    folded = unicodedata.normalize("NFKC", text).replace("\u2212", "-")
    folded = "".join(folded.split())
    for prefix in APPROXIMATELY:
        folded = folded.removeprefix(prefix)
    return folded


def parse_answer(text: str) -> float | str:
    """The number ``text`` states, or why it states none: ``"empty"``, ``"comma"`` (a comma
    that does not group thousands) or ``"malformed"``."""
    s = normalise(text)
    if not s:
        return "empty"
    if "," in s:
        if not THOUSANDS.match(s):
            return "comma"
        s = s.replace(",", "")
    if PLAIN.match(s):
        return float(s)
    if found := FRACTION.match(s):
        bottom = float(found["bottom"])
        return float(found["top"]) / bottom if bottom else "malformed"
    if found := EXPONENT.match(s):
        mantissa = float(found["mantissa"]) if found["mantissa"] else 1.0
        return mantissa * 10.0 ** int(found["power"])
    if found := POWER_OF_TEN.match(s):
        return 10.0 ** int(found["power"])
    if found := SQUARE_ROOT.match(s):
        radicand = float(found["bare"] or found["inner"])
        return math.sqrt(radicand) if radicand >= 0 else "malformed"
    return "malformed"


def exercise_at(markdown: str, position: int) -> str:
    """The exercise a marker at ``position`` belongs to, for messages."""
    starts = [m for m in EXERCISE_START.finditer(markdown, 0, position)]
    if starts:
        return f"exercise {starts[-1]['number']}"
    return f"line {markdown.count(chr(10), 0, position) + 1}"


def answer_box(value: str, tolerance: str, label: str | None) -> str:
    """The placeholder ``answers.js`` turns into the input box (nothing without JavaScript).

    An empty ``<span>`` in the question's paragraph, where the marker was: inside an
    admonition or a fold Python-Markdown wraps raw HTML in ``<p>``, and a ``<div>`` in a
    ``<p>`` is invalid HTML (the browser ends the paragraph early). answers.js puts the box
    after the paragraph."""
    attributes = (
        f'class="ae-answer" data-answer="{html.escape(value)}" data-tolerance="{tolerance}"'
    )
    if label:
        attributes += f' data-label="{html.escape(label)}"'
    return f"<span {attributes} hidden></span>"


def take_answers(markdown: str, where: str, numbers: Mapping[str, str]) -> tuple[str, list[Answer]]:
    """``markdown`` with each answer marker replaced by its box's placeholder (in the marker's
    paragraph), which carries the number's printed text; and the answers. Raises
    :class:`AnswerError` for a malformed marker or one whose number is unknown or not one
    value (:func:`check_answers`)."""
    answers: list[Answer] = []
    out, position = [], 0
    for marker in ANSWER_MARKER.finditer(markdown):
        exercise = exercise_at(markdown, marker.start())
        body = MARKER_BODY.match(marker["body"])
        if body is None:
            raise AnswerError(
                f"{where}, {exercise}: malformed answer marker {marker.group(0)!r}; write "
                '<!-- answer: <number-name> ±<tolerance> --> (optionally then "label"), '
                "with an absolute tolerance such as ±0.005"
            )
        if marker.start() < position:
            raise AnswerError(f"{where}, {exercise}: two answer markers in one paragraph")
        name, tolerance = body["name"], body["tolerance"]
        answers.append(Answer(where, exercise, name, tolerance))
        paragraph_end = BLANK_LINE.search(markdown, marker.end())
        end = paragraph_end.start() if paragraph_end else len(markdown)
        box = answer_box(str(numbers.get(name, "")), tolerance, body["label"])
        out.append(markdown[position : marker.start()])
        out.append(box)
        out.append(markdown[marker.end() : end])
        position = end
    out.append(markdown[position:])
    check_answers(answers, numbers)
    return "".join(out), answers


def answer_problems(answers: Iterable[Answer], numbers: Mapping[str, str]) -> list[str]:
    """Why each answer cannot be checked: its number is unknown, or prints as no single
    finite value (a range over seeds, a word)."""
    problems = []
    for answer in answers:
        place = f"{answer.where}, {answer.exercise}"
        if answer.name not in numbers:
            problems.append(
                f"{place}: the answer marker names unknown number {answer.name!r}; "
                "list the names with `python -m attention_explained numbers`"
            )
            continue
        value = parse_answer(str(numbers[answer.name]))
        if isinstance(value, str) or not math.isfinite(value):
            problems.append(
                f"{place}: the answer marker's number {answer.name!r} prints as "
                f"{str(numbers[answer.name])!r}, not one value a reader can type"
            )
    return problems


def check_answers(answers: Iterable[Answer], numbers: Mapping[str, str]) -> None:
    """Raise :class:`AnswerError` with every answer :func:`answer_problems` finds."""
    problems = answer_problems(answers, numbers)
    if problems:
        raise AnswerError("; ".join(problems))
