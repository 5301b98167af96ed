"""content/training.py: the shape of the training curves, recomputed with plain loops."""

from __future__ import annotations

import pytest


@pytest.mark.grid
def test_training_curve_shape_numbers_match_a_plain_recomputation(printed_value):
    """tail_drop, first_below, gradnorm_shrink and the W-gradient ratio, recomputed with loops."""
    import numpy as np

    from attention_explained.content import data as experiments

    sgd = experiments.training()["sgd"]
    tail, smooth_len = 100, 10
    for i, dk in enumerate(sgd["d_k"]):
        for k, scaling in enumerate(sgd["scaling"]):
            key = f"d{dk}.{scaling}"
            loss = sgd["loss"][i, k]
            drops = [seed[-2 * tail : -tail].mean() - seed[-tail:].mean() for seed in loss]
            assert printed_value(f"training.tail_drop.{key}") == pytest.approx(
                float(np.median(drops)), abs=0.005
            )
            smoothed = np.array(
                [
                    [seed[max(0, s - smooth_len + 1) : s + 1].mean() for s in range(len(seed))]
                    for seed in loss
                ]
            )
            median = np.median(smoothed, axis=0)
            first = next((s for s, x in enumerate(median) if x < 1.0), len(median))
            assert printed_value(f"training.first_below.{key}") == first
            grad = sgd["grad_norm"][i, k]
            end = np.median([np.median(seed[-30:]) for seed in grad])
            shrink = np.median(grad[:, 0]) / end
            assert printed_value(f"training.gradnorm_shrink.{key}") == pytest.approx(
                shrink, abs=0.5
            )
    ratio = printed_value("training.init_gradnorm_ratio.d1024")
    printed = printed_value("training.init_gradnorm.d1024.none") / printed_value(
        "training.init_gradnorm.d1024.sqrt"
    )
    assert ratio == pytest.approx(printed, rel=0.05)  # the two printed norms are rounded


@pytest.mark.grid
def test_seed_counts_print_the_number_of_seeds_not_a_range_over_single_seeds(content_numbers):
    """after.seeds and training.seeds count the seeds of settings, not one seed per summary."""
    from attention_explained import settings

    assert content_numbers["after.seeds"] == str(len(settings.AFTER_SEEDS))
    assert content_numbers["training.seeds"] == str(len(settings.TRAINING_SEEDS))
