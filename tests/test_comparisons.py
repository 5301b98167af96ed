"""Comparisons that hold as printed: a sentence that compares printed numbers holds on the
printed values themselves, at their printed digits (a range: its worst-case end).

Every claim-carrying text on every page (folded blocks included, both languages) that prints
a number and uses a comparison word (``prose.COMPARISON``: "less than a fifth", "more than
ten times", "below", 배, 분의 1, 미만, …) must be listed here: in ``PRINTED`` with the check of
its comparison on the printed values, or in ``NOT_PRINTED`` with the reason it compares no
two printed values (the other side is not printed there, or the word is not a comparison).
The printed values are the build's numbers as the pages print them (``content_numbers``:
the strings the build puts in the pages' HTML), parsed back at their printed digits.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from site_build import lang_of_source

from attention_explained.lint import prose

DOCS = Path(__file__).resolve().parents[1] / "docs"
Bounds = tuple[float, float]


def printed_bounds(text: str) -> Bounds:
    """The smallest and largest value a printed number shows: "0.001–0.041" → (0.001, 0.041),
    "−0.5 – 0.3" → (−0.5, 0.3), "2.0e−42" → (2e−42, 2e−42)."""
    plain = str(text).replace("−", "-").replace("\u2009", "").replace(",", "")
    ends = [float(x) for x in re.split(r"\s*–\s*", plain.strip())]
    if len(ends) not in (1, 2):
        raise ValueError(f"not a printed number: {text!r}")
    return min(ends), max(ends)


def printed_half_unit(text: str) -> float:
    """Half a unit of a printed number's last digit: "0.0833" → 0.00005, "2.0e−42" → 5e−44,
    "144" → 0.5. A printed ratio agrees with printed factors within these."""
    plain = str(text).replace("−", "-").replace("\u2009", "").replace(",", "")
    last = re.split(r"\s*–\s*", plain.strip())[-1]
    mantissa, _, exponent = last.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


class P:
    """``p("name").lo`` / ``.hi``: the ends of a number as printed; ``.half``: half a unit of
    its last printed digit."""

    def __init__(self, numbers: dict[str, str]):
        self.numbers = numbers

    def __call__(self, name: str):
        text = self.numbers[name]
        lo, hi = printed_bounds(text)
        return type("Printed", (), {"lo": lo, "hi": hi, "half": printed_half_unit(text)})


def pencil_spread(p: P, divisor: str, d_k: str) -> float:
    """The gap between the top and the bottom key's printed logit in one row of the home
    page's pencil table (``d_k``: "dk4" or "dk16")."""
    return p(f"index.pencil.z.{divisor}.{d_k}.k1").lo - p(f"index.pencil.z.{divisor}.{d_k}.k3").lo


