"""The cache checks every entry when it reads it: a damaged one is rebuilt, named, never served."""

from __future__ import annotations

import json
import logging
import shutil

import nbformat
import pytest
from site_build import build, make_site, notebook

from attention_explained.sitebuild.cache import (
    MANIFEST,
    AssetCache,
    drop_unsealed,
    entry_ok,
    read_file,
    read_json,
    write_entry,
    write_json,
)
from attention_explained.sitebuild.notebooks import NotebookRunner


@pytest.fixture
def warnings_(caplog):
    caplog.set_level(logging.WARNING, logger="attention_explained.cache")
    logging.getLogger("attention_explained.cache").propagate = True
    yield caplog
    logging.getLogger("attention_explained.cache").propagate = False


# -- folder entries -------------------------------------------------------------------------
def test_a_sealed_folder_is_whole(tmp_path, warnings_):
    write_entry(tmp_path / "e", {"a.svg": b"<svg/>", "sub/b.json": b"{}"})
    assert entry_ok(tmp_path / "e")
    assert (tmp_path / "e" / "sub" / "b.json").read_bytes() == b"{}"
    assert not warnings_.records


def test_an_absent_folder_is_stale_without_a_warning(tmp_path, warnings_):
    assert not entry_ok(tmp_path / "nothing")
    assert not warnings_.records


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda e: (e / "a.svg").write_bytes(b"<sv"), "a.svg does not match"),  # truncated
        (lambda e: (e / "a.svg").unlink(), "a.svg is missing"),
        (lambda e: (e / MANIFEST).unlink(), f"no {MANIFEST}"),
        (lambda e: (e / MANIFEST).write_text("{not json"), f"{MANIFEST} is unreadable"),
        (lambda e: (e / "extra.svg").write_bytes(b"x"), "extra.svg is not in"),
    ],
    ids=["truncated", "missing-file", "no-manifest", "garbage-manifest", "stray-file"],
)
def test_a_damaged_folder_is_removed_with_a_warning_naming_it(tmp_path, warnings_, damage, problem):
    entry = tmp_path / "e"
    write_entry(entry, {"a.svg": b"<svg/>", "b.svg": b"<svg></svg>"})
    damage(entry)
    assert not entry_ok(entry)
    assert not entry.exists(), "a damaged entry is never served"
    (message,) = [r.getMessage() for r in warnings_.records]
    assert str(entry) in message and problem in message and "rebuilding" in message


def test_a_folder_another_tool_fills_keeps_only_what_was_sealed(tmp_path, warnings_):
    """mkdocs-jupyter's HTML cache: sealed after a build, checked before the next."""
    from attention_explained.sitebuild.cache import seal

    folder = tmp_path / "notebook-html" / "ko"
    folder.mkdir(parents=True)
    for name in ("a.json", "b.json", "c.json"):
        (folder / name).write_text('{"content": "<p>x</p>"}', "utf-8")
    seal(folder)
    (folder / "b.json").write_text('{"content": "<p', "utf-8")  # truncated
    (folder / "d.json").write_text("{}", "utf-8")  # written after the seal: a build died
    assert drop_unsealed(folder) == [folder / "b.json", folder / "d.json"]
    assert sorted(p.name for p in folder.glob("*.json")) == ["a.json", "c.json"]
    messages = [r.getMessage() for r in warnings_.records]
    assert str(folder / "b.json") in messages[0] and "does not match" in messages[0]
    assert str(folder / "d.json") in messages[1] and "not in its folder's manifest" in messages[1]


# -- one-file entries -----------------------------------------------------------------------
def test_a_file_entry_reads_back_its_payload(tmp_path, warnings_):
    write_json(tmp_path / "x.json", {"ü": [1, 2]}, ensure_ascii=False)
    assert read_json(tmp_path / "x.json") == {"ü": [1, 2]}
    assert read_file(tmp_path / "absent.json") is None
    assert not warnings_.records


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda raw: raw[: len(raw) - 3], "does not match"),  # truncated
        (lambda raw: raw.replace(b"[1, 2]", b"[1, 3]"), "does not match"),
        (lambda raw: b"\x00garbage{", "no SHA-256 header"),
        (lambda raw: raw.split(b"\n", 1)[1], "no SHA-256 header"),  # an old, unsealed file
    ],
    ids=["truncated", "flipped", "garbage", "no-header"],
)
def test_a_damaged_file_entry_is_removed_with_a_warning(tmp_path, warnings_, damage, problem):
    path = tmp_path / "x.json"
    write_json(path, {"a": [1, 2]})
    path.write_bytes(damage(path.read_bytes()))
    assert read_json(path) is None
    assert not path.exists()
    (message,) = [r.getMessage() for r in warnings_.records]
    assert str(path) in message and problem in message


