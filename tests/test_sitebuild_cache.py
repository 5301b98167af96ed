"""The cache checks every entry when it reads it: a damaged one is rebuilt, named, never served."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from site_build import build, listing, make_site, notebook

from attention_explained.sitebuild._internal.cache import AssetCache
from attention_explained.sitebuild._internal.notebooks import NotebookRunner
from attention_explained.sitebuild._internal.storage import (
    MANIFEST,
    STALE_AFTER,
    WorkingCopy,
    entry_ok,
    entry_problem,
    read_file,
    read_json,
    write_entry,
    write_file,
    write_json,
)


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


# -- a tool that writes its cache in place works on a private copy (mkdocs-jupyter) ------------
def test_a_working_copy_holds_only_whole_pages(tmp_path, warnings_):
    shared = tmp_path / "notebook-pages" / "ko"
    write_file(shared / "a.json", b'{"content": "<p>a</p>"}')
    write_file(shared / "b.json", b'{"content": "<p>b</p>"}')
    (shared / "b.json").write_bytes((shared / "b.json").read_bytes()[:-4])  # truncated
    (shared / "c.json").write_text('{"content": "<p', "utf-8")  # written in place, unchecked
    copy = WorkingCopy(shared)
    assert sorted(p.name for p in copy.folder.iterdir()) == ["a.json"]
    assert (copy.folder / "a.json").read_bytes() == b'{"content": "<p>a</p>"}', (
        "raw, as the tool reads it"
    )
    messages = [r.getMessage() for r in warnings_.records]
    assert str(shared / "b.json") in messages[0] and "does not match" in messages[0]
    assert str(shared / "c.json") in messages[1] and "no SHA-256 header" in messages[1]
    copy.close()
    assert not copy.folder.exists()


def test_a_working_copy_installs_what_the_tool_wrote_and_only_that(tmp_path, warnings_):
    shared = tmp_path / "notebook-pages" / "en"
    write_file(shared / "kept.json", b"{}")
    write_file(shared / "unused.json", b"[]")
    kept = (shared / "kept.json").stat()
    copy = WorkingCopy(shared)
    (copy.folder / "new.json").write_bytes(b'{"content": "new"}')  # the tool renders a page
    (copy.folder / "unused.json").unlink()  # and evicts one this build did not use
    assert not (shared / "new.json").exists(), "nothing reaches the cache before install()"
    assert copy.install() == [shared / "kept.json", shared / "new.json"]
    assert read_file(shared / "new.json") == b'{"content": "new"}'
    again = (shared / "kept.json").stat()
    assert (again.st_ino, again.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns), "not rewritten"
    assert read_file(shared / "unused.json") == b"[]", "another build may still use it"
    assert not copy.folder.exists()
    day_old = time.time() - STALE_AFTER - 60
    os.utime(shared / "unused.json", (day_old, day_old))
    later = WorkingCopy(shared)
    (later.folder / "unused.json").unlink()
    later.install()
    assert not (shared / "unused.json").exists(), "unused for a day: removed"
    assert not warnings_.records


def test_a_page_one_build_is_still_writing_is_invisible_to_another(tmp_path, warnings_):
    shared = tmp_path / "notebook-pages" / "ko"
    whole = b'{"content": "<p>x</p>", "toc_tokens": [], "title": null}'
    first = WorkingCopy(shared)
    (first.folder / "p.json").write_bytes(whole[:9])  # mkdocs-jupyter, half-way through
    second = WorkingCopy(shared)
    assert not (second.folder / "p.json").exists(), "the second build renders it itself"
    (second.folder / "p.json").write_bytes(whole)
    second.install()
    (first.folder / "p.json").write_bytes(whole)
    first.install()
    assert read_file(shared / "p.json") == whole
    assert not warnings_.records


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
    from attention_explained.sitebuild._internal.css import pruned_css

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


# -- two builds at once on one cache: each write into it is atomic, each entry sealed when final --
# Runs `mkdocs build` with an audit hook (PEP 578) that logs every file the build process opens
# for writing and every rename, in order: how a test sees *how* a file was written.
AUDITED_BUILD = """
import atexit, json, os, sys

