"""content/gradients.py: the two-logit bridge's numbers, against logits sampled here."""

from __future__ import annotations

import numpy as np

from attention_explained.content.gradients import flat_share_numbers


def printed() -> dict[str, float]:
    out: dict[str, str] = {}
    flat_share_numbers(out)
    return {name: float(str(value)) for name, value in out.items()}


def test_the_flat_region_starts_where_the_two_logit_slope_falls_below_a_hundredth():
    edge = printed()["gradients.flat_gap"]
    z = np.linspace(0, 10, 100_001)
    p = 1 / (1 + np.exp(-z))
    first_flat = z[np.argmax(p * (1 - p) < 0.01)]  # the slope falls as |z| grows
    assert abs(edge - first_flat) <= 0.05, (edge, first_flat)  # printed at one decimal


def test_the_shares_of_flat_gaps_match_sampled_logits():
    """The page's percentages (a normal approximation) against the note's own set-up sampled
    here: 30 queries and 30 keys with uniform[−3, 3] components at d = 1024, every pair of
    logits in a row, eight seeds. The sampled share may differ from the normal one by a few
    points; the printed one is a whole percent."""
    numbers = printed()
    edge = numbers["gradients.flat_gap"]
    rng = np.random.default_rng(20261202)
    shares = {"none": [], "sqrt": []}
    for _ in range(8):
        q = rng.uniform(-3, 3, (30, 1024))
        k = rng.uniform(-3, 3, (30, 1024))
        logits = q @ k.T
        gaps = logits[:, :, None] - logits[:, None, :]
        pairs = gaps[:, *np.triu_indices(30, 1)]
        for name, divisor in (("none", 1.0), ("sqrt", 32.0)):
            shares[name].append(100 * float(np.mean(np.abs(pairs / divisor) > edge)))
    for name, sampled in shares.items():
        printed_share = numbers[f"gradients.flat_share.{name}"]
        assert min(sampled) - 4 <= printed_share <= max(sampled) + 4, (name, sampled)
