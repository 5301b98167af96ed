"""The content registry (numbers as printed, claims, verdicts and the one way they are shown)
and the whole-site queries over every page (content/pages.py)."""

from __future__ import annotations

import re

import pytest

from attention_explained.content import pages
from attention_explained.content import registry as claims
from attention_explained.content.registry import MINUS, Number, describe_numbers


def test_verdict_records_the_numbers_a_check_read():
    spec = pages.registered()["training.qknorm_lowest_final_loss"]
    values = {
        f"training.final_loss.d{dk}.{s}": 1.0 for dk in (16, 128, 1024) for s in ("none", "sqrt")
    }
    values |= {f"training.final_loss.d{dk}.qknorm": 0.5 for dk in (16, 128, 1024)}
    verdict = pages.evaluate(spec.name, values)
    assert verdict.holds
    assert set(verdict.numbers) == set(values)
    assert not pages.evaluate(spec.name, {**values, **spec.counterexample}).holds


def test_unknown_number_is_named():
    with pytest.raises(KeyError, match=r"training\.final_loss"):
        pages.evaluate("training.qknorm_lowest_final_loss", {})


def test_registering_without_counterexample_is_refused():
    with pytest.raises(ValueError, match="counterexample"):
        claims.claim("x.y", statement="s", counterexample={})(lambda v: True)


def test_number_prints_a_typographic_minus_and_keeps_its_value():
    number = Number(-1.234, ".2f")
    assert number == f"{MINUS}1.23" and number.value == -1.234


def test_verdict_and_build_messages_show_the_numbers_the_same_way():
    from attention_explained.sitebuild._internal.claims import claim_failures

    read = {"b": 2.5, "a": 1 / 3}
    assert describe_numbers(read) == "a = 0.333333, b = 2.5"
    verdict = claims.Verdict(False, "A beats B", read)
    assert verdict.explain() == f"A beats B (numbers read: {describe_numbers(read)})"
    failures = claim_failures(["x"], {"x": {"holds": False, "statement": "A", "numbers": read}})
    assert failures == [f"claim 'x' does not hold: A ({describe_numbers(read)})"]


def test_a_number_defined_on_two_pages_is_refused():
    def first(out):
        out["page.x"] = "1"

    def second(out):
        out["page.x"] = "2"

    assert claims.run_producers([first]) == {"page.x": "1"}
    with pytest.raises(ValueError, match=r"second.*page\.x"):
        claims.run_producers([first, second])


def test_loading_every_page_imports_no_tensorflow():
    """The claims are judged in a plain Python (sitebuild/_internal/claims.py), with no
    TensorFlow."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from attention_explained.content import pages\n"
        "assert pages.registered()\n"
        "assert 'tensorflow' not in sys.modules, 'tensorflow'\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_registry_loads_no_page_and_the_pages_load_every_page():
    """A page module imports the registry, so the registry imports no page (a leaf); the page
    list and the whole-site queries are in content/pages.py, which no page module imports."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from attention_explained.content import registry\n"
        "page = 'attention_explained.content.training'\n"
        "assert page not in sys.modules, 'registry loaded a page'\n"
        "assert not registry.claims_so_far() and not registry.producers_so_far()\n"
        "from attention_explained.content import pages\n"
        "assert page not in sys.modules, 'importing pages loaded a page'\n"
        "assert pages.registered() and page in sys.modules\n"
        "assert registry.claims_so_far() == pages.registered()\n"
        "assert registry.producers_so_far()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_spread_prints_its_range_over_seeds_and_keeps_its_value():
    from attention_explained.content.registry import Spread

    spread = Spread(0.55, 0.48, 0.57, ".2f")
    assert spread == "0.48–0.57" and spread.value == 0.55
    assert (spread.low, spread.high) == (0.48, 0.57)
    assert Spread(-0.5, -0.52, -0.49, ".2f") == f"{MINUS}0.52 – {MINUS}0.49"  # spaced: signs
    assert Spread(0.0, -0.006, -0.001, ".2f") == f"{MINUS}0.01 – 0.00"  # never "−0.00"
    assert Spread(16, 16, 16, ".0f") == "16"  # every seed agrees: one number


def _ratio_beats_one(v):
    return v["x.a"] / v["x.b"] > 1  # the line a failure names


RATIO = claims.Claim("x.ratio", "a beats b", _ratio_beats_one, {"x.a": 0.0})


