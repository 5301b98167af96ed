"""Cache keys from the code's own imports: an edit re-renders exactly what can depend on it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attention_explained.sitebuild import keys
from attention_explained.sitebuild.keys import PACKAGE, ImportGraph

GRAPH = ImportGraph()
FIGURE_IDS = GRAPH.figure_ids()
NOTEBOOKS = [  # one language: the other has the same code cells, so the same key
    p
    for p in sorted((Path(__file__).resolve().parents[1] / "docs/notebooks").glob("*.md"))
    if ".en." not in p.name
]

# Draw each figure (one language, one theme) in one process and list the package modules each
# loaded. Before each figure every package module is dropped from sys.modules, so the figure
# imports its modules again, as a fresh process would (a module an earlier figure loaded is
# loaded again, and seen); TensorFlow and matplotlib, imported once, stay: each is ~15 s of
# CPU to import, which one process per figure paid 17 times.
PROBE = """
import json, sys

def package_modules():
    return sorted(m for m in sys.modules if m == "{p}" or m.startswith("{p}."))

for figure_id in sys.argv[1:]:
    for name in package_modules():
        del sys.modules[name]
    from {p}.figures import draw

    draw(figure_id, "ko", "dark")
    import matplotlib.pyplot

    matplotlib.pyplot.close("all")
    print(json.dumps([figure_id, package_modules()]), flush=True)
""".replace("{p}", PACKAGE)


def _loaded_by(figure_ids) -> dict[str, list[str]]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *figure_ids],
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"),
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("[")]
    return dict(lines)


@pytest.mark.grid  # every figure drawn: the training figures run the grids
def test_every_module_a_figure_loads_is_in_its_key():
    loaded = _loaded_by(FIGURE_IDS)
    assert list(loaded) == list(FIGURE_IDS)
    for figure_id, modules in loaded.items():
        closure = GRAPH.closure([GRAPH.figure_entry(figure_id)])
        assert GRAPH.figure_entry(figure_id) in modules
        missing = set(modules) - closure
        assert not missing, f"{figure_id} loads {sorted(missing)}, which its key does not cover"


@pytest.fixture
def package(tmp_path) -> Path:
    copy = tmp_path / PACKAGE
    shutil.copytree(keys.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def all_keys(package: Path) -> dict[str, str]:
    graph = ImportGraph(package)
    found = {f"figure {i}": graph.figure_key(i) for i in graph.figure_ids()}
    found["data"] = graph.data_key()
    found["claims"] = graph.claims_key()
    for notebook in NOTEBOOKS:
        found[f"notebook {notebook.name}"] = graph.notebook_key(notebook.read_text("utf-8"))
    return found


def entries(graph: ImportGraph) -> dict[str, list[str]]:
    """The entry modules of every key, as the keys themselves find them."""
    found = {f"figure {i}": [graph.figure_entry(i)] for i in graph.figure_ids()}
    found["data"] = list(keys.DATA_ENTRIES)
    found["claims"] = [*keys.CLAIM_ENTRIES, *keys.DATA_ENTRIES]  # it covers the numbers' key
    for notebook in NOTEBOOKS:
        modules, _ = keys.cell_imports(keys.code_cells(notebook.read_text("utf-8")))
        found[f"notebook {notebook.name}"] = keys.resolve_entries(graph, modules)
    return found


def edit(path: Path) -> None:
    """A code change (not a comment), so that every kind of module hashing sees it."""
    path.write_text(path.read_text("utf-8") + "\n_EDITED_BY_TEST = 1\n", "utf-8")


def test_changing_one_module_changes_exactly_the_keys_that_import_it(package):
    graph = ImportGraph(package)
    closures = {name: graph.closure(e) for name, e in entries(graph).items()}
    before = all_keys(package)
    assert len(set(before.values())) == len(before), "keys must differ between assets"
    for module in sorted(graph.modules):
        path = graph.path(module)
        original = path.read_bytes()
        edit(path)
        after = all_keys(package)
        path.write_bytes(original)
        changed = {name for name in before if before[name] != after[name]}
        expected = {name for name, closure in closures.items() if module in closure}
        assert changed == expected, module


@pytest.mark.parametrize("module", ["cli.py", "__main__.py", "sitebuild/plugin.py"])
def test_build_tooling_changes_no_key(package, module):
    before = all_keys(package)
    edit(package / module)
    assert all_keys(package) == before


def _reword(path, strings: dict) -> None:
    """Reword one of ``strings`` that is written once, in one piece, in the file ``path``."""
    source = path.read_text("utf-8")
    texts = [t for key in strings.values() for t in key.values()]
    quoted = next(q for t in texts if source.count(q := json.dumps(t, ensure_ascii=False)) == 1)
    path.write_text(source.replace(quoted, quoted[:-1] + ' (reworded)"'), "utf-8")


def _changed(package, change) -> set[str]:
    before = all_keys(package)
    change()
    after = all_keys(package)
    return {n for n in before if before[n] != after[n]}


def test_rewording_one_figure_changes_only_that_figure(package):
    module = package / "figures" / "temperature.py"
    own = ImportGraph(package).literal(f"{PACKAGE}.figures.temperature", "STRINGS")
    assert _changed(package, lambda: _reword(module, own)) == {"figure temperature"}


def _users(graph: ImportGraph, shared_name: str) -> set[str]:
    """The figures that draw the shared string ``shared_name``: their module, or a helper
    module they import, names it in its SHARED_STRINGS."""
    return {
        f"figure {figure_id}"
        for figure_id in graph.figure_ids()
        for module in graph.closure([graph.figure_entry(figure_id)])
        if module.startswith(f"{PACKAGE}.figures.")
        and shared_name in graph.literal(module, "SHARED_STRINGS", {}).values()
    }


def test_rewording_a_shared_string_changes_exactly_the_figures_that_use_it(package):
    strings = package / "figures" / "strings.py"
    graph = ImportGraph(package)
    shared = graph.literal(f"{PACKAGE}.figures.strings", "SHARED")
    # named by 3 figures themselves; by 2 others; by the helper the 3 training figures import
    for name in ("row_entropy", "band_adamw", "band_sgd"):
        users = _users(graph, name)
        assert 1 < len(users) < len(graph.figure_ids()), name
        source = strings.read_bytes()
        assert _changed(package, lambda n=name: _reword(strings, {n: shared[n]})) == users, name
        strings.write_bytes(source)


def test_a_figure_importing_a_new_module_gets_it_in_its_key(package):
    """A helper moved into a new module: the figure's key follows the import, not a list."""
    (package / "helper_for_test.py").write_text("VALUE = 1\n", "utf-8")
    module = package / "figures" / "temperature.py"
    module.write_text(
        module.read_text("utf-8") + "\n\ndef _uses():\n    from attention_explained import "
        "helper_for_test  # noqa\n",
        "utf-8",
    )
    before = all_keys(package)
    (package / "helper_for_test.py").write_text("VALUE = 2\n", "utf-8")
    after = all_keys(package)
    assert {n for n in before if before[n] != after[n]} == {"figure temperature"}


