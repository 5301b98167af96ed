"""The training comparison (attention_explained/training.py) on a reduced grid.

The thresholds come from the set-up, not from a recorded run. With W_Q, W_K ~ N(0, 1/d_model)
the components of W_Q q and W_K x have variance ≈ ‖q‖²/d_model ≈ 1 + noise² and ≈ 1, so the
unscaled logits have std ≈ √(1.25·d_k) ≈ 36 at d_k = 1024, while ÷√d_k leaves std ≈ 1.1.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explained import training

N = 16  # the default n_items
DK = 1024
REDUCED = {"dks": (DK,), "scalings": training.SCALINGS, "seeds": (0, 1), "steps": 120}


@pytest.fixture(scope="module")
def grid() -> dict[str, np.ndarray]:
    return training.run_grid(**REDUCED)


def at(grid, metric: str, scaling: str) -> np.ndarray:
    """``[seed, step]`` of one metric at d_k = 1024."""
    return grid[metric][0, list(grid["scaling"]).index(scaling)]


def test_axes_shapes_and_settings(grid):
    assert grid["d_k"].tolist() == [DK]
    assert grid["scaling"].tolist() == list(training.SCALINGS)
    assert grid["seed"].tolist() == [0, 1]
    assert grid["step"].tolist() == list(range(REDUCED["steps"]))
    for metric in training.METRICS:
        assert grid[metric].shape == (1, 3, 2, REDUCED["steps"]), metric
        assert np.all(np.isfinite(grid[metric])), metric
    assert str(grid["optimizer"]) == "sgd"
    assert float(grid["learning_rate"]) == training.LEARNING_RATES["sgd"]
    assert int(grid["n_items"]) == N


def test_metrics_respect_their_bounds(grid):
    readout = float(grid["readout"])
    # softmax(readout·p) with p on the simplex: the best case p = e_t gives this loss.
    floor = math.log1p((N - 1) * math.exp(-readout))
    assert grid["loss"].min() >= floor - 1e-5
    assert grid["entropy"].min() >= -1e-6 and grid["entropy"].max() <= math.log(N) + 1e-5
    for share in ("accuracy", "starved", "stuck"):
        assert grid[share].min() >= 0 and grid[share].max() <= 1
    assert np.all(grid["stuck"] <= grid["starved"])  # stuck = starved and wrong
    assert np.allclose(grid["grad_norm"] ** 2, grid["grad_q"] ** 2 + grid["grad_k"] ** 2, rtol=1e-4)


def test_unscaled_attention_starts_saturated(grid):
    # Unscaled: logit std ≈ 36, so the top logit is typically ahead by several units and the
    # rows are nearly one-hot (entropy ≪ 1). ÷√d_k: std ≈ 1.1, entropy ≈ log n − Var/2 ≈ 2.1.
    none, sqrt = at(grid, "entropy", "none")[:, 0], at(grid, "entropy", "sqrt")[:, 0]
    assert np.all(none < 0.5)
    assert np.all(sqrt > math.log(N) - 1.25)
    # QK-norm with g = √d_k starts like ÷√d_k: its logits are the ÷√d_k ones times
    # d_k/(‖W_Q q‖‖W_K x‖) ≈ 1/√1.25, a little flatter, never saturated.
    qknorm = at(grid, "entropy", "qknorm")[:, 0]
    assert np.all(qknorm >= sqrt - 0.05) and np.all(qknorm < math.log(N))


def test_saturated_softmax_passes_less_gradient_to_the_logits(grid):
    # Per example ∂ℓ/∂z = J(p)·g with J → 0 as p turns one-hot.
    none, sqrt = at(grid, "logit_grad", "none")[:, 0], at(grid, "logit_grad", "sqrt")[:, 0]
    assert np.all(none < sqrt)
    # A row passes < 1e-3 only when its top gap is ≳ log(readout/1e-3) ≈ 8.5: common when the
    # logit std is 36, impossible in practice when it is 1.1.
    assert np.all(at(grid, "starved", "none")[:, 0] > 0.25)
    assert np.all(at(grid, "starved", "sqrt")[:, 0] == 0)


def test_weight_gradient_is_the_logit_gradient_times_the_scale(grid):
    """At step 0 both runs share data and weights; ∂L/∂W differs only by s·∂L/∂z.

    ∂z/∂W carries the factor s (1 or 1/√d_k), so the unscaled W-gradient is √d_k times
    "louder" per unit of logit gradient. What the softmax withholds shows up once that
    factor is divided out; without it the few near-tie rows make the unscaled W-gradient
    larger, not smaller, which the training page reports.
    """
    none, sqrt = at(grid, "grad_norm", "none")[:, 0], at(grid, "grad_norm", "sqrt")[:, 0]
    assert np.all(none < math.sqrt(DK) * sqrt)
    assert np.all(none > sqrt)


def test_scaled_attention_reaches_a_lower_loss_with_sgd(grid):
    last = slice(-20, None)
    for scaled in ("sqrt", "qknorm"):
        assert np.all(
            at(grid, "loss", scaled)[:, last].mean(-1) < at(grid, "loss", "none")[:, last].mean(-1)
        ), scaled
        # and it has learned the task: from chance (1/n) to most examples right
        assert np.all(at(grid, "accuracy", scaled)[:, last].mean(-1) > 0.8), scaled
    # the unscaled run ends with errors it can no longer fix (wrong and no gradient)
    assert np.all(at(grid, "stuck", "none")[:, last].mean(-1) > 0)


def test_runs_are_deterministic_and_seeded():
    small = {"dks": (16,), "seeds": (3,), "steps": 15}
    first, second = training.run_grid(**small), training.run_grid(**small)
    for metric in training.METRICS:
        assert np.array_equal(first[metric], second[metric]), metric
    other = training.run_grid(**{**small, "seeds": (4,)})
    assert not np.array_equal(first["loss"], other["loss"])


def test_adam_shares_the_start_and_then_differs():
    small = {"dks": (16,), "seeds": (0,), "steps": 6}
    sgd = training.run_grid(**small)
    adam = training.run_grid(**small, optimizer="adam")
    assert float(adam["learning_rate"]) == training.LEARNING_RATES["adam"]
    for metric in training.METRICS:  # step 0 is measured before the first update
        assert np.array_equal(sgd[metric][..., 0], adam[metric][..., 0]), metric
    assert not np.array_equal(sgd["loss"][..., 1:], adam["loss"][..., 1:])


def test_seeds_share_data_and_weights_across_scalings():
    task = training.make_task(0, pool=8)
    assert task["keys"].shape == (8, N, 16) and task["queries"].shape == (8, 16)
    assert np.array_equal(task["keys"], training.make_task(0, pool=8)["keys"])
    w_q, w_k = training.init_weights(0, 16, 64)
    assert w_q.shape == w_k.shape == (16, 64)
    # std 1/√d_model: components of W_Q q have variance ≈ ‖q‖²/d_model
    assert np.std(w_q) == pytest.approx(1 / 4, rel=0.15)


def test_held_out_examples_are_not_in_the_training_pool():
    pool = training.make_task(0)
    held = training.make_task(0, pool=64, held_out=True)
    assert held["keys"].shape == (64, N, 16)
    trained = {row.tobytes() for row in pool["queries"]}
    assert not any(row.tobytes() in trained for row in held["queries"])


def test_float64_runs_the_same_model_in_double_precision():
    small = {"dks": (16,), "scalings": ("sqrt",), "seeds": (0,), "steps": 20}
    single, double = training.run_grid(**small), training.run_grid(**small, dtype="float64")
    assert str(double["dtype"]) == "float64" and str(single["dtype"]) == "float32"
    assert training.init_weights(0, 16, 16, dtype="float64")[0].dtype == np.float64
    # a stable run: the two precisions agree to float32 rounding, but not bit for bit
    assert np.allclose(single["loss"], double["loss"], rtol=1e-4)
    assert not np.array_equal(single["loss"], double["loss"])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"dks": 16}, TypeError, "dks"),
        ({"dks": ()}, ValueError, "dks"),
        ({"dks": (0,)}, ValueError, r"dks\[\]"),
        ({"scalings": ("sqrt", "unit")}, ValueError, r"scalings\[\].*'qknorm'"),
        ({"scalings": ("sqrt", "sqrt")}, ValueError, "scalings"),
        ({"seeds": (-1,)}, TypeError, "seed"),
        ({"seeds": ()}, ValueError, "seeds"),
        ({"steps": 0}, ValueError, "steps"),
        ({"steps": 2.5}, TypeError, "steps"),
        ({"optimizer": "rmsprop"}, ValueError, r"optimizer.*'sgd', 'adam'"),
        ({"learning_rate": -0.1}, ValueError, "learning_rate"),
        ({"learning_rate": float("nan")}, ValueError, "learning_rate"),
        ({"batch": 0}, ValueError, "batch"),
        ({"batch": training.POOL + 1}, ValueError, "batch"),
        ({"n_items": 1}, ValueError, "n_items"),
        ({"noise": -1.0}, ValueError, "noise"),
        ({"readout": 0.0}, ValueError, "readout"),
        ({"d_model": True}, TypeError, "d_model"),
        ({"dtype": "float16"}, ValueError, r"dtype.*'float32', 'float64'"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        training.run_grid(**kwargs)


_THREADS_SCRIPT = """
import sys
import numpy as np
from attention_explained.sitebuild._internal.compute import import_tensorflow
import_tensorflow()
import tensorflow as tf
assert tf.config.threading.get_intra_op_parallelism_threads() == 1
from attention_explained import after_training, training
sgd = training.run_grid(dks=(16, 256), seeds=(0,), steps=30)
adam = training.run_grid(dks=(256,), seeds=(0,), steps=30, optimizer="adam")
after = after_training.run(sweep_dks=(64,), spread_dks=(64,), seeds=(0,), steps=20)
np.savez(sys.argv[1], sgd=sgd["loss"], adam=adam["grad_norm"], after=after["max_logit"],
         probe=after["spread_std_final"])
