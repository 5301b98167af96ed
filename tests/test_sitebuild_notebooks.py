"""Notebook execution: shared between languages, cached, isolated, and loud when a cell fails."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from site_build import build, make_site, notebook

from attention_explained.sitebuild._internal.notebooks import (
    NotebookError,
    NotebookRunner,
    coalesce_streams,
    code_cells,
    code_key,
    stem,
)

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_stem_drops_the_language_suffix():
    assert stem(Path("heatmaps.en.md")) == "heatmaps"
    assert stem(Path("heatmaps.md")) == "heatmaps"
    assert stem(Path("sweep-and-keras.ko.md")) == "sweep-and-keras"


@pytest.mark.parametrize("name", ["heatmaps", "sweep-and-keras"])
def test_site_notebooks_share_their_code_between_languages(name):
    ko_text = (DOCS / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    en_text = (DOCS / "notebooks" / f"{name}.en.md").read_text(encoding="utf-8")
    assert code_key(ko_text) == code_key(en_text), "identical code cells: one run serves both"
    ko, en = jupytext.reads(ko_text, fmt="md"), jupytext.reads(en_text, fmt="md")
    markdown = lambda nb: [c.source for c in nb.cells if c.cell_type == "markdown"]  # noqa: E731
    assert markdown(ko) != markdown(en)
    # The fast key reads code cells with a regex; it must see exactly what jupytext sees.
    assert code_cells(ko_text) == [c.source for c in ko.cells if c.cell_type == "code"]


def test_code_key_follows_code_not_prose(tmp_path):
    read = lambda *args: notebook(tmp_path, *args).read_text(encoding="utf-8")  # noqa: E731
    a, b, c = (
        read("a.md", "A", "x = 1"),
        read("b.md", "B, other", "x = 1"),
        read("c.md", "A", "x = 2"),
    )
    assert code_key(a) == code_key(b) != code_key(c)


def test_languages_share_one_execution_and_keep_their_own_prose(tmp_path):
    ko = notebook(tmp_path, "demo.md", "데모", "print(6 * 7)")
    en = notebook(tmp_path, "demo.en.md", "Demo", "print(6 * 7)")
    runner = NotebookRunner([ko, en], tmp_path / "cache", timeout=60)
    runner.start()
    assert len(runner.executed) == 1
    for source, title in ((ko, "데모"), (en, "Demo")):
        done = nbformat.read(runner.wait(source), as_version=4)
        code = [c for c in done.cells if c.cell_type == "code"]
        assert code[0].outputs[0]["text"] == "42\n" and code[0].execution_count == 1
        assert done.cells[0].source == f"# {title}"
        nbformat.validate(done)
    runner.close()
    again = NotebookRunner([ko, en], tmp_path / "cache", timeout=60)
    again.start()
    assert again.executed == [], "a second build must take both from the cache"


def test_notebooks_in_one_kernel_do_not_see_each_others_variables(tmp_path):
    first = notebook(tmp_path, "first.md", "First", "leak = 1")
    second = notebook(tmp_path, "second.md", "Second", "assert 'leak' not in globals()")
    runner = NotebookRunner([first, second], tmp_path / "cache", timeout=60)
    runner.start()
    runner.wait(first)
    runner.wait(second)  # raises if the variable leaked
    runner.close()


def test_a_failing_cell_raises_with_the_notebook_and_the_error(tmp_path):
    broken = notebook(tmp_path, "broken.md", "Broken", "x = 1", "1 / 0")
    runner = NotebookRunner([broken], tmp_path / "cache", timeout=60)
    runner.start()
    with pytest.raises(NotebookError, match=r"broken\.md(.|\n)*ZeroDivisionError"):
        runner.wait(broken)
    runner.close()
    assert not list((tmp_path / "cache").rglob("*.ipynb")), "a failed run must not be cached"


@pytest.mark.site
def test_a_failing_notebook_fails_the_site_build(tmp_path, ae_cache):
    replace = {"notebooks: []": "notebooks: [notebooks/*.md]"}
    root = make_site(tmp_path / "site", ae_cache, **replace)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace(
        "nav:\n  - index.md",
        "  - mkdocs-jupyter:\n      execute: false\n      allow_errors: false\n"
        "nav:\n  - index.md\n  - notebooks/bad.md",
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    (root / "docs/notebooks").mkdir()
    notebook(root / "docs/notebooks", "bad.md", "나쁜 노트북", "raise RuntimeError('cell blew up')")
    notebook(
        root / "docs/notebooks", "bad.en.md", "Bad notebook", "raise RuntimeError('cell blew up')"
    )
    result = build(root)
    assert result.returncode != 0
    assert "bad" in result.stderr and "cell blew up" in result.stderr


def test_executed_notebook_has_no_dependency_on_cwd(tmp_path):
    """Kernels run in a scratch folder: a notebook writing files leaves docs/ untouched."""
    writer = notebook(tmp_path, "writer.md", "W", "open('out.txt', 'w').write('x')")
    runner = NotebookRunner([writer], tmp_path / "cache", timeout=60)
    runner.start()
    runner.wait(writer)
    runner.close()
    assert not (tmp_path / "out.txt").exists()
    assert not (Path.cwd() / "out.txt").exists()


def test_cell_ids_come_from_each_cells_place_not_from_chance(tmp_path):
    source = notebook(tmp_path, "ids.md", "Ids", "x = 1", "y = 2")
    first = NotebookRunner([source], tmp_path / "a", timeout=60).notebook(source)
    second = NotebookRunner([source], tmp_path / "b", timeout=60).notebook(source)
    ids = [cell.id for cell in first.cells]
    assert ids == [cell.id for cell in second.cells]
    assert len(set(ids)) == len(ids) == 3
    nbformat.validate(first)


def test_a_print_flushed_in_pieces_is_one_stream_output(tmp_path):
    # Each flush is its own stream message: without coalescing, one print block arrives as
    # several outputs, and how many depends on the kernel's timing.
    code = (
        'import sys\nfor part in "abc":\n    print(part, flush=True)\nprint("err", file=sys.stderr)'
    )
    source = notebook(tmp_path, "streams.md", "Streams", code)
    runner = NotebookRunner([source], tmp_path / "cache", timeout=60)
    done = nbformat.read(runner.wait(source), as_version=4)
    runner.close()
    outputs = next(c for c in done.cells if c.cell_type == "code").outputs
    texts = [(o["name"], o["text"]) for o in outputs]
    assert texts == [("stdout", "a\nb\nc\n"), ("stderr", "err\n")]


def test_coalescing_merges_only_neighbours():
    image = {"output_type": "display_data", "data": {"text/plain": "<Figure>"}, "metadata": {}}
    out = lambda name, text: {"output_type": "stream", "name": name, "text": text}  # noqa: E731
    outputs = [out("stdout", "a"), out("stdout", ["b", "c"]), image, out("stdout", "d")]
    assert coalesce_streams(outputs) == [out("stdout", "abc"), image, out("stdout", "d")]
    assert outputs[0]["text"] == "a", "the input is left as it was"


# -- the asset step executes the notebooks; the site build reads what it wrote -------------


def notebook_site(root: Path, cache: Path, *cells: str) -> Path:
    """The fixture site with one notebook page (Korean and English) of ``cells``."""
    site = make_site(root, cache, **{"notebooks: []": "notebooks: [notebooks/*.md]"})
    config = (site / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace(
        "nav:\n  - index.md",
        "  - mkdocs-jupyter:\n      execute: false\n      allow_errors: false\n"
        "nav:\n  - index.md\n  - notebooks/demo.md",
    )
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    (site / "docs/notebooks").mkdir()
    notebook(site / "docs/notebooks", "demo.md", "데모", *cells)
    notebook(site / "docs/notebooks", "demo.en.md", "Demo", *cells)
    return site


def assets_build(site: Path, cache: Path, **env: str) -> subprocess.CompletedProcess:
    """``python -m attention_explained assets build`` for ``site``'s pages, as make runs it."""
    command = [sys.executable, "-m", "attention_explained", "assets", "build"]
    return subprocess.run(
        [*command, "--cache-dir", str(cache), "--docs", str(site / "docs")],
        capture_output=True,
        text=True,
        check=False,
        cwd=site,
        env={**os.environ, **env},
    )