# claim → (the comparison in words, its check on the printed values, the numbers it reads)
PRINTED: dict[str, tuple[str, Callable[[P], bool], tuple[str, ...]]] = {
    "beyond.causal.per_row_removes_the_mask": (
        "the causal mask lowers entropy ÷ log n (by more than 0.1), and ÷ each row's own log i "
        "is close to the unmasked value (within 0.05 at the far ends; 'under' is a condition)",
        lambda p: (
            p("beyond.causal.causal.naive").hi < p("beyond.causal.full.naive").lo - 0.1
            and max(
                p("beyond.causal.full.naive").hi - p("beyond.causal.causal.per_row").lo,
                p("beyond.causal.causal.per_row").hi - p("beyond.causal.full.naive").lo,
            )
            < 0.05
        ),
        ("beyond.causal.full.naive", "beyond.causal.causal.naive", "beyond.causal.causal.per_row"),
    ),
    "beyond.keys.max_logit_grows_under_bound": (
        "the largest logit grows from n = 16 to n = 4096 and stays below √(2 ln n) at both",
        lambda p: (
            p("beyond.keys.max_logit.n4096").lo > p("beyond.keys.max_logit.n16").hi
            and p("beyond.keys.max_logit.n16").hi < p("beyond.keys.sqrt_2ln.n16").lo
            and p("beyond.keys.max_logit.n4096").hi < p("beyond.keys.sqrt_2ln.n4096").lo
        ),
        (
            "beyond.keys.max_logit.n16",
            "beyond.keys.max_logit.n4096",
            "beyond.keys.sqrt_2ln.n16",
            "beyond.keys.sqrt_2ln.n4096",
        ),
    ),
    "beyond.keys.max_weight_falls_relative_grows": (
        "the max weight falls from n = 16 to 4096, while n times it (… 배, … times) grows",
        lambda p: (
            p("beyond.keys.max_weight.n4096").hi < p("beyond.keys.max_weight.n16").lo
            and p("beyond.keys.relative.n4096").lo > p("beyond.keys.relative.n16").hi
        ),
        (
            "beyond.keys.max_weight.n16",
            "beyond.keys.max_weight.n4096",
            "beyond.keys.relative.n16",
            "beyond.keys.relative.n4096",
        ),
    ),
    "index.pencil_only_sqrt_keeps_spread": (
        "from d_k = 4 to 16 the table's raw spread doubles (√(16/4)), ÷d_k halves it (절반), a "
        "constant doubles it (두 배), ÷√d_k keeps it, and only ÷√d_k prints the same p₁",
        lambda p: (
            pencil_spread(p, "none", "dk16")
            == (p("index.pencil.dk16").lo / p("index.pencil.dk4").lo) ** 0.5
            * pencil_spread(p, "none", "dk4")
            == 2 * pencil_spread(p, "none", "dk4")
            and pencil_spread(p, "d", "dk16") == pencil_spread(p, "d", "dk4") / 2
            and pencil_spread(p, "fixed", "dk16") == 2 * pencil_spread(p, "fixed", "dk4")
            and pencil_spread(p, "sqrt", "dk16") == pencil_spread(p, "sqrt", "dk4")
            and {
                d: p(f"index.pencil.p1.{d}.dk4").lo == p(f"index.pencil.p1.{d}.dk16").lo
                for d in ("none", "sqrt", "d", "fixed")
            }
            == {"none": False, "sqrt": True, "d": False, "fixed": False}
        ),
        ("index.pencil.dk4", "index.pencil.dk16"),
    ),
    "multi-head.double.scaling_twice_flattens": (
        "scaling twice drops the max weight from the once-scaled range to near 1/n: below the "
        "once-scaled lowest, and under 1.5 × 1/n ('twice' is in a placeholder's name)",
        lambda p: (
            p("multi-head.double.max_weight.twice").hi < p("multi-head.double.max_weight.once").lo
            and p("multi-head.double.max_weight.twice").hi < 1.5 * p("theory.uniform_weight").lo
        ),
        (
            "multi-head.double.max_weight.once",
            "multi-head.double.max_weight.twice",
            "theory.uniform_weight",
        ),
    ),
    "multi-head.gemma.scale_is_not_head_dim": (
        "query_pre_attn_scalar = d_model/h ≠ head_dim, and the logits' 'x times' (배) is the "
        "printed scales' quotient, within their printed digits, and below 1",
        lambda p: (
            p("multi-head.gemma.query_pre_attn_scalar").lo
            == p("multi-head.gemma.d_model").lo / p("multi-head.gemma.heads").lo
            != p("multi-head.gemma.head_dim").lo
            and (p("multi-head.gemma.scale").lo - p("multi-head.gemma.scale").half)
            / (p("multi-head.gemma.head_scale").hi + p("multi-head.gemma.head_scale").half)
            <= p("multi-head.gemma.ratio").lo
            <= p("multi-head.gemma.ratio").hi
            <= (p("multi-head.gemma.scale").hi + p("multi-head.gemma.scale").half)
            / (p("multi-head.gemma.head_scale").lo - p("multi-head.gemma.head_scale").half)
            and p("multi-head.gemma.ratio").hi < 1
        ),
        (
            "multi-head.gemma.d_model",
            "multi-head.gemma.heads",
            "multi-head.gemma.head_dim",
            "multi-head.gemma.query_pre_attn_scalar",
            "multi-head.gemma.scale",
            "multi-head.gemma.head_scale",
            "multi-head.gemma.ratio",
        ),
    ),
    "saturation.exercise.self_weight_small_dk": (
        "the self-weight rises through d_k = 1, 4, 8, is under one half at 4 and more than half "
        "(절반 넘게) from 8 on",
        lambda p: (
            p("saturation.exercise.self.diag_weight.d1").hi
            < p("saturation.exercise.self.diag_weight.d4").lo
            <= p("saturation.exercise.self.diag_weight.d4").hi
            < 0.5
            < p("saturation.exercise.self.diag_weight.d8").lo
            <= p("saturation.exercise.self.diag_weight.d8").hi
            < p("saturation.exercise.self.diag_weight.d16").lo
        ),
        (
            "saturation.exercise.self.diag_weight.d1",
            "saturation.exercise.self.diag_weight.d4",
            "saturation.exercise.self.diag_weight.d8",
        ),
    ),
    "gradients.unscaled_jacobian_under_a_third": (
        "unscaled ‖J‖_F less than a third of ÷√d_k's: 3 × largest < smallest",
        lambda p: 3 * p("sweep.jacobian_fro.d1024.none").hi < p("sweep.jacobian_fro.d1024.sqrt").lo,
        ("sweep.jacobian_fro.d1024.none", "sweep.jacobian_fro.d1024.sqrt"),
    ),
    "saturation.self_diagonal_dominates": (
        "the diagonal sits some thirty standard deviations above the rest (서른 배쯤)",
        lambda p: (
            25
            <= p("self.diag_scaled.d1024").lo / p("self.offdiag_std_scaled.d1024").hi
            <= p("self.diag_scaled.d1024").hi / p("self.offdiag_std_scaled.d1024").lo
            <= 35
        ),
        ("self.diag_scaled.d1024", "self.offdiag_std_scaled.d1024"),
    ),
    "saturation.exercise.self_weight_grows_with_d": (
        "the self-weight at d_k = 16 is below the one at d_k = 1024",
        lambda p: p("saturation.exercise.self.diag_weight.d16").hi < p("self.diag_weight.d1024").lo,
        ("saturation.exercise.self.diag_weight.d16", "self.diag_weight.d1024"),
    ),
    "after.lengths_cap_the_exponent": (
        "the trained lengths' exponent is below 0.5 and the logits' exponent below that",
        lambda p: (
            p("after.slope_len.sqrt.final").hi < 0.5
            and p("after.slope.sqrt.final").hi < p("after.slope_len.sqrt.final").lo
        ),
        ("after.slope_len.sqrt.final", "after.slope.sqrt.final"),
    ),
    "after.lengths_share_falls_with_dk": (
        "the larger d_k, the less of the logits' growth is the lengths' growth",
        lambda p: (
            (p("after.grow_len.d1024.sqrt").hi + p("after.grow_len.d1024.sqrt").half)
            / (p("after.grow_std.d1024.sqrt").lo - p("after.grow_std.d1024.sqrt").half)
            < (p("after.grow_len.d16.sqrt").lo - p("after.grow_len.d16.sqrt").half)
            / (p("after.grow_std.d16.sqrt").hi + p("after.grow_std.d16.sqrt").half)
        ),
        (
            "after.grow_len.d16.sqrt",
            "after.grow_len.d1024.sqrt",
            "after.grow_std.d16.sqrt",
            "after.grow_std.d1024.sqrt",
        ),
    ),
    "after.mup_spread_flat_after_training": (
        "the ÷√d_k exponent is less than the expected 0.5",
        lambda p: p("after.slope.sqrt.final").hi < 0.5,
        ("after.slope.sqrt.final",),
    ),
    "after.qknorm_logits_bounded": (
        "QK-norm's largest logits are below 50 (a tenth of ÷√d_k's is not printed there)",
        lambda p: (
            p("after.max_logit.d16.qknorm.lr0.3").hi < 50
            and p("after.max_logit.d256.qknorm.lr0.3").hi < 50
        ),
        ("after.max_logit.d16.qknorm.lr0.3", "after.max_logit.d256.qknorm.lr0.3"),
    ),
    "after.sqrt_best_lr_lower_at_large_dk": (
        "the best rate at d_k = 256 is lower than at d_k = 16",
        lambda p: p("after.best_lr.d256.sqrt").hi < p("after.best_lr.d16.sqrt").lo,
        ("after.best_lr.d16.sqrt", "after.best_lr.d256.sqrt"),
    ),
    "after.sqrt_entropy_collapses_at_high_lr": (
        "both entropies below 0.05 nats",
        lambda p: (
            p("after.final_entropy.d16.sqrt.lr0.3").hi < 0.05
            and p("after.final_entropy.d256.sqrt.lr0.3").hi < 0.05
        ),
        ("after.final_entropy.d16.sqrt.lr0.3", "after.final_entropy.d256.sqrt.lr0.3"),
    ),
    "after.sqrt_spread_grows_after_training": (
        "the exponent is above 0 and below 0.5",
        lambda p: p("after.slope.sqrt.final").lo > 0 and p("after.slope.sqrt.final").hi < 0.5,
        ("after.slope.sqrt.final",),
    ),
    "after.training_aligns_q_and_k": (
        "every mean cosine is above 0.5",
        lambda p: all(
            p(f"after.cos_final.{d}.{s}").lo > 0.5
            for d in ("d16", "d1024")
            for s in ("sqrt", "mup")
        ),
        ("after.cos_final.d16.sqrt", "after.cos_final.d1024.mup"),
    ),
    "after.exercise.qknorm_under_g_bound": (
        "the largest logit measured is below the estimate of g",
        lambda p: p("after.max_logit.d16.qknorm.lr0.001").hi < p("after.exercise.g_bound.d16").lo,
        ("after.max_logit.d16.qknorm.lr0.001", "after.exercise.g_bound.d16"),
    ),
    "init.keras314_nearly_uniform": (
        "the largest weight is barely above the uniform 1/n (above it, by less than half)",
        lambda p: (
            p("theory.uniform_weight").hi < p("init.max_sqrt.keras314.d64").lo
            and p("init.max_sqrt.keras314.d64").hi < 1.5 * p("theory.uniform_weight").lo
        ),
        ("init.max_sqrt.keras314.d64", "theory.uniform_weight"),
    ),
    "init.note_saturates_keras_does_not": (
        "the note's largest weight at d_k = 64 is above 0.45 (the sentence's bound)",
        lambda p: p("init.max_sqrt.note.d64").lo > 0.45,
        ("init.max_sqrt.note.d64",),
    ),
    "training.equivalence_adam_epsilon": (
        "the drift with ε unchanged is more than rounding: above the printed tolerance",
        lambda p: p("training.equiv.adam_eps_percent").lo / 100 > p("training.equiv.tolerance").hi,
        ("training.equiv.adam_eps_percent",),
    ),
    "training.gradient_figure": (
        "over the last steps the gradient is more than 100 times smaller (100분의 1 아래)",
        lambda p: p("training.gradnorm_shrink.d1024.none").lo > 100,
        ("training.gradnorm_shrink.d1024.none",),
    ),
    "training.gradient_ratio_from_scale_and_logit_gradient": (
        "the estimate is within a factor of 2 of the measured ratio on every seed",
        lambda p: (
            p("training.init_gradnorm_fit.d1024").lo > 0.5
            and p("training.init_gradnorm_fit.d1024").hi < 2
        ),
        ("training.init_gradnorm_fit.d1024",),
    ),
    "gradients.gaps_flat_unscaled_sloped_scaled": (
        "more than nine in ten gaps flat unscaled, 'only' under a third after ÷√d_k",
        lambda p: (
            p("gradients.flat_share.none").lo > 90 and p("gradients.flat_share.sqrt").hi < 100 / 3
        ),
        ("gradients.flat_share.none", "gradients.flat_share.sqrt"),
    ),
    "training.large_dk_unscaled_behind": (
        "the unscaled model starts from, and ends at, a higher loss than ÷√d_k",
        lambda p: (
            p("training.init_loss.d1024.none").lo > p("training.init_loss.d1024.sqrt").hi
            and p("training.final_loss.d1024.none").lo > p("training.final_loss.d1024.sqrt").hi
        ),
        ("training.final_loss.d1024.none", "training.final_loss.d1024.sqrt"),
    ),
    "training.loss_figure": (
        "the larger d_k, the later the loss goes below the threshold",
        lambda p: p("training.first_below.d16.none").hi < p("training.first_below.d1024.none").lo,
        ("training.first_below.d16.none", "training.first_below.d1024.none"),
    ),
    "training.unscaled_init_entropy_falls_with_dk": (
        "under a tenth of log n at d_k = 1024, and the larger d_k, the lower",
        lambda p: (
            p("training.init_entropy.d1024.none").hi < p("training.log_n").lo / 10
            and p("training.init_entropy.d16.none").lo > p("training.init_entropy.d128.none").hi
        ),
        ("training.init_entropy.d1024.none", "training.init_entropy.d16.none"),
    ),
    "training.unscaled_still_falling": (
        "the loss over the last steps is lower than over the steps before",
        lambda p: p("training.tail_drop.d1024.none").lo > 0,
        ("training.tail_drop.d1024.none",),
    ),
}

