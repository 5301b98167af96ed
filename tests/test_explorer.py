"""The explorer's math (attention_explained.explorer), which the page's JavaScript reproduces.

The browser side is checked against these functions in tests/test_browser_explorer.py.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from attention_explained import explorer
from attention_explained.stats import scale_factor

MASK = 2**32 - 1


def lowbias32_uniform(seed: int, i: int) -> float:
    """The documented rule, in plain Python integers: the reference for the vectorized hash."""
    x = (seed * 0x9E3779B1 + i * 0x85EBCA77 + 0x632BE5AB) % 2**32
    x ^= x >> 16
    x = (x * 0x7FEB352D) % 2**32
    x ^= x >> 15
    x = (x * 0x846CA68B) % 2**32
    x ^= x >> 16
    return (x + 0.5) / 2**32


SEEDS = [0, 1, 7, 123, 2**31 - 1, 2**31, MASK]
# Small counters, the largest one the explorer uses (2·64·4096 − 1) and counters past 2^31.
COUNTERS = [*range(40), 4095, 4096, 2 * 64 * 4096 - 1, 2**20 + 3, 2**31 - 1, 2**31, MASK]


@pytest.mark.parametrize("seed", SEEDS)
def test_hash_matches_plain_python_lowbias32(seed):
    got = explorer.hash_uniform(seed, np.array(COUNTERS, dtype=np.int64))
    expected = [lowbias32_uniform(seed, i) for i in COUNTERS]
    assert got.dtype == np.float64
    assert got.tolist() == expected  # bit-exact, not approximately


def test_hash_is_strictly_inside_the_unit_interval():
    u = explorer.hash_uniform(MASK, np.arange(100_000))
    assert u.min() > 0.0
    assert u.max() < 1.0


def test_sample_layout_queries_first_then_keys_row_major():
    seed, dim, length, low, high = 42, 5, 3, -1.5, 2.5
    queries, keys = explorer.sample(seed, dim, length, low, high)
    assert queries.shape == keys.shape == (length, dim)
    for r in range(length):
        for c in range(dim):
            q = low + (high - low) * lowbias32_uniform(seed, r * dim + c)
            k = low + (high - low) * lowbias32_uniform(seed, length * dim + r * dim + c)
            assert queries[r, c] == q
            assert keys[r, c] == k


def test_sample_is_deterministic_and_depends_on_the_seed():
    first = explorer.sample(3, 64, 16)
    again = explorer.sample(3, 64, 16)
    other = explorer.sample(4, 64, 16)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], other[0])
    assert not np.array_equal(first[0], first[1])  # keys are not a copy of the queries


@pytest.mark.parametrize(("low", "high"), [(-3.0, 3.0), (-1.0, 2.0), (0.5, 1.5), (10.0, 10.001)])
def test_samples_lie_in_the_range(low, high):
    queries, keys = explorer.sample(MASK, 256, 64, low, high)
    values = np.concatenate([queries.ravel(), keys.ravel()])
    assert values.min() >= low
    assert values.max() < high


@pytest.mark.parametrize(("low", "high"), [(-3.0, 3.0), (-1.0, 2.0)])
def test_sample_moments_match_the_uniform_distribution(low, high):
    queries, keys = explorer.sample(11, 4096, 64, low, high)
    values = np.concatenate([queries.ravel(), keys.ravel()])
    n = values.size
    mean, var = (low + high) / 2, (high - low) ** 2 / 12
    fourth = (high - low) ** 4 / 80  # E[(X − μ)^4] of a uniform
    # Five standard errors of the sample mean and of the sample variance.
    assert abs(values.mean() - mean) < 5 * math.sqrt(var / n)
    assert abs(values.var() - var) < 5 * math.sqrt((fourth - var**2) / n)


@pytest.mark.parametrize(
    ("low", "high", "dim"), [(-3.0, 3.0, 1024), (-1.0, 2.0, 256), (0.5, 1.5, 64)]
)
def test_unit_scaling_gives_logits_of_unit_std(low, high, dim):
    stds = [explorer.statistics(seed, dim, 64, "unit", low, high)["logit_std"] for seed in range(4)]
    assert all(0.8 < s < 1.25 for s in stds), stds
    assert abs(np.mean(stds) - 1.0) < 0.1, stds


def row_statistics(logits: np.ndarray) -> dict[str, float]:
    """The same statistics in plain NumPy, with the closed form of ‖diag(p) − ppᵀ‖_F."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(shifted)
    p /= p.sum(axis=1, keepdims=True)
    s2, s3 = (p**2).sum(axis=1), (p**3).sum(axis=1)
    entropy = -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=1)
    return {
        "entropy": float(entropy.mean()),
        "max_weight": float(p.max(axis=1).mean()),
        "jacobian_fro": float(np.sqrt(s2 - 2 * s3 + s2**2).mean()),
        "logit_std": float(logits.std()),
    }