def own_copy(cache: Path, target: Path) -> Path:
    """A copy of the session's cache without a manifest: this test's manifest and notebooks
    stay out of the other tests' builds."""
    shutil.copytree(cache, target)
    (target / "manifest.json").unlink(missing_ok=True)
    return target


# The cell prints a mark that only the asset step's environment has: a page that shows it
# was executed by the asset step, not by the site build.
# Printed in capitals: the page's copy of the source (lower case) does not count.
MARKED = "import os\nprint(os.environ.get('AE_TEST_MARK', 'unmarked').upper())"


@pytest.mark.site
def test_the_asset_step_executes_the_notebooks_and_the_build_reads_them(tmp_path, ae_cache):
    cache = own_copy(ae_cache, tmp_path / "cache")
    site = notebook_site(tmp_path / "site", cache, MARKED)
    done = assets_build(site, cache, AE_TEST_MARK="executed by the asset step")
    assert done.returncode == 0, done.stderr[-4000:]
    manifest = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["notebooks"]) == ["notebooks/demo.en.md", "notebooks/demo.md"]
    executed_once = manifest["computed"]["notebooks"]  # one kernel run serves both languages
    assert len(executed_once) == 1 and executed_once[0] in manifest["notebooks"]
    for src, executed in manifest["notebooks"].items():
        done_nb = nbformat.read(cache / executed, as_version=4)
        code = [c for c in done_nb.cells if c.cell_type == "code"]
        assert code[0].outputs[0]["text"] == "EXECUTED BY THE ASSET STEP\n", src
    again = assets_build(site, cache)  # nothing changed: nothing is executed again
    assert again.returncode == 0, again.stderr[-4000:]
    manifest = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["computed"]["notebooks"] == []
    result = build(site)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "running the asset step first" not in result.stderr
    assert "notebooks executed 0" in result.stderr
    for page in ("site/notebooks/demo/index.html", "site/en/notebooks/demo/index.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert "EXECUTED BY THE ASSET STEP" in html, page
        assert "UNMARKED" not in html, page


@pytest.mark.site
def test_a_failing_notebook_stops_the_asset_step_with_its_name(tmp_path, ae_cache):
    cache = own_copy(ae_cache, tmp_path / "cache")
    site = notebook_site(tmp_path / "site", cache, "x = 1", "raise RuntimeError('cell blew up')")
    before = sorted((cache / "notebooks").rglob("*.ipynb"))  # other tests' notebooks
    result = assets_build(site, cache)
    assert result.returncode == 1
    assert re.search(r"notebooks/demo(\.en)?\.md", result.stderr), result.stderr[-4000:]
    assert "cell blew up" in result.stderr
    assert not (cache / "manifest.json").exists(), "no manifest for a step that failed"
    after = sorted((cache / "notebooks").rglob("*.ipynb"))
    assert after == before, "a failed run must not be cached"