# claim → why its comparison word compares no two printed values
NOT_PRINTED = {
    "after.exercise.best_lr_ratio": "'3배 간격' describes the grid of learning rates",
    "after.low_entropy_in_good_runs": "the entropies below 0.2 nats are not printed there",
    "after.low_lr_undertrained_small_dk": "the losses are in the table, not in the sentence",
    "after.sqrt_logits_larger_at_large_dk": "'세 배 간격' is the grid; the logits: a figure",
    "after.weights_grow_at_high_lr": "the largest logit's growth is not printed there",
    "index.exercise.paper_head_dim": "'√h times' is derived (√d_model/√d_k); no logit printed",
    "init.figure": "the levels 3, 1 and 1/2 are read off the figure; no printed number compared",
    "init.torch_half": "the uniform weight is not printed in that sentence (claim: below 3/n)",
    "multi-head.exercise.dmodel_divisor_flattens": "the logit gap (못 미치고) is not printed",
    "scaled-dot-product.exercise.narrow_variance": "no comparison: '×' and 'times' of a derivation",
    "training.dk_never_below_d_model": "d_k against d_model: settings, not measured values",
    "training.equivalence_adam_quarter": "the Adam-with-√d_k gap ('over 10%') is not printed",
    "training.exercise.floor_below_every_loss": "the final losses are printed on other lines",
    "training.exercise.lower_lr_keeps_saturated_start": "entropy against log n: no relation stated",
    "training.sqrt_starved_examples_are_right": "the frozen errors' share is not printed there",
    "training.small_dk_unscaled_learns": "'4 times larger' is derived from √16; 'few' has no bound",
    "training.starvation_grows_in_training": "'below' defines the quiet steps (a threshold)",
    "training.unscaled_larger_w_gradient": "the unscaled gradient is not printed in the sentence",
    "training.unscaled_logit_gradient_under_half": "the unscaled value is not printed there",
    "training.unscaled_starves_examples_at_start": "'below' defines the starved examples",
}