@pytest.mark.parametrize(
    ("seed", "dim", "length", "scale", "low", "high"),
    [
        (0, 16, 30, "none", -3.0, 3.0),
        (5, 200, 17, "sqrt", -3.0, 3.0),
        (9, 1000, 64, "unit", -1.0, 2.0),
        (MASK, 3, 4, "none", 0.5, 1.5),
    ],
)
def test_statistics_agree_with_a_plain_numpy_computation(seed, dim, length, scale, low, high):
    queries, keys = explorer.sample(seed, dim, length, low, high)
    logits = (queries @ keys.T) * scale_factor(scale, dim, minval=low, maxval=high)
    got = explorer.statistics(seed, dim, length, scale, low, high)
    expected = row_statistics(logits)
    assert got.keys() == expected.keys()
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-9, abs=1e-12), name


def test_statistics_are_in_their_ranges():
    length = 30
    for scale in explorer.SCALES:
        stats = explorer.statistics(2, 64, length, scale)
        assert 0.0 <= stats["entropy"] <= math.log(length) + 1e-12
        assert 1 / length - 1e-12 <= stats["max_weight"] <= 1.0
        assert 0.0 <= stats["jacobian_fro"] <= math.sqrt(0.5)  # eigenvalues of J are ≤ 1/2
        assert stats["logit_std"] > 0.0


def test_saturation_without_scaling_and_recovery_with_it():
    small, large = (explorer.statistics(0, d, 30, "none") for d in (4, 4096))
    assert large["max_weight"] > 0.99 > small["max_weight"]
    assert large["entropy"] < 0.01 < small["entropy"]
    assert large["jacobian_fro"] < 0.01 < small["jacobian_fro"]
    sqrt = explorer.statistics(0, 4096, 30, "sqrt")
    unit = explorer.statistics(0, 4096, 30, "unit")
    assert unit["max_weight"] < sqrt["max_weight"] < 0.8
    assert sqrt["entropy"] < unit["entropy"] < math.log(30)


@pytest.mark.parametrize("dim", [1, 7, 1024])
def test_scaling_never_changes_the_row_argmax(dim):
    queries, keys = explorer.sample(1, dim, 32, -1.0, 2.0)
    raw = queries @ keys.T
    expected = raw.argmax(axis=1)
    for scale in explorer.SCALES:
        factor = scale_factor(scale, dim, minval=-1.0, maxval=2.0)
        assert factor > 0
        np.testing.assert_array_equal((raw * factor).argmax(axis=1), expected)


def test_sqrt_scaling_is_the_identity_at_dim_one():
    assert explorer.statistics(4, 1, 16, "none") == explorer.statistics(4, 1, 16, "sqrt")


