"""Accessibility in a real Chromium: the Explorer driven by the keyboard alone, its controls
named in the page's language, and its statistics announced politely once at rest.

axe-core on every page, both languages and both themes, runs in test_browser.py
(test_page_renders_cleanly_and_axe_finds_nothing_serious_in_either_theme), on the page that
test opens anyway; at 375 px in test_browser_phone.py.
"""

from __future__ import annotations

import pytest
from browser_support import (
    HANGUL,
    SCHEMES,
    explorer_state,
    localized,
    open_ready,
    scheme,
    screenshot,
    wait_for_explorer,
)
from site_build import LANGS

from attention_explained.sitebuild.terms import load_term_sheet

pytestmark = [pytest.mark.browser, pytest.mark.site]

HEAD_DIMENSION = next(t for t in load_term_sheet() if t.concept.startswith("$d_k$"))


def open_page(server, open_session, path: str, theme: str):
    session = open_session(theme)
    page = session.page
    # the fonts (the math), a11y.js's pass over the scroll boxes, and the Explorer's first
    # drawing
    open_ready(page, server.url(path))
    assert scheme(page) == SCHEMES[theme], f"{path}: not in the {theme} theme"
    if page.locator("#ae-explorer").count():
        wait_for_explorer(page)
    return session, page


# --------------------------------------------------------------------------- the Explorer


def focused(page) -> dict:
    """The element with keyboard focus: id, whether it shows a focus ring, and its outline."""
    return page.evaluate(
        """() => { const e = document.activeElement; const s = getComputedStyle(e);
            return { id: e.id, type: e.type || e.tagName.toLowerCase(),
                     ring: e.matches(':focus-visible'),
                     outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 }; }"""
    )


WIDGET_CONTROLS = ["dim", "length", "scale-none", "min", "max", "new-sample"]


@pytest.mark.parametrize("lang", LANGS)
def test_explorer_works_from_the_keyboard_alone(server, open_session, lang):
    session, page = open_page(server, open_session, localized("explorer/", lang), "light")
    # Tab from the top of the page into the widget, then through it, in reading order.
    page.locator("body").focus()
    order = []
    for _ in range(80):
        page.keyboard.press("Tab")
        now = focused(page)
        if now["id"].startswith("ae-explorer-"):
            assert now["ring"] and now["outline"], f"no visible focus on {now}"
            order.append(now["id"].removeprefix("ae-explorer-"))
            if len(order) == len(WIDGET_CONTROLS):
                break
    assert order == WIDGET_CONTROLS, f"tab order inside the widget: {order}"
    page.evaluate("() => window.scrollTo(0, document.querySelector('#ae-explorer').offsetTop)")
    screenshot(page, lang, "explorer-keyboard-focus")

    # Back to the d slider (Shift+Tab) and operate everything with keys only.
    for _ in range(len(WIDGET_CONTROLS) - 1):
        page.keyboard.press("Shift+Tab")
    assert focused(page)["id"] == "ae-explorer-dim"
    before = explorer_state(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # 4 steps of 2^(1/4): d doubles
    after = explorer_state(page)
    assert after["dim"] == 2 * before["dim"], (before["dim"], after["dim"])
    assert after["stats"] != before["stats"]
    page.keyboard.press("End")
    assert explorer_state(page)["dim"] == 4096

    page.keyboard.press("Tab")  # n slider
    page.keyboard.press("ArrowLeft")
    assert explorer_state(page)["length"] == before["length"] - 1
    page.keyboard.press("Tab")  # the checked scale radio; arrows choose the others
    page.keyboard.press("ArrowDown")
    assert explorer_state(page)["scale"] == "sqrt"
    page.keyboard.press("ArrowDown")
    assert explorer_state(page)["scale"] == "unit"
    page.keyboard.press("Tab")  # min
    page.keyboard.press("Control+a")
    page.keyboard.type("-1")
    page.keyboard.press("Tab")  # max
    page.keyboard.press("ArrowUp")  # step 0.5: 3 → 3.5
    current = explorer_state(page)
    assert (current["minval"], current["maxval"]) == (-1.0, 3.5)
    page.keyboard.press("Tab")  # New sample
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert explorer_state(page)["seed"] == current["seed"] + 2
    session.assert_clean()


def control_names(page) -> dict[str, list[str]]:
    """Accessible names of the widget's controls, by role, from Chromium's accessibility tree."""
    names: dict[str, list[str]] = {}
    for line in page.locator("#ae-explorer").aria_snapshot().splitlines():
        line = line.strip().removeprefix("- ")
        for role in ("slider", "radio", "spinbutton", "button"):
            if line.startswith(role + " "):
                name = line[len(role) + 1 :].split(":")[0].strip()
                names.setdefault(role, []).append(name.strip('"'))
    return names


@pytest.mark.parametrize("lang", LANGS)
def test_explorer_controls_are_named_in_the_page_language(server, open_session, lang):
    session, page = open_page(server, open_session, localized("explorer/", lang), "light")
    names = control_names(page)
    counts = {role: len(found) for role, found in names.items()}
    assert counts == {"slider": 2, "radio": 3, "spinbutton": 2, "button": 1}, names
    for role, found in names.items():
        for name in found:
            assert name, f"a {role} without a name: {names}"
            if role == "radio":
                continue  # "÷√dₖ" is the same in both languages; the group's legend is not
            assert bool(HANGUL.search(name)) == (lang == "ko"), f"{role} {name!r} in {lang}"
    legends = page.locator("#ae-explorer fieldset legend").all_inner_texts()
    assert all(bool(HANGUL.search(text)) == (lang == "ko") for text in legends), legends
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_explorer_announces_its_statistics_politely_once_at_rest(server, open_session, lang):
    session, page = open_page(server, open_session, localized("explorer/", lang), "light")
    region = page.locator("#ae-explorer-announce")
    assert region.get_attribute("role") == "status"
    assert region.get_attribute("aria-live") == "polite"
    assert explorer_state(page)["announcements"] == 0, "announced before anything changed"
    # The numbers themselves are not a live region: that would speak at every slider step.
    assert page.locator("#ae-explorer-stats[aria-live]").count() == 0

    steps = 10
    page.locator("#ae-explorer-dim").focus()
    for _ in range(steps):  # a held arrow key: ten updates in quick succession
        page.keyboard.press("ArrowRight")
    updates = explorer_state(page)["updates"]
    page.wait_for_function("() => aeExplorer.state.announcements > 0")
    page.wait_for_timeout(1500)  # longer than the pause: nothing more is queued
    current = explorer_state(page)
    assert current["updates"] == updates
    assert 1 <= current["announcements"] < steps // 3, current["announcements"]
    text = region.inner_text()
    # The head dimension goes by the page's name for it (the term sheet's, in each language)
    # and the pages' symbol dₖ, never by the study note's bare "d".
    name = HEAD_DIMENSION.term if lang == "ko" else HEAD_DIMENSION.english
    assert f"{name} dₖ = {current['dim']},".lower() in text.lower(), (name, text)
    assert "d = " not in text and f"n = {current['length']}" in text, text
    for stat in ("entropy", "max_weight", "jacobian_fro", "logit_std"):
        assert page.locator(f'[data-stat="{stat}"]').inner_text() in text, (stat, text)
    assert bool(HANGUL.search(text)) == (lang == "ko"), text
    session.assert_clean()
