"""The study note's logits q·k (`uniform_pair`, `make_dot_product_tensor`) against theory.

Also the import hygiene of the package: a bare `import attention_explained` stays free of
TensorFlow, the core modules stay free of plotting and site tooling, and importing them does
not print TensorFlow's C++ start-up banners.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from attention_explained import logit_variance, make_dot_product_tensor
from attention_explained.tensors import uniform_pair

LENGTH = 30
UNIT_ROUNDOFF_F32 = 2.0**-24

# uniform[-3, 3]: mean 0, variance (b − a)²/12 = 3, kurtosis E[X⁴]/σ⁴ = 9/5.
SIGMA2 = 36 / 12
KURTOSIS_UNIFORM = 9 / 5


def _stack(dim: int, seeds, **bounds) -> np.ndarray:
    return np.stack([make_dot_product_tensor(LENGTH, dim, seed=s, **bounds).numpy() for s in seeds])


def _relative_se_of_variance(dim: int, length: int, n_matrices: int) -> float:
    """Relative standard error of the pooled variance of ``n_matrices`` [L, L] blocks of A·Bᵀ.

    Zero-mean iid components with variance σ² and kurtosis κ; v = dσ⁴ is the logit variance.
    For one entry C = a·b:  Var(C²)/v² = 2 + (κ² − 3)/d   (κ² is the kurtosis of a product).
    Entries are uncorrelated, but not independent: two entries that share a row of A (or a row
    of B) have Cov(C_ij², C_ik²) = dσ⁸(κ − 1), i.e. (κ − 1)/d in units of v². Each entry shares
    a row or column with 2(L − 1) others and is independent of the rest, so

        Var(mean of C²)/v² = [2 + (κ² − 3)/d + 2(L − 1)(κ − 1)/d] / N,  N = n_matrices·L².

    This accounts for the dependence exactly instead of pretending the N entries are independent
    (for d = 10, L = 30 the row/column term more than triples the variance).
    """
    k = KURTOSIS_UNIFORM
    per_entry = 2 + (k * k - 3) / dim + 2 * (length - 1) * (k - 1) / dim
    return math.sqrt(per_entry / (n_matrices * length * length))


@pytest.mark.parametrize("dim", [10, 1024, 4096])
def test_empirical_variance_matches_logit_variance(dim):
    seeds = range(50)
    entries = _stack(dim, seeds).astype(np.float64)
    theory = dim * SIGMA2 * SIGMA2  # Var(q·k) = Σ σ_q² σ_k² = 9d, derived here, not from stats
    assert logit_variance(dim) == pytest.approx(theory, rel=1e-12)

    se = _relative_se_of_variance(dim, LENGTH, len(seeds))
    # 5 standard errors: a false alarm has probability < 1e-6; a wrong law (3d, d, 9d²) fails.
    measured = np.mean(entries**2)  # the mean is exactly 0 in theory, so E[C²] is the variance
    assert abs(measured / theory - 1) < 5 * se, (measured, theory, se)
    assert abs(entries.var() / theory - 1) < 5 * se

    # Dividing by √d leaves variance σ_q²σ_k² = 9, i.e. std 3, whatever the width.
    scaled_std = np.sqrt(np.mean((entries / math.sqrt(dim)) ** 2))
    # std = √var, so its relative error is half that of the variance (delta method).
    assert abs(scaled_std / 3.0 - 1) < 5 * se / 2, scaled_std


def test_logit_variance_non_zero_mean_against_package_draws():
    """uniform[0, 2]: μ = 1, σ² = 1/3, so each product has variance σ⁴ + 2μ²σ² = 7/9.

    Only the diagonal a_i·b_i of each matrix is used: different i use different rows of A and
    B, and different seeds are independent, so these samples are iid (off-diagonal entries in
    one row share a_i and are correlated when μ ≠ 0).
    """
    dim = 16
    mean, var = 1.0, (2.0 - 0.0) ** 2 / 12
    theory = dim * (var * var + 2 * mean * mean * var)
    assert logit_variance(dim, minval=0.0, maxval=2.0) == pytest.approx(theory, rel=1e-12)

    diag = np.concatenate(
        [np.diag(m) for m in _stack(dim, range(200), minval=0.0, maxval=2.0)]
    ).astype(np.float64)
    n = diag.size
    # E[a·b] = d μ², exact.
    assert abs(diag.mean() - dim * mean**2) < 5 * math.sqrt(theory / n)
    centred = diag - dim * mean**2
    v_hat = np.mean(centred**2)
    kurt = np.mean(centred**4) / v_hat**2
    se = v_hat * math.sqrt((kurt - 1) / n)
    assert abs(v_hat - theory) < 5 * se, (v_hat, theory, se)
    # The zero-mean law σ⁴·d (= 16/9 here) would be off by a factor of 7 and must not pass.
    assert abs(v_hat - dim * var * var) > 5 * se


@pytest.mark.parametrize("dim", [1, 10, 1024])
@pytest.mark.parametrize("seed", [0, 7])
def test_equals_numpy_product_of_uniform_pair(dim, seed):
    queries, keys = uniform_pair(LENGTH, dim, seed=seed)
    assert queries.shape == keys.shape == (LENGTH, dim)
    assert queries.dtype == keys.dtype == np.float32
    reference = queries.astype(np.float64) @ keys.astype(np.float64).T
    ours = make_dot_product_tensor(LENGTH, dim, seed=seed).numpy()
    assert ours.shape == (LENGTH, LENGTH)
    # Standard float32 dot-product error bound: |fl(a·b) − a·b| ≤ d·u·Σ|a_l b_l|.
    bound = dim * UNIT_ROUNDOFF_F32 * (np.abs(queries) @ np.abs(keys).T) + 1e-30
    assert np.all(np.abs(ours - reference) <= bound)


@pytest.mark.parametrize("length", [1, 5, 64])
def test_shape_is_length_by_length(length):
    assert tuple(make_dot_product_tensor(length, 3).shape) == (length, length)


@pytest.mark.parametrize(("minval", "maxval"), [(-3.0, 3.0), (0.0, 2.0), (-0.5, -0.25)])
def test_uniform_pair_respects_bounds(minval, maxval):
    queries, keys = uniform_pair(200, 50, minval=minval, maxval=maxval, seed=3)
    for x in (queries, keys):
        assert x.min() >= minval and x.max() <= maxval
        # Mean of 10 000 iid uniforms: 5 standard errors of σ/√n.
        sigma = (maxval - minval) / math.sqrt(12)
        assert abs(x.mean() - (minval + maxval) / 2) < 5 * sigma / math.sqrt(x.size)


def test_same_seed_is_identical_and_different_seeds_differ():
    a = make_dot_product_tensor(LENGTH, 64, seed=11).numpy()
    b = make_dot_product_tensor(LENGTH, 64, seed=11).numpy()
    c = make_dot_product_tensor(LENGTH, 64, seed=12).numpy()
    assert np.array_equal(a, b)
    assert np.mean(a == c) < 0.01  # continuous draws: equal entries would be coincidences


def test_queries_and_keys_are_independent_draws():
    """A·Bᵀ, not X·Xᵀ: with X·Xᵀ the diagonal ‖x‖² has mean σ²d = 3d and dominates."""
    dim, seeds = 256, range(10)
    queries, keys = uniform_pair(LENGTH, dim, seed=0)
    assert not np.allclose(queries, keys)
    stacked = _stack(dim, seeds)
    diag = np.concatenate([np.diag(m) for m in stacked])
    off = np.concatenate([m[~np.eye(LENGTH, dtype=bool)] for m in stacked])
    # Diagonal entries are iid with mean 0 and variance 9d under independence.
    se = math.sqrt(dim * SIGMA2**2 / diag.size)
    assert abs(diag.mean()) < 5 * se, (diag.mean(), se)
    assert abs(diag.mean() - off.mean()) < 5 * se + 5 * math.sqrt(dim * SIGMA2**2 / off.size)
    # And the diagonal spreads no more than the rest (X·Xᵀ would give a tight, shifted diagonal).
    assert diag.std() == pytest.approx(off.std(), rel=0.25)


# ---------------------------------------------------------------------------------------------
# Import hygiene (subprocesses; one of them pays for importing TensorFlow once: the core,
# imported with matplotlib made unimportable, lists what it loaded and computes a little).

_CORE_SCRIPT = """
import json, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == 'matplotlib':
            raise ImportError('matplotlib blocked for this test')