def comparison_texts() -> dict[str, list[prose.ClaimText]]:
    found: dict[str, list[prose.ClaimText]] = {}
    for path in sorted(DOCS.rglob("*.md")):
        lang = lang_of_source(path.name)
        for text in prose.comparisons(path.read_text("utf-8"), lang):
            found.setdefault(text.claim, []).append(text)
    return found


@pytest.mark.parametrize(
    ("printed", "bounds"),
    [("0.001–0.041", (0.001, 0.041)), ("−0.5 – 0.3", (-0.5, 0.3)), ("2.0e−42", (2e-42, 2e-42))],
)
def test_printed_numbers_parse_at_their_digits(printed, bounds):
    assert printed_bounds(printed) == pytest.approx(bounds)


@pytest.mark.parametrize(
    ("printed", "half"), [("0.0833", 5e-5), ("3.5–3.6", 0.05), ("2.0e−42", 5e-44), ("144", 0.5)]
)
def test_half_unit_of_the_last_printed_digit(printed, half):
    assert printed_half_unit(printed) == pytest.approx(half)


def test_every_comparison_sentence_is_listed():
    found = comparison_texts()
    unlisted = sorted(set(found) - set(PRINTED) - set(NOT_PRINTED))
    assert not unlisted, "list these in PRINTED (with a check) or NOT_PRINTED:\n" + "\n".join(
        f"  {c}: {found[c][0].text[-160:]}" for c in unlisted
    )


