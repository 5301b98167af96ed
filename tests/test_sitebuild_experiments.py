"""sitebuild/_internal/experiments.py: the grid experiments kept between asset steps.

What a key covers is written out here by hand (which modules import which), never read from
the key code; the end-to-end check, that a build after a number's edit runs no experiment,
is in test_sitebuild_claims.py.
"""

from __future__ import annotations

import ast
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from attention_explained import runs
from attention_explained.content import data
from attention_explained.sitebuild import keys
from attention_explained.sitebuild._internal.experiments import (
    RESULT,
    ExperimentStore,
    UnkeepableError,
    experiment_functions,
    experiment_key,
    pack,
    unpack,
)
from attention_explained.sitebuild.keys import ImportGraph

NAMES = ("training", "after-training", "initialisation")


def assert_same(kept, fresh, where="result"):
    """Equal, with the same types all the way down: key types, dtypes, element types."""
    assert type(kept) is type(fresh), f"{where}: {type(kept)} vs {type(fresh)}"
    if isinstance(fresh, dict):
        assert list(kept) == list(fresh), where
        for k, f in zip(kept, fresh, strict=True):
            assert type(k) is type(f), f"{where}: key {k!r}"
            assert_same(kept[k], fresh[f], f"{where}/{f}")
        return
    assert kept.dtype == fresh.dtype and kept.shape == fresh.shape, where
    assert [type(v) for v in kept.flat] == [type(v) for v in fresh.flat], where
    assert np.array_equal(kept, fresh, equal_nan=kept.dtype.kind == "f"), where


def grid_like() -> dict:
    """The shapes the three experiments return: nested dicts of arrays, an object array of
    scaling names, 0-d settings, and (the initialisers) tuple keys."""
    curves = np.random.default_rng(7).normal(size=(2, 3, 4)).astype(np.float64)
    curves[0, 0, 0] = np.nan
    return {
        "sgd": {
            "d_k": np.asarray([16, 1024]),
            "scaling": np.asarray(["sqrt", "none", "qk_norm"], dtype=object),
            "loss": curves,
            "dtype": np.asarray("float32"),
            "learning_rate": np.asarray(0.1),
        },
        "adam": {"loss": curves.astype(np.float32)[:1]},
        ("keras", 512, 8, 64): np.arange(6.0).reshape(2, 3),
        7: {"empty": np.zeros((0, 2))},
    }


def test_a_result_reads_back_with_the_same_values_and_types():
    fresh = grid_like()
    assert_same(unpack(pack(fresh)), fresh)


def test_the_check_itself_tells_types_apart():
    fresh = grid_like()
    changed = grid_like()
    changed["sgd"]["scaling"] = changed["sgd"]["scaling"].astype(str)  # strings, not objects
    with pytest.raises(AssertionError):
        assert_same(changed, fresh)
    with pytest.raises(AssertionError):
        assert_same({np.int64(7) if k == 7 else k: v for k, v in fresh.items()}, fresh)


@pytest.mark.parametrize(
    ("result", "named"),
    [
        ({"a": [1.0, 2.0]}, "a: a list"),
        ({"a": {"b": 1.0}}, "a/b: a float"),
        ({"a": np.asarray([1, "x"], dtype=object)}, "a: an object array"),
        ({np.int64(3): np.zeros(1)}, "int64"),
        ({("x", 1.5): np.zeros(1)}, "tuple"),
        ({"a": np.asarray(["ok", "nul\x00"], dtype=object)}, "a: an object array"),
    ],
)
def test_a_result_it_cannot_read_back_exactly_is_refused_naming_where(result, named):
    with pytest.raises(UnkeepableError, match=named.replace("(", r"\(")):
        pack(result)


