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
from browser_support import (
    HANGUL,
    blocking_violations,
    explorer_state,
    localized,
    open_ready,
    press_palette_toggle,
    scheme,
    screenshot,
    wait_for_explorer,
)
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
    open_ready(page, server.url(localized(PAGE, lang)))
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
    assert explorer_state(page)["dim"] == 4
    low = {name: shown(page, name) for name in ("max_weight", "entropy", "jacobian_fro")}

    seen = []
    for _ in range(40):  # drag: one slider step (×2^1/4) at a time up to d = 4096
        press(page, "dim", "ArrowRight")
        seen.append(shown(page, "max_weight"))
    assert explorer_state(page)["dim"] == 4096
    assert page.locator("label[for='ae-explorer-dim'] output").inner_text() == "4096"
    high = {name: shown(page, name) for name in ("max_weight", "entropy", "jacobian_fro")}
    assert high["max_weight"] > 0.9, high
    assert high["max_weight"] > low["max_weight"], (low, high)
    assert high["entropy"] < low["entropy"] and high["jacobian_fro"] < low["jacobian_fro"]
    assert seen[-1] > seen[0]

    draws = explorer_state(page)["draws"]
    page.check("#ae-explorer-scale-sqrt")
    sqrt = {name: shown(page, name) for name in ("max_weight", "entropy", "logit_std")}
    assert sqrt["max_weight"] < 0.8, sqrt
    assert 2.5 < sqrt["logit_std"] < 3.5, sqrt  # std 3 for uniform[−3, 3]
    page.check("#ae-explorer-scale-unit")
    unit = {name: shown(page, name) for name in ("max_weight", "entropy", "logit_std")}
    assert unit["max_weight"] < sqrt["max_weight"] and unit["entropy"] > sqrt["entropy"]
    assert 0.8 < unit["logit_std"] < 1.25, unit
    assert explorer_state(page)["draws"] == draws, "changing only the scale drew a new sample"

    # What is displayed is what the package computes for the same settings.
    current = explorer_state(page)
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
    dim = explorer_state(page)["dim"]
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
    current = explorer_state(page)
    assert (current["length"], current["dim"]) == (64, 4096)
    for _ in range(CLICKS):  # each new sample redraws A and B and redoes A·Bᵀ
        before = explorer_state(page)
        page.click("#ae-explorer-new-sample")
        after = explorer_state(page)
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
    divisor = page.locator("#ae-explorer-divisor").inner_text()
    assert "σ⁴ + 2μ²σ²" in divisor
    # The divisor gives the pooled logits unit variance; one row's softmax sees the variance
    # across its keys, σ²(σ² + μ²)d_k / (d_k(σ⁴ + 2μ²σ²)) = 0.75 · 1 / 0.9375 for [−1, 2].
    mu, var = 0.5, 0.75
    row = var * (var + mu**2) / (var**2 + 2 * mu**2 * var)
    assert "σ²(σ²+μ²)dₖ" in divisor and divisor.endswith(f"= {row:.3f}"), divisor
    current = explorer_state(page)
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

    press_palette_toggle(page, "dark")
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
    open_ready(page, server.url(localized("saturation/", lang)))
    assert page.evaluate("() => typeof window.aeExplorer") == "undefined"
    assert page.evaluate("() => document.querySelectorAll('.ae-explorer').length") == 0
    session.assert_clean()


# --------------------------------------------------------- your own vectors: the one-row view

ROW = "ae-row"
FLOAT32_EPS = 2.0**-23  # float32 precision: the JS must agree with the package to this
ROW_FIELDS = ("logits", "weights", "p1p", "entropy", "jacobian_fro")


def row_ready(page):
    page.wait_for_function("() => window.aeRow && aeRow.state.result")


def row_state(page) -> dict:
    return page.evaluate("() => JSON.parse(JSON.stringify(aeRow.state))")


def agree_to_float32(js, py, where: str):
    js, py = np.atleast_1d(np.asarray(js, float)), np.atleast_1d(np.asarray(py, float))
    assert js.shape == py.shape, where
    # Relative to float32's epsilon; numbers below 1e-30 (a weight that underflows) by size.
    scale = np.maximum(np.abs(py), 1e-30)
    worst = float(np.max(np.abs(js - py) / scale))
    assert worst <= FLOAT32_EPS, f"{where}: relative error {worst:.1e}"