def test_every_exemption_names_a_sentence_that_compares():
    """An exemption whose sentence no longer compares (or no longer exists) is dropped, so the
    list says only what is true of the pages now."""
    assert sorted(set(NOT_PRINTED) - set(comparison_texts())) == []


def test_each_check_reads_numbers_its_sentence_prints():
    found = comparison_texts()
    for claim, (_, _, names) in PRINTED.items():
        if claim not in found:
            continue  # the sentence changed: test_every_comparison_sentence_is_listed says so
        printed = {n for text in found[claim] for n in text.numbers}
        assert set(names) <= printed, (claim, sorted(set(names) - printed))


@pytest.mark.grid
@pytest.mark.parametrize("claim", sorted(PRINTED))
def test_comparison_holds_on_the_printed_values(claim, content_numbers):
    words, check, _ = PRINTED[claim]
    assert check(P(content_numbers)), f"{claim}: '{words}' does not hold on the printed values"


@pytest.mark.grid
def test_the_old_seventh_fails_on_the_printed_ranges(content_numbers):
    """Gradients used to say 'less than a seventh' of 0.276–0.338 about 0.001–0.041."""
    p = P(content_numbers)
    assert not 7 * p("sweep.jacobian_fro.d1024.none").hi < p("sweep.jacobian_fro.d1024.sqrt").lo