log, events = os.environ.pop("AE_AUDIT_LOG"), []


def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path, mode, flags = args
        by_flags = mode is None and flags & (os.O_WRONLY | os.O_RDWR)  # os.open
        if by_flags or any(c in (mode or "") for c in "wax+"):
            events.append(["write", os.path.abspath(os.fsdecode(path))])
    elif event == "os.rename":  # os.rename and os.replace
        events.append(["rename", *(os.path.abspath(os.fsdecode(p)) for p in args[:2])])


def dump():
    done = events[:]
    with open(log, "w", encoding="utf-8") as out:
        json.dump(done, out)


atexit.register(dump)
sys.addaudithook(hook)
sys.argv[0] = "mkdocs"
from mkdocs.__main__ import cli

cli()
"""
# The Colab cell's commit, and the build date (the fixture is no git checkout): fixed, so
# that two builds write the same bytes.
BUILD_ENV = {
    "NO_MKDOCS_2_WARNING": "1",
    "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
    "SOURCE_DATE_EPOCH": "1780000000",
}


def notebook_site(root, cache_dir):
    """The fixture site with one notebook in each language, offered for download (as the real
    site: include_source) with its Colab install cell (repo_url)."""
    root = make_site(root, cache_dir, **{"notebooks: []": "notebooks: [notebooks/*.md]"})
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    config = "repo_url: https://github.com/example/fixture\n" + config.replace(
        "nav:\n  - index.md",
        "  - mkdocs-jupyter:\n      execute: false\n      allow_errors: false\n"
        "      include_source: true\nnav:\n  - index.md\n  - notebooks/demo.md",
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    (root / "docs/notebooks").mkdir()
    notebook(root / "docs/notebooks", "demo.md", "데모", "print(6 * 7)")
    notebook(root / "docs/notebooks", "demo.en.md", "Demo", "print(6 * 7)")
    return root


def start_audited_build(root, driver, log, output):
    """``mkdocs build --strict`` in ``root``, its file events into ``log``, its log into
    ``output`` (a file, not a pipe: nothing waits on a reader)."""
    env = dict(os.environ, **BUILD_ENV, AE_AUDIT_LOG=str(log))
    with open(output, "w", encoding="utf-8") as out:
        return subprocess.Popen(
            [sys.executable, str(driver), "build", "--strict"],
            cwd=root,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


@pytest.fixture(scope="module")
def builds_at_once(tmp_path_factory, warm_cache):
    """Two builds started together on one cache whose notebooks and rendered notebook pages
    are cold (the figures and numbers are warm: the fixture builds them once per session)."""
    base = tmp_path_factory.mktemp("at-once")
    cache_dir = base / "cache"
    shutil.copytree(warm_cache, cache_dir)
    for cold in ("notebooks", "notebook-pages"):  # whatever other tests left in the session's
        shutil.rmtree(cache_dir / cold, ignore_errors=True)
    driver = base / "audited_build.py"
    driver.write_text(AUDITED_BUILD, encoding="utf-8")
    names = ("a", "b")
    roots = [notebook_site(base / name, cache_dir) for name in names]
    builds = [
        start_audited_build(root, driver, base / f"{name}.json", base / f"{name}.log")
        for root, name in zip(roots, names, strict=True)
    ]
    codes = [b.wait(timeout=900) for b in builds]  # a deadline far above the minute it takes
    outputs = [(base / f"{name}.log").read_text(encoding="utf-8") for name in names]
    for code, output in zip(codes, outputs, strict=True):
        assert code == 0, output[-4000:]
    events = [
        [[kind, *map(normal, paths)] for kind, *paths in json.loads(log.read_text("utf-8"))]
        for log in (base / f"{name}.json" for name in names)
    ]
    return cache_dir, [r / "site" for r in roots], events, outputs


def normal(path) -> str:
    return os.path.realpath(path)


def written_in_place(events, folder) -> list[str]:
    """Files under ``folder`` that were opened for writing and not renamed afterwards, nor
    was any folder holding them: a reader could have seen them half-written."""
    folder = normal(folder) + os.sep
    found = set()
    for at, (kind, path, *_) in enumerate(events):
        # tempfile.NamedTemporaryFile (jinja's bytecode cache) opens its folder, with an
        # opener that makes the temporary file: that folder is no file a reader reads.
        if kind == "write" and path.startswith(folder) and not Path(path).is_dir():
            renamed = any(
                kind == "rename" and (path == source or path.startswith(source + os.sep))
                for kind, source, *_ in events[at + 1 :]
            )
            if not renamed:
                found.add(path)
    return sorted(found)


@pytest.mark.site
def test_two_builds_at_once_on_one_cache_both_succeed_and_agree(builds_at_once):
    _, (first, second), _, logs = builds_at_once
    assert listing(first) == listing(second)
    differ = [
        name
        for name in listing(first)
        if (first / name).is_file() and (first / name).read_bytes() != (second / name).read_bytes()
    ]
    assert differ == [], f"files that differ between two builds at once: {differ}"
    assert (first / "notebooks" / "demo" / "demo.ipynb").is_file()
    assert all("Traceback" not in log and "damaged" not in log for log in logs)


@pytest.mark.site
def test_a_build_writes_into_the_cache_only_by_renaming(builds_at_once):
    """mkdocs-jupyter writes its rendered pages in place: it must do so outside the cache."""
    cache_dir, sites, events, _ = builds_at_once
    for site, log in zip(sites, events, strict=True):
        # The log sees the build's writes: the pages it writes, what it installs in the cache.
        assert [e for e in log if e[0] == "write" and e[1] == normal(site / "index.html")]
        assert [e for e in log if e[0] == "rename" and e[2].startswith(normal(cache_dir))]
        assert written_in_place(log, cache_dir) == []


@pytest.mark.site
def test_the_published_notebook_is_replaced_whole_and_its_cache_entry_never(builds_at_once):
    """The Colab cell goes into the site's .ipynb by a rename; the executed notebook in the
    cache, which that copy is made from, still matches the SHA-256 its entry was sealed with."""
    cache_dir, sites, events, _ = builds_at_once
    for site, log in zip(sites, events, strict=True):
        for lang in ("", "en/"):
            target = normal(site / f"{lang}notebooks/demo/demo.ipynb")
            touching = [e[0] for e in log if e[-1] == target]  # written, or renamed to
            assert touching and touching[-1] == "rename", (target, touching)
            published = json.loads(Path(target).read_text(encoding="utf-8"))
            assert published["cells"][0]["id"] == "colab-install"
    entries = sorted((cache_dir / "notebooks").glob("*/demo.ipynb"))
    assert len(entries) == 2, "one executed notebook per language"
    for entry in entries:
        assert entry_problem(entry.parent) is None
        cells = json.loads(entry.read_text(encoding="utf-8"))["cells"]
        assert all(cell.get("id") != "colab-install" for cell in cells)


@pytest.mark.site
def test_after_builds_at_once_every_entry_is_whole_and_serves_the_next(builds_at_once, tmp_path):
    cache_dir, (first, _), _, _ = builds_at_once
    folders = sorted(m.parent for m in cache_dir.rglob(MANIFEST))
    assert folders and [(f, entry_problem(f)) for f in folders if entry_problem(f)] == []
    pages = sorted((cache_dir / "notebook-pages").glob("*/*.json"))
    assert [p.parent.name for p in pages] == ["en", "ko"], "one rendered page per language"
    assert all(read_file(p) is not None for p in pages)
    root = notebook_site(tmp_path / "c", cache_dir)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        env=dict(os.environ, **BUILD_ENV),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stderr.count("Cache hit:") == 2, "each language's page from the cache"
    assert "Cache miss" not in result.stderr and "damaged" not in result.stderr
    assert listing(root / "site") == listing(first)
    for name in listing(first):
        if (first / name).is_file():
            assert (root / "site" / name).read_bytes() == (first / name).read_bytes(), name
