"""The Explorer page ("직접 해 보기") in a real Chromium, in both languages.

Uses the server, browser and session fixtures of tests/conftest.py: the strict build is
served under the `site_url` prefix, requests leaving 127.0.0.1 are blocked and recorded, and
console errors fail the test. The widget is driven through its native controls (keyboard on
the sliders, clicks on the radios and the button) and through `window.aeExplorer`.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser_support import HANGUL, localized, scheme, screenshot
from site_build import LANGS

from attention_explained import explorer
from attention_explained.sitebuild.terms import load_term_sheet

pytestmark = [pytest.mark.browser, pytest.mark.site]

PAGE = "explorer/"
# At n = 64, d_k = 4096 each new sample redraws A and B and redoes A·Bᵀ; how long that takes is
# a timing, measured in `make bench` (benchmarks/explorer.py, target < 50 ms). Here: that every
# click updates, and that the page reports the time it measured.
CLICKS = 5
MASK = 2**32 - 1
HEAD_DIMENSION = next(t for t in load_term_sheet() if t.concept.startswith("$d_k$"))


def open_explorer(server, open_session, lang: str, color_scheme: str = "light"):
    session = open_session(color_scheme)
    page = session.page
    response = page.goto(server.url(localized(PAGE, lang)), wait_until="networkidle")
    assert response is not None and response.ok, f"HTTP {response and response.status}"
    assert page.evaluate("() => document.documentElement.lang") == lang
    # Ready once the first update has run and the self-check against the package is done.
    page.wait_for_function(
        "() => window.aeExplorer && aeExplorer.state.stats && aeExplorer.state.selfCheck"
    )
    return session, page


def shown(page, stat: str) -> float:
    """The number the page displays for a statistic."""
    return float(page.locator(f'[data-stat="{stat}"]').inner_text())


def press(page, control: str, *keys: str):
    page.locator(f"#ae-explorer-{control}").focus()
    for key in keys:
        page.keyboard.press(key)


def state(page) -> dict:
    return page.evaluate("() => JSON.parse(JSON.stringify(aeExplorer.state))")


@pytest.mark.parametrize("lang", LANGS)
def test_self_check_matches_the_package(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang)
    result = page.evaluate("() => aeExplorer.selfCheck()")
    expected = [case["input"] for case in explorer.reference_cases()]
    assert [case["input"] for case in result["cases"]] == expected
    for case in result["cases"]:
        for name, error in case["relError"].items():
            assert error <= 1e-6, f"{case['input']}: {name} off by {error:.1e} (relative)"
    assert result["maxRelError"] <= 1e-6
    line = page.locator("#ae-explorer-self-check").inner_text()
    prefix = "패키지와 일치" if lang == "ko" else "Matches the package"
    assert f"{prefix}: {len(expected)}/{len(expected)}" in line, line
    session.assert_clean()


def test_javascript_draws_and_statistics_equal_the_package(server, open_session):
    """Parity without Node: the page's hash and samples are bit-exact, its statistics agree."""
    session, page = open_explorer(server, open_session, "en")
    counters = [*range(64), 4096, 2 * 64 * 4096 - 1, 2**31 - 1, 2**31, MASK]
    for seed in (0, 1, 123, 2**31, MASK):
        js = page.evaluate("([s, is]) => is.map(i => aeExplorer.hash(s, i))", [seed, counters])
        assert js == explorer.hash_uniform(seed, np.array(counters)).tolist()

    for seed, dim, length, low, high in [(MASK, 7, 5, -1.0, 2.0), (0, 64, 3, -3.0, 3.0)]:
        js = page.evaluate("a => aeExplorer.sample(...a)", [seed, dim, length, low, high])
        queries, keys = explorer.sample(seed, dim, length, low, high)
        assert js["queries"] == queries.tolist()
        assert js["keys"] == keys.tolist()

    for args in [
        (42, 300, 17, "unit", -2.0, 0.5),
        (9, 4096, 64, "none", -3.0, 3.0),
        (MASK, 2, 64, "sqrt", 0.25, 0.75),
    ]:
        js = page.evaluate("a => aeExplorer.statistics(...a)", list(args))
        py = explorer.statistics(*args)
        for name, value in py.items():
            assert js[name] == pytest.approx(value, rel=1e-9, abs=1e-15), (args, name)
    session.assert_clean()