def js_format(x: float) -> str:
    """The page's format(): 3 decimals; 1 decimal from 100; exponent form below 1e-3."""
    if x == 0:
        return "0"
    if abs(x) < 1e-3 or abs(x) >= 1e5:
        mantissa, exponent = f"{x:.2e}".split("e")
        return f"{mantissa}e{int(exponent):+d}".replace("e+", "e+")
    return f"{x:.1f}" if abs(x) >= 100 else f"{x:.3f}"


def as_text(case: dict) -> str:
    rows = [[v] for v in case["logits"]] if "logits" in case else [case["query"], *case["keys"]]
    return "\n".join(", ".join(repr(v) for v in row) for row in rows)


def test_own_vectors_agree_with_the_package_to_float32(server, open_session):
    """The fixed inputs of settings.EXPLORER_VECTOR_INPUTS, through the page's functions and
    through its text box; the expected values come from attention_explained.explorer."""
    session, page = open_explorer(server, open_session, "en")
    row_ready(page)
    for case in explorer.vector_cases():
        given, expected = case["input"], case["expected"]
        parsed = page.evaluate(
            "([t, m]) => aeRow.parse(t, m)",
            [as_text(given), "logits" if "logits" in given else "vectors"],
        )
        if "logits" in given:
            assert parsed == {"logits": given["logits"]}
            js = page.evaluate(
                "([l, d, m]) => aeRow.logitStatistics(l, d, m)",
                [parsed["logits"], given["dim"], given["repeat"]],
            )
        else:
            assert parsed == {"query": given["query"], "keys": given["keys"]}
            js = page.evaluate(
                "([q, k, m]) => aeRow.vectorStatistics(q, k, m)",
                [parsed["query"], parsed["keys"], given["repeat"]],
            )
        assert js["dim"] == expected["dim"]
        agree_to_float32(js["raw"], expected["raw"], f"{given}: raw")
        for scale in explorer.ROW_SCALES:
            for field in ROW_FIELDS:
                where = f"{given}: {scale} {field}"
                agree_to_float32(js[scale][field], expected[scale][field], where)
    session.assert_clean()


def set_repeat(page, repeat: int):
    page.locator(f"#{ROW}-repeat").focus()
    page.keyboard.press("Home")
    for _ in range(explorer.REPEATS.index(repeat)):
        page.keyboard.press("ArrowRight")
    assert row_state(page)["repeat"] == repeat


def shown_row(page) -> dict:
    """What the tables display: per scaling the weights, the entropy and ‖J‖_F."""
    return page.evaluate(
        """() => Object.fromEntries(['none', 'sqrt', 'dk'].map(s => [s, {
            weights: [...document.querySelectorAll(`#ae-row [data-weight="${s}"]`)]
                .map(e => Number(e.textContent)),
            entropy: Number(document.querySelector(`#ae-row [data-entropy="${s}"]`).textContent),
            jacobian_fro: Number(
                document.querySelector(`#ae-row [data-jacobian="${s}"]`).textContent),
        }]))"""
    )


def assert_shows(page, expected: dict):
    """The page displays the package's numbers at the digits it prints them with."""
    shown = shown_row(page)
    for scale in explorer.ROW_SCALES:
        for field in ("weights", "entropy", "jacobian_fro"):
            want = np.atleast_1d(expected[scale][field])
            got = np.atleast_1d(shown[scale][field])
            # format(): 3 decimals, or 3 significant digits in exponent form below 1e-3
            assert got == pytest.approx(want, rel=5e-3, abs=5e-4), (scale, field)


PASTED = "0.5, -1.2, 2, 0.3, 1\n1, 0, 1, 0, 1\n-0.5  1  1.5  0  0\n[2, -2, 0, 1, 0.5]\n"


