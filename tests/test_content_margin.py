"""The margin of a claim: the smallest one-number relative move that flips its verdict.

The expected margins follow from the check's own definition (training.unscaled_still_falling:
drop > 0 and drop > 2 × ÷√d_k's drop), not from a recorded run.
"""

from __future__ import annotations

import pytest

from attention_explained.content import margin as claim_margin

NAME = "training.unscaled_still_falling"
NONE, SQRT = "training.tail_drop.d1024.none", "training.tail_drop.d1024.sqrt"


def test_a_holding_claim_reports_its_nearest_edge():
    # 0.3 > 2 × 0.1: shrinking 0.3 by a third, or growing 0.1 by half, breaks it.
    margin = claim_margin.margin(NAME, {NONE: 0.3, SQRT: 0.1})
    assert margin.holds and margin.number == NONE and margin.direction == -1
    assert margin.fraction == pytest.approx(1 / 3, abs=1e-6)
    assert margin.text().startswith("+33.3%")


def test_a_failing_claim_reports_how_far_it_is_from_holding():
    # 0.1 > 2 × 0.1 fails; halving the ÷√d_k drop (−50 %) makes it hold, and doubling the
    # unscaled drop only reaches the edge (0.2 > 0.2 is still false).
    margin = claim_margin.margin(NAME, {NONE: 0.1, SQRT: 0.1})
    assert not margin.holds and margin.number == SQRT and margin.direction == -1
    assert margin.fraction == pytest.approx(0.5, abs=1e-6)
    assert margin.text().startswith("−50.0%")


def test_a_claim_no_single_move_flips_says_so():
    # "multi-head.matches_keras": 0 <= diff <= 1e-5 for both diffs; no move of up to 100 % of
    # a diff of 1e-9 reaches 1e-5, and a move down stops at 0, which still holds.
    margin = claim_margin.margin(
        "multi-head.matches_keras",
        {"keras.max_abs_diff.output": 1e-9, "keras.max_abs_diff.scores": 1e-9},
    )
    assert margin.holds and margin.fraction is None and "no single number" in margin.text()