def test_a_damaged_file_entry_is_made_again_by_its_reader(tmp_path, warnings_):
    from attention_explained.sitebuild.css import pruned_css

    css = ".a { color: red }\n.b { color: blue }"
    first = pruned_css(css, ['<p class="a">'], tmp_path)
    (cached,) = tmp_path.glob("*.css")
    cached.write_bytes(cached.read_bytes()[:-4])
    assert pruned_css(css, ['<p class="a">'], tmp_path) == first
    assert str(cached) in warnings_.records[0].getMessage()
    assert read_file(cached).decode() == first, "rewritten whole"


def test_a_half_written_executed_notebook_is_executed_again(tmp_path, warnings_):
    source = notebook(tmp_path, "demo.md", "Demo", "print(6 * 7)")
    runner = NotebookRunner([source], tmp_path / "cache", timeout=60)
    path = runner.wait(source)
    runner.close()
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    again = NotebookRunner([source], tmp_path / "cache", timeout=60)
    again.start()
    assert again.executed == [source]
    assert again.wait(source).read_bytes() == whole
    again.close()
    nbformat.validate(nbformat.read(path, as_version=4))
    assert str(path.parent) in warnings_.records[0].getMessage()


# -- a build: the damaged entry is named, rebuilt, and the site gets the right bytes ----------
@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory, ae_cache):
    """The session cache after one fixture-site build (every figure and the numbers)."""
    root = make_site(tmp_path_factory.mktemp("cache-fixture"), ae_cache)
    result = build(root)
    assert result.returncode == 0, result.stderr
    return ae_cache


def _damaged_build(tmp_path, warm_cache, damage):
    cache_dir = tmp_path / "cache"
    shutil.copytree(warm_cache, cache_dir)
    entry = damage(AssetCache(cache_dir))
    result = build(make_site(tmp_path / "site", cache_dir))
    assert result.returncode == 0, result.stderr[-4000:]
    assert "Traceback" not in result.stderr
    assert f"cache entry {entry} is damaged" in result.stderr
    return tmp_path / "site" / "site", AssetCache(cache_dir)


@pytest.mark.site
def test_a_truncated_figure_is_drawn_again_not_served(tmp_path, warm_cache):
    svg = AssetCache(warm_cache).figure_path("logit-variance", "ko", "light")
    whole = svg.read_bytes()

    def truncate(cache):
        target = cache.figure_path("logit-variance", "ko", "light")
        target.write_bytes(whole[: len(whole) // 3])
        return target.parent

    site, cache = _damaged_build(tmp_path, warm_cache, truncate)
    assert (site / "figures" / "logit-variance.svg").read_bytes() == whole
    assert entry_ok(cache.figure_dir("logit-variance"))


@pytest.mark.site
def test_a_figure_entry_missing_a_variant_is_drawn_again(tmp_path, warm_cache):
    whole = AssetCache(warm_cache).figure_path("logit-variance", "en", "dark").read_bytes()

    def remove(cache):
        cache.figure_path("logit-variance", "en", "dark").unlink()
        return cache.figure_dir("logit-variance")

    site, _ = _damaged_build(tmp_path, warm_cache, remove)
    assert (site / "en" / "figures" / "logit-variance.dark.svg").read_bytes() == whole


@pytest.mark.site
def test_garbage_numbers_are_computed_again(tmp_path, warm_cache):
    numbers = json.loads(AssetCache(warm_cache).numbers_path.read_text(encoding="utf-8"))

    def garble(cache):
        cache.numbers_path.write_text('{"std.measured.d1024": "4', encoding="utf-8")
        return cache.data_dir

    site, cache = _damaged_build(tmp_path, warm_cache, garble)
    assert cache.load_numbers() == numbers
    assert numbers["std.measured.d1024"] in (site / "index.html").read_text(encoding="utf-8")
