"""Chromium: the box under a numeric exercise checks a typed answer (answers.js).

Right, wrong and malformed answers in both languages, by keyboard alone; the verdict in a
polite live region; the answer kept across a reload; the folded solution still there; and
answers.js reads every printed answer, and a list of typed ones, as answers.py does.
"""

from __future__ import annotations

import re

import pytest
from browser_support import localized, wait_for_math
from site_build import DOCS, LANGS, source_name

from attention_explained.sitebuild._internal.answers import parse_answer

pytestmark = [pytest.mark.site, pytest.mark.browser]

MARKER = re.compile(r"<!--\s*answer:")
PAGES = sorted(
    p.name.removesuffix(".md")
    for p in DOCS.glob("*.md")
    if "." not in p.name.removesuffix(".md") and MARKER.search(p.read_text(encoding="utf-8"))
)
VERDICT = {
    "ko": {
        "right": "맞았습니다",
        "wrong": "아닙니다",
        "malformed": "숫자로 읽을 수 없습니다",
        "comma": "마침표",
    },
    "en": {
        "right": "Right.",
        "wrong": "Not quite",
        "malformed": "not a number",
        "comma": "with a point",
    },
}
EXACT = {"ko": "정확한 값", "en": "exact value"}
TYPED = [
    "0.5",
    ".5",
    "1/2",
    "64/9",
    "\u22120.5",
    "\uff10\uff0e\uff15",
    " 0 . 5 ",
    "약 7.1",
    "≈7.1",
    "2e-42",
    "2×10^-42",
    "2·10⁻⁴²",
    "10^-3",
    "4,224",
    "0,5",
    "abc",
    "1/0",
    "",
    "e^-96",
    "√64",
    "√(64)",
    "sqrt(64)",
    "√ 2",
    "√-4",
    "√(64",
    "√",
]


def source(page: str, lang: str) -> str:
    name = source_name(page, lang)
    return (DOCS / name).read_text(encoding="utf-8")


def open_page(open_session, server, page: str, lang: str, scheme: str = "light"):
    session = open_session(scheme)
    path = "" if page == "index" else f"{page}/"  # the home page is the root
    session.page.goto(server.url(localized(path, lang)))
    wait_for_math(session.page)
    session.page.wait_for_selector(".ae-answer form", state="attached")
    # Exercises sit in a folded "show the exercises" block on most pages: open the folds that
    # hold a box, as a reader does (each solution stays folded: it holds no box).
    session.page.evaluate(
        """() => document.querySelectorAll('details').forEach(d => {
            if (d.querySelector('.ae-answer')) d.open = true;
        })"""
    )
    session.page.wait_for_selector(".ae-answer form")
    return session


def verdict(session, box) -> tuple[str, str]:
    result = box.locator(".ae-answer__result")
    result.wait_for(state="visible")
    session.page.wait_for_function("el => el.textContent.length > 0", arg=result.element_handle())
    return box.get_attribute("data-state"), result.inner_text()


def test_there_are_pages_with_answers():
    assert len(PAGES) >= 5, PAGES


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_every_marker_has_a_labelled_box_and_a_folded_solution(open_session, server, page, lang):
    session = open_page(open_session, server, page, lang)
    boxes = session.page.locator(".ae-answer")
    assert boxes.count() == len(MARKER.findall(source(page, lang)))
    for i in range(boxes.count()):
        box = boxes.nth(i)
        field = box.locator("input")
        label = box.locator(f'label[for="{field.get_attribute("id")}"]').inner_text()
        if float(box.get_attribute("data-tolerance")) == 0:  # an exact answer: no "±0"
            assert EXACT[lang] in label and "±" not in label, label
        else:
            assert "±" in label and box.get_attribute("data-tolerance") in label
        assert box.locator('[role="status"][aria-live="polite"]').count() == 1
        # the folded solution follows the box, closed, as before
        solution = box.locator("xpath=following-sibling::details[1]")
        assert solution.count() == 1 and solution.get_attribute("open") is None
        # answers.js reads the printed answer as answers.py does
        printed = box.get_attribute("data-answer")
        read = session.page.evaluate("text => window.aeParseAnswer(text)", printed)
        assert read == pytest.approx(parse_answer(printed), rel=1e-12), printed
    session.assert_clean()