@pytest.mark.parametrize("lang", LANGS)
def test_pasted_vectors_show_their_row_scale_up_and_come_back_from_the_url(
    server, open_session, lang
):
    session, page = open_explorer(server, open_session, lang)
    row_ready(page)
    page.fill(f"#{ROW}-input", PASTED)
    query = [0.5, -1.2, 2.0, 0.3, 1.0]
    keys = [[1.0, 0.0, 1.0, 0.0, 1.0], [-0.5, 1.0, 1.5, 0.0, 0.0], [2.0, -2.0, 0.0, 1.0, 0.5]]
    assert_shows(page, explorer.vector_statistics(query, keys, 1))
    assert row_state(page)["result"]["dim"] == 5

    # Scale up: the reader's own row saturates unscaled, ÷√dₖ slows it, ÷dₖ holds it.
    one = shown_row(page)
    set_repeat(page, 16)
    wide = explorer.vector_statistics(query, keys, 16)
    assert_shows(page, wide)
    sixteen = shown_row(page)
    assert sixteen["none"]["entropy"] < 0.01 < one["none"]["entropy"]
    assert sixteen["sqrt"]["entropy"] < one["sqrt"]["entropy"]
    assert sixteen["dk"] == one["dk"]
    value = page.locator(f"label[for='{ROW}-repeat'] output").inner_text()
    assert value == "×16 (dₖ = 80)", value

    # The entropy curve follows the slider: its dots sit on the marker, at the shown entropy.
    marker = page.evaluate(
        """() => { const c = document.querySelector('#ae-row-curve');
            return { now: Number(c.querySelector('.ae-row__now').getAttribute('x1')),
                     dots: [...c.querySelectorAll('.ae-row__dot')]
                        .map(d => Number(d.getAttribute('cx'))) }; }"""
    )
    assert marker["dots"] == [marker["now"]] * 3
    assert marker["now"] > 0.8 * page.evaluate(
        "() => document.querySelector('#ae-row-curve').viewBox.baseVal.width"
    )
    # Its text alternative carries the numbers, in the page's language.
    label = page.get_attribute(f"#{ROW}-curve", "aria-label")
    assert "dₖ = 80): " in label and f"{wide['dk']['entropy']:.3f}" in label, label
    assert bool(HANGUL.search(label)) == (lang == "ko"), label
    # Announced once the slider is at rest (an earlier announcement may be of the ×1 row).
    page.wait_for_function(
        "t => document.querySelector('#ae-row-announce').textContent.startsWith(t)",
        arg="dₖ = 80. ",
    )
    spoken = page.locator(f"#{ROW}-announce").inner_text()
    for scale in explorer.ROW_SCALES:
        assert js_format(wide[scale]["entropy"]) in spoken, (scale, spoken)

    # Shared through the URL: a fresh tab on the address shows the same input and row.
    url = page.url
    assert "row=" in url and "x=16" in url, url
    other = open_session()
    open_ready(other.page, url)
    other.page.wait_for_function("() => window.aeRow && aeRow.state.result")
    assert other.page.evaluate("() => aeRow.state.repeat") == 16
    assert other.page.evaluate("() => aeRow.state.parsed") == {"query": query, "keys": keys}
    assert_shows(other.page, wide)
    assert page.get_attribute(f"#{ROW}-link", "href").endswith(url.split("/explorer/", 1)[1])
    screenshot(page, lang, "explorer-own-vectors")
    other.assert_clean()
    session.assert_clean()


BAD_INPUTS = [
    # (mode, text, what the Korean message contains, what the English one contains)
    ("vectors", "", "비어 있습니다", "is empty"),
    (
        "vectors",
        "1, 2, 3\n1, 2\n4, 5, 6",
        "2번째 줄(키)에 수가 2개",
        "Line 2 (a key) has 2 numbers",
    ),
    ("vectors", "1, 2\n3, x4", "2번째 줄의 2번째 항목 'x4'", "Line 2, item 2: 'x4'"),
    ("vectors", "1, 2\n3, 가나", "2번째 줄의 2번째 항목 '가나'", "Line 2, item 2: '가나'"),
    ("vectors", "1, 2\n3, 2e7", "2번째 줄의 2번째 수 2e7", "Line 2, number 2: 2e7"),
    ("vectors", "1, 2, 3", "쿼리만 있습니다", "only a query"),
    ("vectors", "\n".join(["1, 2"] * 18), "키가 17개", "17 keys"),
    ("vectors", ", ".join(["1"] * 257) + "\n1", "1번째 줄에 수가 257개", "Line 1 has 257"),
    ("logits", "1\n2, 3", "2번째 줄에 수가 2개", "Line 2 has 2 numbers"),
]


