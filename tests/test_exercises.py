"""The exercises at the end of each teaching page: every one has a folded answer, and every
number an answer gives comes from the build and is checked by a claim.

An exercise is a paragraph starting ``**N. title**`` in the page's ``## … { #exercises }``
section, followed by one folded ``??? success "풀이"`` (Korean) / ``"Solution"`` (English)
block: its answer. An answer may derive exact values by hand ($64/9$, $\\sqrt{8}$), but a
number with a decimal point must be a ``{{ae:…}}`` placeholder, and an answer with a
placeholder must carry a ``<!-- claim: … -->`` marker, so it can never disagree with the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from site_build import LANGS, source_name

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = (
    "index",
    "scaled-dot-product",
    "saturation",
    "gradients",
    "multi-head",
    "beyond",
    "training",
    "after-training",
)
LABEL = {"ko": "풀이", "en": "Solution"}
HEADING = {"ko": "연습문제", "en": "Exercises"}
# A fold that holds exercises: the less central ones, or all of them on a short-path page.
MORE_LABEL = {
    "ko": ("더 풀어 볼 문제", "문제 보기"),
    "en": ("More exercises", "Show the exercises"),
}
MORE = re.compile(r'^\?\?\? question "(?P<label>[^"]*)"\s*$')
SECTION = re.compile(r"^## (?P<title>.+?) \{ #exercises \}\s*$", re.M)
EXERCISE = re.compile(r"^\*\*(?P<number>\d+)\. ", re.M)
FOLD = re.compile(r'^\?\?\?(?P<open>\+?) (?P<kind>\w+) "(?P<label>[^"]*)"\s*$')
PLACEHOLDER = re.compile(r"\{\{\s*ae:([^}\s]*)\s*\}\}")
CLAIM = re.compile(r"<!--\s*claim:\s*([^\s>]+)\s*-->")
DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+")
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")


@dataclass
class Exercise:
    number: int
    question: str
    answers: list[tuple[str, str, str]]  # (open marker, admonition kind, label) of each fold
    answer: str  # the text of the first fold, dedented


def page_path(page: str, lang: str) -> Path:
    return DOCS / source_name(page, lang)


def exercise_section(markdown: str) -> tuple[str, str] | None:
    """(heading title, body) of the ``{ #exercises }`` section, up to the next ## or footnotes;
    the exercises in its "more exercises" fold are read like the others."""
    found = SECTION.search(markdown)
    if found is None:
        return None
    body = markdown[found.end() :]
    end = re.search(r"^(## |\[\^[^\]]+\]:)", body, re.M)
    return found.group("title"), unfold_more(body[: end.start()] if end else body)


def unfold_more(body: str) -> str:
    """The section with its ``??? question "더 풀어 볼 문제"`` / ``"More exercises"`` fold (the
    less central exercises, folded so that the page reads faster; ``"문제 보기"`` / ``"Show
    the exercises"`` when it holds them all) dedented in place."""
    lines, out, inside = body.splitlines(), [], False
    for line in lines:
        more = MORE.match(line)
        if more and any(more["label"] in labels for labels in MORE_LABEL.values()):
            inside = True
            continue
        if inside and line.strip() and not line.startswith("    "):
            inside = False
        out.append(line[4:] if inside and line.startswith("    ") else line)
    return "\n".join(out)


def parse_exercises(section: str) -> list[Exercise]:
    """The exercises of a section, each with the folds that follow it before the next one."""
    starts = list(EXERCISE.finditer(section))
    exercises = []
    for i, start in enumerate(starts):
        chunk = section[start.start() : starts[i + 1].start() if i + 1 < len(starts) else None]
        lines = chunk.splitlines()
        question, answers, answer_lines, in_fold = [], [], [], False
        for line in lines:
            fold = FOLD.match(line)
            if fold:
                answers.append((fold["open"], fold["kind"], fold["label"]))
                in_fold = len(answers) == 1
            elif in_fold and (line.startswith("    ") or not line.strip()):
                answer_lines.append(line[4:])
            elif not answers:
                question.append(line)
            else:
                in_fold = False
        exercises.append(
            Exercise(
                int(start["number"]),
                "\n".join(question).strip(),
                answers,
                "\n".join(answer_lines).strip(),
            )
        )
    return exercises


def answer_problems(answer: str) -> list[str]:
    """What makes an answer's numbers unchecked: hand-typed decimals, placeholders with no claim."""
    problems = []
    text = CLAIM.sub("", LINK_TARGET.sub("]()", PLACEHOLDER.sub("", answer)))
    for number in DECIMAL.findall(text):
        problems.append(f"hand-typed number {number} (write a {{{{ae:…}}}} placeholder)")
    if PLACEHOLDER.search(answer) and not CLAIM.search(answer):
        names = ", ".join(PLACEHOLDER.findall(answer))
        problems.append(f"numbers {names} with no <!-- claim: … --> checking the answer")
    return problems


def page_problems(markdown: str, lang: str) -> list[str]:
    """Everything wrong with one page's exercises, as messages; empty when all is well."""
    section = exercise_section(markdown)
    if section is None:
        return ["no '## … { #exercises }' section"]
    title, body = section
    problems = [] if title == HEADING[lang] else [f"heading {title!r}, not {HEADING[lang]!r}"]
    exercises = parse_exercises(body)
    if not 3 <= len(exercises) <= 6:
        problems.append(f"{len(exercises)} exercises (3 to 6 per page)")
    for i, exercise in enumerate(exercises, 1):
        where = f"exercise {exercise.number}"
        if exercise.number != i:
            problems.append(f"{where}: numbered out of order (expected {i})")
        if not exercise.question:
            problems.append(f"{where}: no question")
        if len(exercise.answers) != 1:
            problems.append(f"{where}: {len(exercise.answers)} answer blocks (exactly one)")
            continue
        opened, kind, label = exercise.answers[0]
        if opened or kind != "success" or label != LABEL[lang]:
            problems.append(
                f'{where}: answer must be a folded ??? success "{LABEL[lang]}", '
                f'got ???{opened} {kind} "{label}"'
            )
        if not exercise.answer:
            problems.append(f"{where}: empty answer")
        problems += [f"{where}: {p}" for p in answer_problems(exercise.answer)]
    return problems


# -- the real pages ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_every_exercise_has_a_checked_folded_answer(page, lang):
    path = page_path(page, lang)
    problems = page_problems(path.read_text(encoding="utf-8"), lang)
    assert not problems, f"{path.relative_to(DOCS)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", PAGES)
def test_both_languages_ask_the_same_exercises_with_the_same_numbers(page):
    """Same count, and each answer quotes the same numbers and claims in ko and en."""
    parsed = {}
    for lang in ("ko", "en"):
        section = exercise_section(page_path(page, lang).read_text(encoding="utf-8"))
        assert section is not None, f"{page} ({lang}): no exercises"
        parsed[lang] = parse_exercises(section[1])
    assert len(parsed["ko"]) == len(parsed["en"]), page
    for ko, en in zip(parsed["ko"], parsed["en"], strict=True):
        for pattern in (PLACEHOLDER, CLAIM):
            in_ko = sorted(set(pattern.findall(ko.question + ko.answer)))
            in_en = sorted(set(pattern.findall(en.question + en.answer)))
            assert in_ko == in_en, f"{page} exercise {ko.number}: ko {in_ko}, en {in_en}"


# -- the checks can fail -----------------------------------------------------------------------

GOOD = """## Exercises { #exercises }

**1. One** (recall). Why?

??? success "Solution"

    Because $64/9$ = {{ae:a.b}}. <!-- claim: a.holds -->

**2. Two** (derivation). How?

??? success "Solution"

    By hand: $\\sqrt{8}$.

**3. Three** (predict). How much?

??? success "Solution"

    {{ae:c.d}} and {{ae:e.f}}. <!-- claim: c.holds -->
"""


def test_a_well_formed_section_passes():
    assert page_problems(GOOD, "en") == []
    assert [e.number for e in parse_exercises(exercise_section(GOOD)[1])] == [1, 2, 3]


def test_exercises_in_the_more_exercises_fold_are_read_and_checked():
    head, three = GOOD.split("**3. Three**")
    folded = (
        head
        + '??? question "More exercises"\n\n'
        + "\n".join(
            ("    " + line) if line.strip() else ""
            for line in ("**3. Three**" + three).splitlines()
        )
    )
    assert [e.number for e in parse_exercises(exercise_section(folded)[1])] == [1, 2, 3]
    assert page_problems(folded, "en") == []
    unchecked = folded.replace(" <!-- claim: c.holds -->", "")
    assert "c.d, e.f with no <!-- claim" in " ".join(page_problems(unchecked, "en"))


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (GOOD.replace('??? success "Solution"\n\n    By hand: $\\sqrt{8}$.\n', ""), "0 answer"),
        (GOOD.replace("By hand: $\\sqrt{8}$.", "About 2.83."), "hand-typed number 2.83"),
        (GOOD.replace(" <!-- claim: c.holds -->", ""), "c.d, e.f with no <!-- claim"),
        (
            GOOD.replace('??? success "Solution"\n\n    By', '???+ success "Solution"\n\n    By'),
            "folded",
        ),
        (GOOD.replace("**3. Three**", "**4. Three**"), "out of order"),
        (GOOD.replace("## Exercises", "## Things to do"), "heading"),
        (GOOD.split("**3. Three**")[0], "2 exercises"),
        (GOOD.replace("{ #exercises }", ""), "no '## … { #exercises }' section"),
    ],
)
def test_a_broken_section_is_reported(broken, message):
    problems = page_problems(broken, "en")
    assert any(message in p for p in problems), problems


def test_a_korean_page_needs_the_korean_label():
    korean = GOOD.replace("## Exercises", "## 연습문제")
    assert any("풀이" in p for p in page_problems(korean, "ko"))
    assert page_problems(korean.replace('"Solution"', '"풀이"'), "ko") == []