# -- the keys ------------------------------------------------------------------------------
@pytest.fixture
def package(tmp_path) -> Path:
    copy = tmp_path / keys.PACKAGE
    shutil.copytree(keys.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def all_keys(package: Path, run=runs.BUILD) -> dict[str, str]:
    graph = ImportGraph(package)
    return {name: experiment_key(graph, name, run) for name in NAMES}


def changed_by(package: Path, relative: str, old: str, new: str) -> set[str]:
    before = all_keys(package)
    path = package / relative
    source = path.read_text("utf-8")
    assert source.count(old) == 1, (relative, old)
    path.write_text(source.replace(old, new), "utf-8")
    after = all_keys(package)
    return {name for name in NAMES if before[name] != after[name]}


CODE = "\n_EDITED_BY_TEST = 1\n"


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        # after_training.py imports training.py; initialisation.py imports neither
        ("training.py", {"training", "after-training"}),
        ("after_training.py", {"after-training"}),
        ("initialisation.py", {"initialisation"}),
        ("settings.py", set(NAMES)),  # every experiment reads its seeds there
        ("runs.py", set(NAMES)),  # and its run's seed offset and precision
        ("_tf.py", set(NAMES)),  # TensorFlow (Keras' initialisers draw through it)
        ("fits.py", {"after-training"}),  # the after-training spread's fitted slope
        # what the pages make of the results, the figures, the build: no experiment
        ("content/training.py", set()),
        ("content/after_training.py", set()),
        ("content/pages.py", set()),
        ("figures/training_loss.py", set()),
        ("explorer.py", set()),
        ("sitebuild/plugin.py", set()),
    ],
)
def test_a_module_edit_changes_the_keys_of_the_experiments_that_run_it(package, relative, expected):
    path = package / relative
    assert (
        changed_by(package, relative, path.read_text("utf-8"), path.read_text("utf-8") + CODE)
        == expected
    )


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [  # content/data.py: each experiment's own function, and none of the rest
        ('"sgd": run_grid(seeds=seeds', '"sgd": run_grid(seeds=seeds[:1]', {"training"}),
        ("run.seeds(AFTER_SEEDS)", "run.seeds(AFTER_SEEDS[:1])", {"after-training"}),
        ("run.seeds(INIT_SEEDS)", "run.seeds(INIT_SEEDS[:1])", {"initialisation"}),
        ("window: int = TRAINING_SMOOTH", "window: int = TRAINING_SMOOTH + 1", set()),
        ("# Set by the asset step", "# (a comment) Set by the asset step", set()),
    ],
)
def test_an_edit_to_content_data_changes_only_the_experiment_it_is_in(package, old, new, expected):
    assert changed_by(package, "content/data.py", old, new) == expected


def test_the_build_and_the_rerun_are_kept_apart(package):
    build, rerun = all_keys(package, runs.BUILD), all_keys(package, runs.RERUN)
    assert all(build[name] != rerun[name] for name in NAMES)
    other = runs.Run("build", 0, "float64")
    assert all(build[name] != experiment_key(ImportGraph(package), name, other) for name in NAMES)


def test_each_experiment_is_keyed_by_the_function_that_keeps_it(package):
    found = {name: node.name for name, node in experiment_functions(ImportGraph(package)).items()}
    assert found == {
        "training": "training",
        "after-training": "after_training",
        "initialisation": "initialisation",
    }
    # a name that is not a literal, or one two functions claim, is refused, naming the function
    path = package / "content/data.py"
    source = path.read_text("utf-8")
    call = 'kept_or_run(\n        "initialisation", run,'
    assert source.count(call) == 1
    for name in ("NAME", '"training"'):
        path.write_text(source.replace(call, f"kept_or_run(\n        {name}, run,"), "utf-8")
        with pytest.raises(ValueError, match=r"content\.data\.initialisation: kept_or_run needs"):
            experiment_functions(ImportGraph(package))


def test_what_a_kept_function_reads_is_in_its_key():
    """A key covers its function's source and the package modules that function imports,
    with settings and runs. A kept function must then read nothing else of content/data.py
    than the keeping itself: a helper of that module it called would change the result
    without changing the key."""
    tree = ast.parse(Path(data.__file__).read_text("utf-8"))
    imported, defined = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            # `from x import y` reads x, or module x.y
            imported.update({a.asname or a.name: (node.module, a.name) for a in node.names})
        elif isinstance(node, ast.Import):
            imported.update({a.asname or a.name: (a.name, "") for a in node.names})
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined.update(t.id for t in targets if isinstance(t, ast.Name))
    covered = {"attention_explained.settings", "attention_explained.runs"}
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for function in ("training", "after_training", "initialisation"):
        body = functions[function]
        arguments = {a.arg for a in ast.walk(body) if isinstance(a, ast.arg)}
        loads = {n.id for n in ast.walk(body) if isinstance(n, ast.Name)} - arguments
        # the keeping and the per-run memo (its decorator) decide where a result comes from,
        # not what it is
        assert loads & defined <= {"kept_or_run", "per_run"}, (function, sorted(loads & defined))
        for n in loads & set(imported):
            module, attribute = imported[n]
            if module.startswith(keys.PACKAGE):
                assert {module, f"{module}.{attribute}"} & covered, (function, n, module)