@pytest.mark.parametrize("lang", LANGS)
def test_bad_input_says_what_and_where_and_keeps_the_last_result(server, open_session, lang):
    session, page = open_explorer(server, open_session, lang)
    row_ready(page)
    error = page.locator(f"#{ROW}-error")
    assert error.get_attribute("aria-live") == "polite"
    assert not error.is_visible()
    for mode, text, ko, en in BAD_INPUTS:
        page.check(f"#{ROW}-mode-{mode}")
        before = (row_state(page)["result"], shown_row(page))
        # fill() then a key: Hangul goes in as one text edit, then a real key event follows.
        page.fill(f"#{ROW}-input", text)
        page.locator(f"#{ROW}-input").press("End")
        assert error.is_visible(), text
        message = error.inner_text()
        assert (ko if lang == "ko" else en) in message, (text, message)
        assert bool(HANGUL.search(message.replace("가나", ""))) == (lang == "ko"), message
        assert page.get_attribute(f"#{ROW}-input", "aria-invalid") == "true"
        assert (row_state(page)["result"], shown_row(page)) == before, "the last result changed"
    # A bad head dimension for bare logits names dₖ and its range.
    page.check(f"#{ROW}-mode-logits")
    page.fill(f"#{ROW}-input", "1\n2")
    page.fill(f"#{ROW}-dk", "0")
    assert "dₖ" in error.inner_text() and "4096" in error.inner_text()
    assert page.get_attribute(f"#{ROW}-dk", "aria-invalid") == "true"
    page.fill(f"#{ROW}-dk", "64")
    assert not error.is_visible()
    assert row_state(page)["result"]["dim"] == 64
    page.evaluate("() => document.querySelector('#ae-row').scrollIntoView()")
    screenshot(page, lang, "explorer-own-vectors-fixed")
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_shared_url_shows_its_message_over_the_default_row(server, open_session, lang):
    session = open_session()
    page = session.page
    url = server.url(localized(PAGE, lang)) + "?row=1,2;3,zz&x=4"
    open_ready(page, url)
    row_ready(page)
    message = page.locator(f"#{ROW}-error").inner_text()
    assert ("2번째 줄" in message) if lang == "ko" else ("Line 2, item 2: 'zz'" in message)
    default = explorer.vector_statistics(
        [1.0, 2.0, -1.0, 0.5],
        [[1.0, 1.0, 0.0, 0.0], [0.0, 2.0, -1.0, 1.0], [-1.0, 0.0, 1.0, 2.0], [2.0, -1.0, 0.0, 1.0]],
        1,
    )
    assert_shows(page, default)
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_one_row_view_is_accessible_and_fits_a_phone(server, open_session, axe, lang):
    session = open_session("dark", viewport={"width": 390, "height": 844})
    page = session.page
    open_ready(page, server.url(localized(PAGE, lang)) + "?row=1,2;0,1;3,-1;2,2&x=4")
    row_ready(page)
    wait_for_explorer(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # Three tables, one per scaling, captioned in the page's language: the numbers for
    # everyone; the bars, drawn for the eye, are hidden from screen readers.
    captions = page.locator(f"#{ROW} table caption").all_inner_texts()
    assert len(captions) == 3 and captions[1:] == ["÷√dₖ", "÷dₖ"], captions
    assert bool(HANGUL.search(captions[0])) == (lang == "ko"), captions
    assert page.get_attribute(f"#{ROW} .ae-row__bars", "aria-hidden") == "true"
    assert page.get_attribute(f"#{ROW}-curve", "role") == "img"
    # Keyboard: the controls in reading order, each with a visible focus ring.
    page.locator(f"#{ROW}-mode-vectors").focus()
    order = []
    for _ in range(4):
        page.keyboard.press("Tab")
        order.append(page.evaluate("() => document.activeElement.id"))
    assert order == [f"{ROW}-input", f"{ROW}-repeat", f"{ROW}-link", order[3]], order
    page.locator(f"#{ROW}-repeat").focus()
    page.keyboard.press("ArrowRight")
    assert row_state(page)["repeat"] == 8
    problems = blocking_violations(axe, page)
    assert not problems, "\n".join(problems)
    page.evaluate("() => document.querySelector('#ae-row').scrollIntoView()")
    screenshot(page, lang, "phone-explorer-own-vectors-dark")
    session.assert_clean()