sys.meta_path.insert(0, Block())
import attention_explained.tensors, attention_explained.attention, attention_explained.stats
from attention_explained import make_dot_product_tensor, saturation_sweep
print(json.dumps({
    "matplotlib": sorted(m for m in sys.modules if m.split(".")[0] == "matplotlib")[:5],
    "mkdocs": sorted(m for m in sys.modules if m.split(".")[0] == "mkdocs")[:5],
    "tensor_shape": list(make_dot_product_tensor(4, 8).shape),
    "sweep_rows": len(saturation_sweep([2], seeds=[0])["dim"]),
}))
"""


@pytest.fixture(scope="module")
def core_import():
    env = dict(os.environ)
    # Nothing that hides TF's C++ logging: the package itself must keep the banners quiet.
    for name in ("TF_CPP_MIN_LOG_LEVEL", "TF_ENABLE_ONEDNN_OPTS", "TF_CPP_MAX_VLOG_LEVEL"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-c", _CORE_SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def test_package_import_does_not_import_tensorflow():
    code = "import attention_explained, sys; assert 'tensorflow' not in sys.modules, 'tf loaded'"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_core_modules_do_not_import_mkdocs(core_import):
    modules, _ = core_import
    assert modules["mkdocs"] == []


CORE_MODULES = (
    "tensors",
    "attention",
    "stats",
    "training",
    "after_training",
    "explorer",
    "_validate",
    "_tf",
    "__init__",
)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_source_imports_neither_matplotlib_nor_mkdocs(module):
    """Static: the core's own code never imports the figure or site layers' libraries.

    (At run time `import tensorflow` pulls in Keras, which itself imports matplotlib.pyplot
    when it is installed; that is TensorFlow's doing, and the next test shows the core
    works with matplotlib made unimportable.)
    """
    import ast
    from pathlib import Path

    import attention_explained

    path = Path(attention_explained.__file__).parent / f"{module}.py"
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"matplotlib", "mkdocs"}, (module, imported)


def test_core_works_without_matplotlib(core_import):
    modules, _ = core_import
    assert modules["tensor_shape"] == [4, 4]
    assert modules["sweep_rows"] == 3
    assert modules["matplotlib"] == []


def test_core_import_prints_no_tensorflow_banners(core_import):
    _, stderr = core_import
    assert "oneDNN" not in stderr
    assert "cpu_feature_guard" not in stderr


def test_only_tensorflow_info_lines_are_filtered_from_its_import(tmp_path):
    """The import filter drops absl INFO lines and nothing else: warnings and errors stay.

    A stand-in ``tensorflow`` writes TensorFlow's kinds of start-up line to file descriptor 2
    as it is imported; the package's modules import it the quiet way."""
    info = (
        b"I0000 00:00:1796057134.518672     575 port.cc:153] oneDNN custom operations are on.",
        b"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
    )
    kept = (
        b"E0000 00:00:1796057134.518672     575 cuda_dnn.cc:8579] Unable to register cuDNN",
        b"W0000 00:00:1796057134.518672     575 cpu_feature_guard.cc:1] an instruction",
        b"Traceback (most recent call last):",
        b"UserWarning: something the reader must see",
    )
    fake = tmp_path / "tensorflow"
    fake.mkdir()
    written = b"".join(line + b"\n" for line in (info[0], *kept[:2], info[1], *kept[2:]))
    (fake / "__init__.py").write_text(f"import os\nos.write(2, {written!r})\n", "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", "import attention_explained.tensors"],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    printed = result.stderr.splitlines()
    assert not any(line in printed for line in info), printed
    assert [line for line in printed if line in kept] == list(kept), printed