"""


def test_worker_thread_settings_leave_every_result_bit_identical(tmp_path):
    """The build's worker runs TensorFlow with one thread per op (worker.import_tensorflow);
    the numbers on the site must be exactly those of TensorFlow's default threading: this
    process's, which no test changes (checked first), against a worker-set process's."""
    import subprocess
    import sys

    import tensorflow as tf  # already imported by training, banners quieted

    from attention_explained import after_training

    threads = tf.config.threading
    assert threads.get_intra_op_parallelism_threads() == 0, "not TensorFlow's default"
    assert threads.get_inter_op_parallelism_threads() == 0, "not TensorFlow's default"
    sgd = training.run_grid(dks=(16, 256), seeds=(0,), steps=30)
    adam = training.run_grid(dks=(256,), seeds=(0,), steps=30, optimizer="adam")
    after = after_training.run(sweep_dks=(64,), spread_dks=(64,), seeds=(0,), steps=20)
    default = {
        "sgd": sgd["loss"],
        "adam": adam["grad_norm"],
        "after": after["max_logit"],
        "probe": after["spread_std_final"],
    }
    out = tmp_path / "worker.npz"
    subprocess.run([sys.executable, "-c", _THREADS_SCRIPT, str(out)], check=True)
    worker = np.load(out)
    for name in ("sgd", "adam", "after", "probe"):
        assert np.array_equal(default[name], worker[name], equal_nan=True), name
