"""Open in Colab (sitebuild/_internal/colab.py): URLs, the commit, the install cell."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest
from site_build import REPO

from attention_explained.sitebuild._internal import colab

REPO_URL = "https://github.com/attention-explained/attention_explained"
SHA = "0123456789abcdef0123456789abcdef01234567"


def test_colab_url_opens_the_site_path_on_the_colab_branch():
    url = colab.colab_url(REPO_URL + "/", "en/notebooks/heatmaps/heatmaps.ipynb")
    assert url == (
        "https://colab.research.google.com/github/attention-explained/attention_explained"
        "/blob/colab/en/notebooks/heatmaps/heatmaps.ipynb"
    )


@pytest.mark.parametrize("bad", ["https://gitlab.com/a/b", "https://github.com/only-owner", ""])
def test_a_repo_url_that_is_not_github_is_refused(bad):
    with pytest.raises(ValueError, match="repo_url"):
        colab.colab_url(bad, "x.ipynb")


def test_the_commit_comes_from_github_sha_else_from_git():
    assert colab.build_commit({"GITHUB_SHA": SHA}) == SHA
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert colab.build_commit({}, REPO) == head
    with pytest.raises(ValueError, match="GITHUB_SHA"):
        colab.build_commit({"GITHUB_SHA": "main"})


def pip_args(source: str) -> list[str]:
    """The arguments the install cell passes to pip (read from its code, not executed)."""
    call = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "check_call"
    )
    return [elt.value for elt in call.args[0].elts if isinstance(elt, ast.Constant)]


def test_the_install_cell_pins_the_repository_at_the_commit_only_in_colab(monkeypatch):
    source = colab.install_source(REPO_URL, SHA)
    args = pip_args(source)
    assert f"attention_explained @ git+{REPO_URL}@{SHA}" in args
    assert "--no-deps" in args and "koreanize-matplotlib" in args
    calls = []
    monkeypatch.setattr(subprocess, "check_call", calls.append)
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    exec(compile(source, "cell", "exec"), {})  # not in Colab: nothing happens
    assert calls == []
    monkeypatch.setitem(sys.modules, "google.colab", object())
    exec(compile(source, "cell", "exec"), {})
    assert len(calls) == 1 and calls[0][1:] == args
    assert args[:3] == ["-m", "pip", "install"]


def test_the_cell_goes_first_once_and_the_notebook_stays_valid(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# 제목"), nbformat.v4.new_code_cell("x = 1")]
    )
    path = tmp_path / "n.ipynb"
    path.write_text(nbformat.writes(notebook), encoding="utf-8")
    colab.add_install_cell(path, REPO_URL, SHA)
    colab.add_install_cell(path, REPO_URL, SHA)  # a rebuild replaces, never stacks
    again = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    nbformat.validate(again)
    assert [c.cell_type for c in again.cells] == ["code", "markdown", "code"]
    assert again.cells[0].source == colab.install_source(REPO_URL, SHA)
    assert again.cells[0].metadata["tags"] == [colab.TAG]
    assert again.cells[2].source == "x = 1"
    assert json.loads(path.read_text("utf-8"))["nbformat_minor"] >= 5  # cell ids