@pytest.mark.parametrize(
    ("values", "error"),
    [
        ({"x.a": 1.0, "x.b": 0.0}, r"ZeroDivisionError at line {line} of {module}: .*zero"),
        ({"x.a": 1.0}, r"KeyError at line {line} of {module}: claim reads an unknown number 'x.b'"),
    ],
)
def test_a_check_that_raises_is_named_with_its_module_and_line(monkeypatch, values, error):
    """Judging stops at the claim whose check raised, and says which and where."""
    monkeypatch.setattr(pages, "registered", lambda: {RATIO.name: RATIO})
    module, line = __name__, _ratio_beats_one.__code__.co_firstlineno + 1
    expected = error.format(line=line, module=re.escape(module))
    with pytest.raises(claims.ClaimCheckError) as raised:
        pages.evaluate_all(values)
    message = str(raised.value)
    assert message.startswith(f"claim 'x.ratio': its check {module}._ratio_beats_one raised ")
    assert re.search(expected, message), message


def test_a_range_the_rerun_lies_wholly_outside_disagrees_at_its_printed_digits():
    from attention_explained.content.registry import Spread, agrees_at_printed_digits

    # the step-0 unscaled entropy once printed 0.10–0.11 while the rerun's seeds gave 0.14
    assert not agrees_at_printed_digits(
        Spread(0.105, 0.103, 0.108, ".2f"), Spread(0.14, 0.138, 0.144, ".2f")
    )
    # the same two runs at one digit fewer print "0.1" both times
    assert agrees_at_printed_digits(
        Spread(0.105, 0.103, 0.108, ".1f"), Spread(0.14, 0.138, 0.144, ".1f")
    )
    # overlapping ranges agree; touching at a printed end is sharing a printed value
    assert agrees_at_printed_digits(Spread(0.5, 0.48, 0.57, ".2f"), Spread(0.6, 0.55, 0.66, ".2f"))
    assert agrees_at_printed_digits(
        Spread(0.5, 0.48, 0.571, ".2f"), Spread(0.6, 0.568, 0.66, ".2f")
    )
    # a single number must print the same digits on both runs
    assert agrees_at_printed_digits(Number(4.041, ".1f"), Number(4.04, ".1f"))
    assert not agrees_at_printed_digits(Number(4040, ".0f"), Number(4425, ".0f"))
    assert agrees_at_printed_digits("3", "3") and not agrees_at_printed_digits("3", "4")


def test_reprint_changes_only_the_digits():
    from attention_explained.content.registry import Spread, reprint

    out = {"a": Spread(0.105, 0.103, 0.108, ".2f"), "b": Number(12.34, ".1f"), "c": "3"}
    reprint(out, {"a": ".1f", "b": ".0f"})
    assert out["a"] == "0.1" and (out["a"].value, out["a"].low) == (0.105, 0.103)
    assert out["b"] == "12" and out["b"].value == 12.34
    with pytest.raises(ValueError, match="'c' is not a number"):
        reprint(out, {"c": ".1f"})


def test_a_check_reading_a_seed_median_is_caught_and_one_reading_the_extremes_is_not():
    """The rule tests/test_content_claims.py applies to every claim, on a made-up Spread."""
    from attention_explained.content.registry import hi, lo, spread_reads

    v = {"x": 0.5, "x:low": 0.3, "x:high": 0.7, "log_n": 3.0, "log_n:low": 3.0, "log_n:high": 3.0}
    assert spread_reads(lambda v: v["x"] < 0.6, v) == ["x"]  # the median: caught
    assert spread_reads(lambda v: hi(v, "x") < 0.8 and lo(v, "x") > 0.2, v) == []
    assert spread_reads(lambda v: v["log_n"] > 2, v) == []  # the same on every seed
    # the extremes decide: the median is under 0.6, but one seed is not
    assert not (lambda v: hi(v, "x") < 0.6)(v)


def test_values_hold_each_spreads_per_seed_extremes():
    from attention_explained.content.registry import Spread, high, is_spread, low

    assert (low("a"), high("a")) == ("a:low", "a:high")
    spread = Spread(0.5, 0.3, 0.7, ".2f")
    v = {"a": spread.value, low("a"): spread.low, high("a"): spread.high, "b": 1.0}
    assert is_spread("a", v) and not is_spread("b", v)