def test_reference_cases_cover_the_inputs_the_page_checks():
    cases = explorer.reference_cases()
    assert [case["input"] for case in cases] == explorer.REFERENCE_INPUTS
    assert {case["input"]["scale"] for case in cases} == set(explorer.SCALES)
    assert {0, MASK} <= {case["input"]["seed"] for case in cases}
    assert any(case["input"]["minval"] + case["input"]["maxval"] != 0 for case in cases)
    assert max(case["input"]["dim"] for case in cases) == explorer.MAX_DIM
    assert max(case["input"]["length"] for case in cases) == explorer.MAX_LENGTH
    for case in cases:
        assert case["expected"] == explorer.statistics(**case["input"])
        assert all(math.isfinite(v) for v in case["expected"].values())


GOOD = {"seed": 0, "dim": 8, "length": 4, "scale": "none", "minval": -3.0, "maxval": 3.0}
BAD = [
    ({"dim": 0}, ValueError, "dim"),
    ({"dim": 4097}, ValueError, "dim"),
    ({"dim": 2.5}, TypeError, "dim"),
    ({"dim": True}, TypeError, "dim"),
    ({"length": 0}, ValueError, "length"),
    ({"length": 65}, ValueError, "length"),
    ({"minval": 3.0}, ValueError, "minval"),
    ({"minval": 4.0}, ValueError, "minval"),
    ({"maxval": math.nan}, ValueError, "maxval"),
    ({"minval": "a"}, TypeError, "minval"),
    ({"scale": "cube"}, ValueError, "scale"),
    ({"scale": None}, ValueError, "scale"),
    ({"seed": -1}, TypeError, "seed"),
    ({"seed": 2**32}, ValueError, "seed"),
    ({"seed": 1.0}, TypeError, "seed"),
]


@pytest.mark.parametrize(
    ("change", "error", "name"), BAD, ids=[f"{k}={v!r}" for (c, _, _) in BAD for k, v in c.items()]
)
def test_bad_inputs_name_the_argument(change, error, name):
    with pytest.raises(error, match=name):
        explorer.statistics(**{**GOOD, **change})
    if "scale" not in change:
        sample_args = {k: v for k, v in {**GOOD, **change}.items() if k != "scale"}
        with pytest.raises(error, match=name):
            explorer.sample(**sample_args)


# --------------------------------------------------------------------- the reader's own vectors

QUERY = [1.0, 2.0, -1.0, 0.5]
KEYS = [[1.0, 1.0, 0.0, 0.0], [0.0, 2.0, -1.0, 1.0], [-1.0, 0.0, 1.0, 2.0]]


def plain_row(z: list[float]) -> dict:
    """Softmax of one row in plain Python lists, ‖J‖_F from J's entries (the closed form
    √(Σp² − 2Σp³ + (Σp²)²) cancels for a nearly one-hot row)."""
    top = max(z)
    e = [math.exp(v - top) for v in z]
    p = [v / sum(e) for v in e]
    squares = sum(
        ((a if i == j else 0.0) - a * b) ** 2 for i, a in enumerate(p) for j, b in enumerate(p)
    )
    return {
        "weights": p,
        "p1p": [v * (1 - v) for v in p],
        "entropy": -sum(v * math.log(v) for v in p if v > 0),
        "jacobian_fro": math.sqrt(squares),
    }


@pytest.mark.parametrize("repeat", explorer.REPEATS)
def test_repeating_the_vectors_multiplies_q_dot_k_and_dk_by_the_repeat(repeat):
    got = explorer.vector_statistics(QUERY, KEYS, repeat)
    dots = [sum(q * k for q, k in zip(QUERY, key, strict=True)) for key in KEYS]
    assert got["dim"] == repeat * len(QUERY)
    assert got["raw"] == [repeat * v for v in dots]
    dim = got["dim"]
    for scale, factor in (("none", 1.0), ("sqrt", 1 / math.sqrt(dim)), ("dk", 1 / dim)):
        z = [v * repeat * factor for v in dots]
        assert got[scale]["logits"] == pytest.approx(z, rel=1e-15)
        expected = plain_row(z)
        for name, value in expected.items():
            assert got[scale][name] == pytest.approx(value, rel=1e-9, abs=1e-15), (scale, name)