def test_the_script_reads_typed_answers_as_the_package_does(open_session, server):
    session = open_page(open_session, server, "gradients", "en")
    for typed in TYPED:
        read = session.page.evaluate("text => window.aeParseAnswer(text)", typed)
        expected = parse_answer(typed)
        if isinstance(expected, str):
            assert read == expected, typed
        else:
            assert read == pytest.approx(expected, rel=1e-12), typed


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_right_wrong_and_malformed_by_keyboard(open_session, server, lang, scheme):
    """gradients, exercise 2: tr J of the uniform row, 29/30, printed 0.967, ±0.001."""
    session = open_page(open_session, server, "gradients", lang, scheme)
    page, words = session.page, VERDICT[lang]
    box = page.locator('.ae-answer[data-answer="0.967"]')
    field = box.locator("input")
    assert box.get_attribute("data-tolerance") == "0.001"

    field.focus()  # typing and Enter: the keyboard alone
    page.keyboard.type("29/30")
    page.keyboard.press("Enter")
    state, text = verdict(session, box)
    assert state == "right" and words["right"] in text and "0.967" in text
    assert field.get_attribute("aria-invalid") == "false"
    page.screenshot(path=str(_shot(f"answer-right-{lang}-{scheme}.png")), full_page=False)

    field.fill("")
    field.focus()
    page.keyboard.type("\uff10\uff0e\uff19\uff17")  # ０．９７, a full-width 0.97: 0.003 off
    page.keyboard.press("Tab")  # to the button, then press it from the keyboard
    assert page.evaluate("document.activeElement.type") == "submit"
    page.keyboard.press("Enter")
    page.wait_for_function("el => el.dataset.state === 'wrong'", arg=box.element_handle())
    state, text = verdict(session, box)
    assert state == "wrong" and words["wrong"] in text and "±0.001" in text
    assert field.get_attribute("aria-invalid") == "true"
    page.screenshot(path=str(_shot(f"answer-wrong-{lang}-{scheme}.png")), full_page=False)

    for typed, kind in (("abc", "malformed"), ("0,967", "comma")):
        field.fill(typed)
        field.press("Enter")
        page.wait_for_function(
            "([el, w]) => el.querySelector('.ae-answer__result').textContent.includes(w)",
            arg=[box.element_handle(), words[kind]],
        )
        assert box.get_attribute("data-state") == "invalid"
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_an_exact_answer_takes_a_square_root_and_says_no_tolerance(open_session, server, lang):
    """Home, exercise 3: the paper divides by √d_k = 8, an exact answer (±0). Its label says
    "exact" instead of "±0", √64 is read as 8, and a wrong answer names no tolerance."""
    session = open_page(open_session, server, "index", lang)
    page, words = session.page, VERDICT[lang]
    box = page.locator('.ae-answer[data-tolerance="0"]').first
    assert box.get_attribute("data-answer") == "8"
    field = box.locator("input")
    label = box.locator("label").inner_text()
    assert EXACT[lang] in label and "±" not in label, label
    field.fill("√64")
    field.press("Enter")
    assert verdict(session, box)[0] == "right"
    field.fill("√512")
    field.press("Enter")
    page.wait_for_function("el => el.dataset.state === 'wrong'", arg=box.element_handle())
    _, text = verdict(session, box)
    assert words["wrong"] in text and "±" not in text and "√512" in text, text
    session.assert_clean()


def test_the_last_answer_is_kept_across_a_reload(open_session, server):
    session = open_page(open_session, server, "training", "en")
    page = session.page
    box = page.locator(".ae-answer").first
    box.locator("input").fill(box.get_attribute("data-answer"))
    box.locator("input").press("Enter")
    assert verdict(session, box)[0] == "right"
    page.reload()
    page.wait_for_selector(".ae-answer form")
    box = page.locator(".ae-answer").first
    assert box.locator("input").input_value() == box.get_attribute("data-answer")
    assert verdict(session, box)[0] == "right"
    session.assert_clean()


def test_the_box_is_not_printed(open_session, server):
    session = open_page(open_session, server, "gradients", "ko")
    session.page.emulate_media(media="print")
    assert not session.page.locator(".ae-answer").first.is_visible()


def _shot(name: str):
    from browser_support import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name
