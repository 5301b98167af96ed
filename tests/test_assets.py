"""The cache keys: an edit re-renders exactly the figures (and data) that depend on it."""

from __future__ import annotations

import shutil

import pytest

from attention_explained import assets
from attention_explained.figures import FIGURE_IDS
from attention_explained.figures.registry import EXTRA_SOURCES


@pytest.fixture
def package(tmp_path, monkeypatch):
    copy = tmp_path / "attention_explained"
    shutil.copytree(assets.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(assets, "PACKAGE_DIR", copy)
    return copy


def keys():
    return {i: assets.figure_key(i) for i in FIGURE_IDS}, assets.data_key()


def edit(path):
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")


def changed(before, after):
    return {i for i in FIGURE_IDS if before[0][i] != after[0][i]}, before[1] != after[1]


def test_editing_one_figure_changes_only_its_key(package):
    before = keys()
    edit(package / "figures/temperature.py")
    assert changed(before, keys()) == ({"temperature"}, False)


def test_editing_the_training_experiment_changes_its_figures_and_the_numbers(package):
    before = keys()
    edit(package / "training.py")
    training = {i for i, extra in EXTRA_SOURCES.items() if "training.py" in extra}
    assert training and changed(before, keys()) == (training, True)


def test_editing_the_core_changes_everything(package):
    before = keys()
    edit(package / "stats.py")
    assert changed(before, keys()) == (set(FIGURE_IDS), True)


def test_editing_build_tooling_changes_nothing(package):
    before = keys()
    edit(package / "mkdocs_plugin.py")
    assert changed(before, keys()) == (set(), False)


def test_notebook_key_ignores_figures_unless_a_notebook_uses_them(package):
    plain, with_figures = (assets.package_source_key(include_figures=f) for f in (False, True))
    edit(package / "figures/temperature.py")
    assert assets.package_source_key(include_figures=False) == plain
    assert assets.package_source_key(include_figures=True) != with_figures