def test_repeats_saturate_the_raw_row_grow_sqrt_by_root_m_and_leave_dk_unchanged():
    """Copies are perfectly correlated: q·k grows like d_k, so only ÷d_k holds the row."""
    one, wide = (explorer.vector_statistics(QUERY, KEYS, m) for m in (1, 16))
    assert wide["dk"] == one["dk"]
    assert wide["sqrt"]["logits"] == pytest.approx([4 * z for z in one["sqrt"]["logits"]])
    assert wide["none"]["entropy"] < 1e-9 < one["none"]["entropy"]
    assert wide["sqrt"]["entropy"] < 0.25 * one["sqrt"]["entropy"]


def test_bare_logits_repeat_like_vectors_of_width_one():
    logits = [2.0, -1.0, 0.5]
    for repeat in explorer.REPEATS:
        bare = explorer.logit_statistics(logits, 1, repeat)
        vectors = explorer.vector_statistics([1.0], [[v] for v in logits], repeat)
        assert bare == vectors


def test_vector_cases_are_the_settings_inputs_with_the_package_answers():
    cases = explorer.vector_cases()
    assert [case["input"] for case in cases] == explorer.VECTOR_INPUTS
    assert {case["input"]["repeat"] for case in cases} >= {1, 16}
    assert any("logits" in case["input"] for case in cases)
    assert any(len(case["input"].get("query", [])) == explorer.MAX_WIDTH for case in cases)
    for case in cases:
        assert case["expected"]["none"]["weights"]  # not empty


BAD_ROWS = [
    (([], KEYS, 1), ValueError, "query"),
    ((QUERY, [], 1), ValueError, "keys"),
    ((QUERY, [[1.0, 2.0]], 1), ValueError, "key 1 has 2 numbers; the query has 4"),
    ((QUERY, [QUERY] * (explorer.MAX_KEYS + 1), 1), ValueError, "keys"),
    (([1.0] * (explorer.MAX_WIDTH + 1), [[1.0]], 1), ValueError, "query"),
    ((QUERY, [[1.0, math.nan, 0.0, 0.0]], 1), ValueError, "key 1"),
    ((QUERY, [[1.0, 2e6, 0.0, 0.0]], 1), ValueError, "key 1"),
    ((QUERY, KEYS, 3), ValueError, "repeat"),
    ((QUERY, KEYS, 32), ValueError, "repeat"),
    (("1 2", KEYS, 1), TypeError, "query"),
]


@pytest.mark.parametrize(("args", "error", "message"), BAD_ROWS)
def test_bad_vectors_name_what_is_wrong(args, error, message):
    with pytest.raises(error, match=re.escape(message)):
        explorer.vector_statistics(*args)


def test_bad_bare_logits_name_what_is_wrong():
    with pytest.raises(ValueError, match="dim"):
        explorer.logit_statistics([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="logits"):
        explorer.logit_statistics([1.0] * (explorer.MAX_KEYS + 1), 8)


@pytest.mark.parametrize(("low", "high"), [(-1.0, 2.0), (0.5, 1.5)])
def test_a_row_sees_less_variance_than_the_pooled_logits_when_the_mean_is_not_zero(low, high):
    """The "unit" divisor makes the pooled variance d(σ⁴ + 2μ²σ²) one; the softmax of a row is
    shift-invariant and sees the variance across keys, σ²(σ² + μ²)d on average."""
    dim, length = 256, 64
    mu, var = (low + high) / 2, (high - low) ** 2 / 12
    pooled, within = [], []
    for seed in range(6):
        queries, keys = explorer.sample(seed, dim, length, low, high)
        logits = queries @ keys.T
        pooled.append(logits.var())
        within.append(logits.var(axis=1).mean())
    pooled_theory, within_theory = dim * (var**2 + 2 * mu**2 * var), dim * var * (var + mu**2)
    assert within_theory < pooled_theory
    assert np.mean(pooled) == pytest.approx(pooled_theory, rel=0.1)
    assert np.mean(within) == pytest.approx(within_theory, rel=0.1)
    assert max(within) < min(pooled)