def test_lazy_package_attributes_lead_to_their_modules():
    closure = GRAPH.closure(keys.resolve_entries(GRAPH, [f"{PACKAGE}.MultiHeadAttention"]))
    assert f"{PACKAGE}.attention" in closure
    assert f"{PACKAGE}.training" not in closure


def test_type_checking_imports_are_not_followed():
    """The root __init__ imports attention/stats/tensors only for type checkers."""
    assert GRAPH.modules[PACKAGE].imports == frozenset()


def test_keys_never_import_tensorflow():
    probe = (
        "import sys\nfrom attention_explained.sitebuild.keys import ImportGraph\n"
        "g = ImportGraph(); [g.figure_key(i) for i in g.figure_ids()]; g.data_key()\n"
        "print('tensorflow' in sys.modules, 'matplotlib' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


def test_versions_name_the_distributions_the_code_imports():
    graph = GRAPH
    external = graph.external(graph.closure([graph.figure_entry("temperature")]))
    assert {"tensorflow", "matplotlib", "numpy", "koreanize_matplotlib"} <= external
    named = keys.versions(tuple(sorted(external)))
    assert "matplotlib==" in named and "numpy==" in named and "koreanize-matplotlib==" in named


def test_the_import_memo_gives_the_same_graph_and_spares_the_parse(package, tmp_path, monkeypatch):
    """A build reads each module's imports from the memo while its source is unchanged."""
    memo = keys.memo_path(tmp_path)
    keys.forget_parsed()  # this process has parsed nothing yet
    fresh = ImportGraph(package, memo=memo)
    assert memo.is_file()
    assert {n: m.imports for n, m in fresh.modules.items()} == {
        n: m.imports for n, m in ImportGraph(package).modules.items()
    }
    expected = all_keys(package)

    keys.forget_parsed()
    parsed = []
    real_parse = keys.ast.parse
    monkeypatch.setattr(
        keys.ast, "parse", lambda source, *a, **k: parsed.append(source) or real_parse(source)
    )
    remembered = ImportGraph(package, memo=memo)
    assert parsed == []  # nothing parsed: every module came from the memo
    assert {n: m.imports for n, m in remembered.modules.items()} == {
        n: m.imports for n, m in fresh.modules.items()
    }
    assert remembered.figure_ids() == fresh.figure_ids()  # the one tree it needs, on demand

    edit(package / "content/data.py")
    keys.forget_parsed()
    parsed.clear()
    edited = ImportGraph(package, memo=memo)
    assert len(parsed) == 1 and b"_EDITED_BY_TEST" in parsed[0]  # only the edited module
    assert edited.figure_key(FIGURE_IDS[0]) != expected[f"figure {FIGURE_IDS[0]}"]


# -- the claims are keyed apart from the numbers they judge ----------------------------------

CLAIM_CHECK = 'return v["figures.variance_max_rel_dev"] < 0.1'


def _content(package: Path) -> Path:
    path = package / "content" / "figures.py"
    assert path.read_text("utf-8").count(CLAIM_CHECK) == 1
    return path


def test_editing_a_claim_changes_the_claims_key_and_not_the_numbers_key(package):
    module = _content(package)
    before = all_keys(package)
    source = module.read_text("utf-8")
    module.write_text(source.replace(CLAIM_CHECK, CLAIM_CHECK.replace("0.1", "0.2")), "utf-8")
    after = all_keys(package)
    assert {n for n in before if before[n] != after[n]} == {"claims"}


def test_a_comment_in_a_content_module_changes_no_numbers_key(package):
    module = _content(package)
    before = ImportGraph(package).data_key()
    module.write_text(module.read_text("utf-8") + "\n# a note for the next maintainer\n", "utf-8")
    assert ImportGraph(package).data_key() == before


def test_editing_a_number_changes_both_keys(package):
    module = _content(package)
    before = all_keys(package)
    number = 'out["figures.variance_max_rel_dev"] = Number(worst, ".3f")'
    source = module.read_text("utf-8")
    assert source.count(number) == 1
    module.write_text(source.replace(number, number.replace(".3f", ".4f")), "utf-8")
    after = all_keys(package)
    assert {n for n in before if before[n] != after[n]} == {"data", "claims"}


def test_adding_a_claim_changes_only_the_claims_key(package):
    module = _content(package)
    before = all_keys(package)
    module.write_text(
        module.read_text("utf-8")
        + '\n\n@claim("figures.test_only", statement="s", counterexample={"n": 0.0})\n'
        "def _test_only(v):\n    return v['n'] > 1\n",
        "utf-8",
    )
    after = all_keys(package)
    assert {n for n in before if before[n] != after[n]} == {"claims"}


# What an edit must re-render, written by hand from what each asset computes, not from the
# import graph the keys are built on: a key that loses a real dependency (a lazy import the
# graph no longer follows, say) fails here even though the graph agrees with itself.
TRAINING_FIGURES = {"figure training-loss", "figure training-entropy", "figure training-gradient"}
HAND_WRITTEN = {
    # the training runs feed the training figures, the numbers and the claims
    "training.py": (TRAINING_FIGURES | {"data", "claims"}, {"figure temperature"}),
    # MultiHeadAttention is what the Keras notebook checks against Keras
    "attention.py": (
        {"notebook sweep-and-keras.md", "data", "claims"},
        {"notebook heatmaps.md", "figure temperature", "figure softmax-curve"},
    ),
    # every random q and k comes from tensors.py: both notebooks, and the figures that sample
    "tensors.py": (
        {"notebook heatmaps.md", "notebook sweep-and-keras.md", "figure temperature", "data"},
        {"figure attention-graph", "figure multi-head-diagram"},
    ),
    # a figure's own module re-renders that figure and nothing else
    "figures/temperature.py": ({"figure temperature"}, {"data", "claims", "figure softmax-curve"}),
}


@pytest.mark.parametrize("module", sorted(HAND_WRITTEN))
def test_an_edit_rerenders_what_it_feeds_by_a_hand_written_table(package, module):
    must, must_not = HAND_WRITTEN[module]
    changed = _changed(package, lambda: edit(package / module))
    assert must <= changed, f"editing {module} leaves stale: {sorted(must - changed)}"
    assert not (must_not & changed), f"editing {module} re-renders {sorted(must_not & changed)}"