@pytest.mark.parametrize("name", NAMES)
def test_a_real_result_of_each_experiment_reads_back_the_same(name):
    """Each experiment's own code at its smallest sizes: what it returns is kept exactly (a
    result the store refused would only be warned about, and computed every time)."""
    from attention_explained import after_training, initialisation, training

    small = {
        "training": lambda: {
            "sgd": training.run_grid(dks=[4], seeds=[0], steps=3),
            "adam": training.run_grid(dks=[4], optimizer="adam", seeds=[0], steps=3),
        },
        "after-training": lambda: after_training.run(
            sweep_dks=[4], learning_rates=[0.01], spread_dks=[4], seeds=[0], steps=3
        ),
        "initialisation": lambda: initialisation.grid(
            key_dims=[4], head_counts=[1], across_key_dims=[4], seeds=[0]
        ),
    }[name]
    fresh = small()
    assert_same(unpack(pack(fresh)), fresh)


# -- the store -----------------------------------------------------------------------------
def test_a_kept_result_is_read_back_and_each_run_has_its_own(tmp_path):
    store = ExperimentStore(tmp_path, ImportGraph())
    fresh = grid_like()
    assert store.load("training", runs.BUILD) is None
    store.save("training", runs.BUILD, fresh)
    assert_same(store.load("training", runs.BUILD), fresh)
    assert store.load("training", runs.RERUN) is None
    assert store.load("after-training", runs.BUILD) is None


def test_a_damaged_entry_is_discarded_with_a_warning_and_computed_again(tmp_path, caplog):
    store = ExperimentStore(tmp_path, ImportGraph())
    store.save("training", runs.BUILD, grid_like())
    entry = store.entry("training", runs.BUILD)
    result = entry / RESULT
    result.write_bytes(result.read_bytes()[:-10])  # truncated: the seal no longer matches
    with caplog.at_level(logging.WARNING):
        assert store.load("training", runs.BUILD) is None
    assert str(entry) in caplog.text and "damaged" in caplog.text
    assert not entry.exists()


def test_a_whole_entry_that_does_not_read_back_is_discarded_naming_it(tmp_path, caplog):
    from attention_explained.sitebuild._internal.storage import write_entry

    store = ExperimentStore(tmp_path, ImportGraph())
    entry = store.entry("initialisation", runs.BUILD)
    entry.parent.mkdir(parents=True)
    write_entry(entry, {RESULT: b"not an npz"})  # sealed, so only reading it can tell
    with caplog.at_level(logging.WARNING):
        assert store.load("initialisation", runs.BUILD) is None
    assert str(entry) in caplog.text and RESULT in caplog.text
    assert not entry.exists()


def test_a_result_that_cannot_be_kept_is_not_written_and_the_warning_names_it(tmp_path, caplog):
    store = ExperimentStore(tmp_path, ImportGraph())
    with caplog.at_level(logging.WARNING):
        store.save("training", runs.BUILD, {"sgd": {"loss": [1.0]}})
    assert "experiment 'training' is not kept: sgd/loss: a list" in caplog.text
    assert store.load("training", runs.BUILD) is None


class FakeKeeper:
    def __init__(self, kept=None):
        self.kept, self.saved = kept, []

    def load(self, name, run):
        return self.kept

    def save(self, name, run, result):
        self.saved.append((name, run, result))


def test_the_data_layer_runs_an_experiment_only_when_nothing_is_kept(monkeypatch, tmp_path):
    log = tmp_path / "experiments.log"
    monkeypatch.setenv(data.EXPERIMENT_LOG, str(log))
    computed = []

    def compute():
        computed.append(1)
        return {"x": np.zeros(1)}

    monkeypatch.setattr(data, "KEEPER", FakeKeeper(kept={"x": np.ones(1)}))
    assert data.kept_or_run("training", runs.BUILD, compute)["x"][0] == 1.0
    assert computed == [] and not log.exists()

    empty = FakeKeeper()
    monkeypatch.setattr(data, "KEEPER", empty)
    assert data.kept_or_run("training", runs.BUILD, compute)["x"][0] == 0.0
    assert computed == [1] and log.read_text("utf-8") == "training\n"
    assert [(n, r) for n, r, _ in empty.saved] == [("training", runs.BUILD)]

    monkeypatch.setattr(data, "KEEPER", None)  # outside the asset step: always computed
    data.kept_or_run("training", runs.BUILD, compute)
    assert computed == [1, 1]


def test_a_result_whose_code_changed_while_it_ran_is_not_kept(package, tmp_path, caplog):
    store = ExperimentStore(tmp_path, ImportGraph(package))  # the code as the step read it
    path = package / "initialisation.py"
    path.write_text(path.read_text("utf-8") + CODE, "utf-8")  # saved while the grid ran
    with caplog.at_level(logging.WARNING):
        store.save("initialisation", runs.BUILD, grid_like())
    assert "experiment 'initialisation' is not kept: its code changed" in caplog.text
    assert not (tmp_path / "experiments").exists()
    # the other experiments' code did not change: kept
    store.save("training", runs.BUILD, grid_like())
    assert store.load("training", runs.BUILD) is not None