BAD_CALLS = [
    ("[0, 0, 4, 'none', -3, 3]", "dim"),
    ("[0, 4097, 4, 'none', -3, 3]", "dim"),
    ("[0, 8, 65, 'none', -3, 3]", "length"),
    ("[0, 8, 4, 'none', 3, 3]", "minval"),
    ("[0, 8, 4, 'cube', -3, 3]", "scale"),
    ("[-1, 8, 4, 'none', -3, 3]", "seed"),
    ("[2 ** 32, 8, 4, 'none', -3, 3]", "seed"),
    ("[0, 2.5, 4, 'none', -3, 3]", "dim"),
]


def test_javascript_rejects_bad_inputs_naming_the_argument(server, open_session):
    session, page = open_explorer(server, open_session, "en")
    for args, name in BAD_CALLS:
        error = page.evaluate(
            f"""() => {{
                try {{ aeExplorer.statistics(...{args}); return null; }}
                catch (e) {{ return [e.name, e.message]; }}
            }}"""
        )
        assert error is not None, f"statistics({args}) did not throw"
        assert error[0] in ("RangeError", "TypeError"), error
        assert error[1].startswith(name), (args, error)
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_raising_d_saturates_and_scaling_brings_it_back(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang)
    page.check("#ae-explorer-scale-none")
    press(page, "dim", "Home", *["ArrowRight"] * 8)  # log2 d = 8 × 1/4 = 2
    assert state(page)["dim"] == 4
    low = {name: shown(page, name) for name in ("max_weight", "entropy", "jacobian_fro")}

    seen = []
    for _ in range(40):  # drag: one slider step (×2^1/4) at a time up to d = 4096
        press(page, "dim", "ArrowRight")
        seen.append(shown(page, "max_weight"))
    assert state(page)["dim"] == 4096
    assert page.locator("label[for='ae-explorer-dim'] output").inner_text() == "4096"
    high = {name: shown(page, name) for name in ("max_weight", "entropy", "jacobian_fro")}
    assert high["max_weight"] > 0.9, high
    assert high["max_weight"] > low["max_weight"], (low, high)
    assert high["entropy"] < low["entropy"] and high["jacobian_fro"] < low["jacobian_fro"]
    assert seen[-1] > seen[0]

    draws = state(page)["draws"]
    page.check("#ae-explorer-scale-sqrt")
    sqrt = {name: shown(page, name) for name in ("max_weight", "entropy", "logit_std")}
    assert sqrt["max_weight"] < 0.8, sqrt
    assert 2.5 < sqrt["logit_std"] < 3.5, sqrt  # std 3 for uniform[−3, 3]
    page.check("#ae-explorer-scale-unit")
    unit = {name: shown(page, name) for name in ("max_weight", "entropy", "logit_std")}
    assert unit["max_weight"] < sqrt["max_weight"] and unit["entropy"] > sqrt["entropy"]
    assert 0.8 < unit["logit_std"] < 1.25, unit
    assert state(page)["draws"] == draws, "changing only the scale drew a new sample"

    # What is displayed is what the package computes for the same settings.
    current = state(page)
    py = explorer.statistics(
        current["seed"],
        current["dim"],
        current["length"],
        "unit",
        current["minval"],
        current["maxval"],
    )
    for name, value in py.items():
        assert shown(page, name) == pytest.approx(value, abs=1e-3 * max(1.0, abs(value)))
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_labels_are_in_the_page_language(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang)
    widget = page.locator("#ae-explorer")
    text = widget.inner_text()
    assert bool(HANGUL.search(text)) == (lang == "ko"), text
    for word in ("스케일링", "새 표본", "시드") if lang == "ko" else ("Scaling", "New sample"):
        assert word in text, word
    # The head dimension is named as the pages name it (the term sheet, in each language)
    # with the pages' symbol dₖ, also in the slider's spoken value and the timing line; the
    # divisor is √dₖ. The study note's bare d appears nowhere.
    name = HEAD_DIMENSION.term if lang == "ko" else HEAD_DIMENSION.english
    label = page.locator("label[for='ae-explorer-dim']").inner_text()
    assert label.lower().startswith(f"{name} dₖ = ".lower()), (name, label)
    dim = state(page)["dim"]
    assert page.get_attribute("#ae-explorer-dim", "aria-valuetext") == f"dₖ = {dim}"
    assert f"dₖ = {dim})" in page.locator("#ae-explorer-timing").inner_text()
    page.check("#ae-explorer-scale-sqrt")
    assert "√dₖ = " in page.locator("#ae-explorer-divisor").inner_text()
    assert not re.search(r"\bd = |√d(?!ₖ)", widget.inner_text()), widget.inner_text()
    # Accessible: every control has a label, the numbers are announced politely.
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('#ae-explorer input, #ae-explorer button')]
            .filter(e => e.tagName === 'INPUT' ? e.labels.length === 0 : !e.textContent.trim())
            .map(e => e.id)"""
    )
    assert not unlabelled, unlabelled
    # The statistics are announced in one polite status line (debounced; test_browser_a11y).
    assert page.get_attribute("#ae-explorer-announce", "aria-live") == "polite"
    assert page.get_attribute("#ae-explorer-announce", "role") == "status"
    assert page.locator("#ae-explorer fieldset legend").count() == 2
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_each_update_at_the_largest_size_is_drawn_and_its_time_reported(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang)
    press(page, "length", "End")
    press(page, "dim", "End")
    current = state(page)
    assert (current["length"], current["dim"]) == (64, 4096)
    for _ in range(CLICKS):  # each new sample redraws A and B and redoes A·Bᵀ
        before = state(page)
        page.click("#ae-explorer-new-sample")
        after = state(page)
        assert after["seed"] == before["seed"] + 1
        assert after["draws"] == before["draws"] + 1
        assert np.isfinite(after["lastUpdateMs"]) and after["lastUpdateMs"] > 0, after
    shown_line = page.locator("#ae-explorer-timing").inner_text()
    assert "n = 64, dₖ = 4096" in shown_line, shown_line  # the pages' name, not the note's d
    assert f"{after['lastUpdateMs']:.1f} ms" in shown_line, (shown_line, after)  # the last one
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_range_inputs_validate_and_allow_a_non_zero_mean(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang)
    error = page.locator("#ae-explorer-range-error")
    before = shown(page, "max_weight")
    page.fill("#ae-explorer-min", "4")
    assert error.is_visible()
    message = error.inner_text()
    assert ("최솟값" in message) if lang == "ko" else ("min must be smaller" in message), message
    assert page.get_attribute("#ae-explorer-min", "aria-invalid") == "true"
    assert shown(page, "max_weight") == before  # the last valid result stays
    page.fill("#ae-explorer-min", "")
    assert error.is_visible()

    page.fill("#ae-explorer-min", "-1")
    page.fill("#ae-explorer-max", "2")
    assert not error.is_visible()
    assert page.get_attribute("#ae-explorer-min", "aria-invalid") == "false"
    page.check("#ae-explorer-scale-unit")
    assert "σ⁴ + 2μ²σ²" in page.locator("#ae-explorer-divisor").inner_text()
    current = state(page)
    assert (current["minval"], current["maxval"]) == (-1.0, 2.0)
    py = explorer.statistics(current["seed"], current["dim"], current["length"], "unit", -1.0, 2.0)
    assert shown(page, "logit_std") == pytest.approx(py["logit_std"], abs=1e-3)
    session.assert_clean()


def canvas_colours(page) -> int:
    """How many distinct colours the heatmap canvas holds (0 if it was never drawn)."""
    return page.evaluate(
        """() => {
            const c = document.querySelector('#ae-explorer canvas');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const seen = new Set();
            for (let i = 0; i < d.length; i += 4) {
                if (d[i + 3]) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
            }
            return seen.size;
        }"""
    )


def luminance(page, selector: str, prop: str) -> float:
    rgb = page.evaluate(
        "([s, p]) => getComputedStyle(document.querySelector(s))[p]", [selector, prop]
    )
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("lang", LANGS)
def test_widget_in_light_and_dark(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang, "light")
    assert scheme(page) == "default"
    assert canvas_colours(page) > 10
    assert luminance(page, "#ae-explorer", "color") < 0.4
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, lang, "explorer-light")

    page.locator('form[data-md-component="palette"] label.md-header__button:visible').click()
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    assert luminance(page, "#ae-explorer", "color") > 0.6
    assert luminance(page, "#ae-explorer", "backgroundColor") < 0.3
    press(page, "dim", "ArrowRight")  # still live after the switch
    assert canvas_colours(page) > 10
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, lang, "explorer-dark")
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_other_pages_are_left_alone(server, open_session, lang):
    session = open_session()
    page = session.page
    page.goto(server.url(localized("saturation/", lang)), wait_until="networkidle")
    assert page.evaluate("() => typeof window.aeExplorer") == "undefined"
    assert page.evaluate("() => document.querySelectorAll('.ae-explorer').length") == 0
    session.assert_clean()
