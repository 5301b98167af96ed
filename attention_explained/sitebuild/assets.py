"""The asset step: ``python -m attention_explained assets build``, with no MkDocs.

It makes every stale asset of the current code in this process, into the content-addressed
cache (:mod:`~attention_explained.sitebuild._internal.cache`, keys from
:mod:`~attention_explained.sitebuild.keys`): each figure's data here (TensorFlow, imported
once) and its drawing in a pool of spawned matplotlib processes, the numbers and the
explorer's reference values (``compute.make_data``), then the claims' verdicts over them
(``claims.cached_verdicts``). Nothing here imports MkDocs (``tests/test_sitebuild_assets.py``
checks ``sys.modules``); the site build only reads what this step wrote. It
also executes the notebooks (``notebooks.NotebookRunner``: one kernel, in the background
while the figures are made; one execution serves every language whose code is the same),
each into the cache under a key of its code and its source, written whole or not at all; a
failing cell stops the step with the notebook's name and the cell's error.

Then it writes the manifest, ``<cache>/manifest.json``, atomically: each asset's key and
path (relative to the cache folder), per language the numbers file and the figure files,
and what this run computed (``computed``: nothing when everything was fresh). Readers:
:mod:`~attention_explained.sitebuild.markdown_numbers` (``{{ae:…}}`` while the Markdown is
rendered, under any engine) and the MkDocs plugin, which renders from finished assets when
the manifest matches its own keys (:func:`manifest_fresh`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from attention_explained.settings import LANGS
from attention_explained.sitebuild._internal.cache import AssetCache
from attention_explained.sitebuild._internal.notebooks import (
    NOTEBOOK_GLOBS,
    NOTEBOOK_TIMEOUT,
    NotebookError,
    executed_paths,
    notebook_sources,
)
from attention_explained.sitebuild._internal.storage import entry_ok
from attention_explained.sitebuild.keys import ImportGraph, memo_path

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "MANIFEST",
    "NOTEBOOK_GLOBS",
    "NOTEBOOK_TIMEOUT",
    "NotebookError",
    "asset_step_command",
    "build_assets",
    "default_cache_dir",
    "expected_notebooks",
    "manifest_fresh",
    "manifest_path",
    "read_manifest",
    "wait_for_watcher",
    "watch",
    "watcher_pending",
]

MANIFEST = "manifest.json"
FORMAT = 1
THEMES = ("light", "dark")
CACHE_ENV = "ATTENTION_EXPLAINED_CACHE"  # mkdocs.yml reads the same variable

log = logging.getLogger("attention_explained.assets")


def asset_step_command(
    cache_root: Path,
    *,
    docs_dir: Path | None = None,
    notebooks=NOTEBOOK_GLOBS,
    notebook_timeout: int = NOTEBOOK_TIMEOUT,
    jobs: int = 2,
    figures: bool = True,
) -> list[str]:
    """The command line of this step (``python -m attention_explained assets build``) for
    these arguments: what the site build runs when it finds the assets stale."""
    command = [sys.executable, "-m", "attention_explained", "assets", "build"]
    command += ["--cache-dir", str(cache_root), "--jobs", str(jobs)]
    command += ["--notebook-timeout", str(notebook_timeout)]
    if not figures:  # a site that shows none (the plugin's figures: false)
        command.append("--no-figures")
    if docs_dir is None or not notebooks:
        return [*command, "--no-notebooks"]
    command += ["--docs", str(docs_dir)]
    for pattern in notebooks:
        command += ["--notebooks", pattern]
    return command


def default_cache_dir() -> Path:
    """``$ATTENTION_EXPLAINED_CACHE`` or ``.cache``: what mkdocs.yml gives the plugin."""
    return Path(os.environ.get(CACHE_ENV) or ".cache")


def manifest_path(cache_root: Path) -> Path:
    return Path(cache_root) / MANIFEST


def open_cache(cache_root: Path) -> AssetCache:
    """The cache of the code as it is now (keys read from the sources, nothing imported)."""
    cache_root = Path(cache_root).resolve()
    return AssetCache(cache_root, ImportGraph(memo=memo_path(cache_root)))


def current_keys(cache: AssetCache) -> dict:
    """Every key the manifest records: the numbers', the verdicts' and each figure's."""
    return {
        "data": cache.graph.data_key(),
        "claims": cache.graph.claims_key(),
        "figures": cache.keys,
    }


def expected_notebooks(cache: AssetCache, docs_dir: Path, patterns) -> dict[str, Path]:
    """Each notebook under ``docs_dir`` that ``patterns`` match (relative to docs/) → where
    its executed ``.ipynb`` of the current code and source is in ``cache``, whether or not
    it exists yet: what :func:`manifest_fresh` checks and the site build reads."""
    docs_dir = Path(docs_dir).resolve()
    sources = notebook_sources(docs_dir, patterns)
    paths = executed_paths(sources, cache.root, cache.graph)
    return {src.relative_to(docs_dir).as_posix(): path for src, path in paths.items()}


def figure_files(cache: AssetCache, figure_id: str, lang: str) -> dict[str, Path]:
    """The files of ``figure_id`` in ``lang``: ``<theme>`` and ``<theme>.narrow`` SVGs, and
    ``card`` (the PNG a shared link previews)."""
    layouts = ("wide", "narrow") if cache.graph.has_narrow(figure_id) else ("wide",)
    files = {
        f"{theme}{'' if layout == 'wide' else '.narrow'}": cache.figure_path(
            figure_id, lang, theme, layout=layout
        )
        for layout in layouts
        for theme in THEMES
    }
    files["card"] = cache.card_path(figure_id, lang)
    return files


def manifest(cache: AssetCache, computed: dict, notebooks: dict[str, Path] | None = None) -> dict:
    """The manifest of the assets in ``cache`` (every one of them must be whole);
    ``notebooks``: each notebook's source, relative to docs/, → its executed ``.ipynb``."""
    root = cache.root

    def rel(path: Path) -> str:
        return Path(path).relative_to(root).as_posix()

    keys = current_keys(cache)
    return {
        "format": FORMAT,
        "keys": keys,
        "numbers": rel(cache.numbers_path),
        "values": rel(cache.values_path),
        "explorer": rel(cache.explorer_path),
        "claims": rel(cache.claims_path),
        "figures": {i: rel(cache.figure_dir(i)) for i in cache.figure_ids},
        "languages": {
            lang: {
                "numbers": rel(cache.numbers_path),  # one file: numbers print alike in each
                "figures": {
                    i: {kind: rel(p) for kind, p in figure_files(cache, i, lang).items()}
                    for i in cache.figure_ids
                },
            }
            for lang in LANGS
        },
        "notebooks": {src: rel(path) for src, path in sorted((notebooks or {}).items())},
        "computed": computed,
    }


def write_manifest(cache_root: Path, value: dict) -> Path:
    """Write the manifest atomically (a reader sees the old one or the new one, whole)."""
    from attention_explained.figures.render import write_atomic

    path = manifest_path(cache_root)
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    write_atomic(path, text.encode("utf-8"))
    return path


def read_manifest(cache_root: Path) -> dict | None:
    """The manifest, or None if there is none (or it is not this format's JSON)."""
    try:
        value = json.loads(manifest_path(cache_root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) and value.get("format") == FORMAT else None


def manifest_fresh(
    cache: AssetCache, *, figures: bool = True, notebooks: dict[str, Path] | None = None
) -> bool:
    """True if the manifest records this code's keys and every asset it names is whole:
    a build can read the numbers, verdicts (and, with ``figures``, every figure) now.
    ``notebooks`` (source relative to docs/ → where its executed ``.ipynb`` of the current
    code and source must be, ``notebooks.executed_paths``): each must be recorded there,
    and whole."""
    recorded = read_manifest(cache.root)
    if recorded is None:
        return False
    executed = recorded.get("notebooks", {})
    for src, path in (notebooks or {}).items():
        if executed.get(src) != Path(path).relative_to(cache.root).as_posix():
            return False
        if not entry_ok(Path(path).parent):
            return False
    keys = current_keys(cache)
    if recorded["keys"]["data"] != keys["data"] or recorded["keys"]["claims"] != keys["claims"]:
        return False
    if not (entry_ok(cache.data_dir) and entry_ok(cache.claims_dir)):
        return False
    if figures:
        if recorded["keys"]["figures"] != keys["figures"]:
            return False
        return not cache.stale_figures()
    return True


def build_assets(
    cache_root: Path,
    *,
    jobs: int = 2,
    report=print,
    docs_dir: Path | None = None,
    notebooks=NOTEBOOK_GLOBS,
    notebook_timeout: int = NOTEBOOK_TIMEOUT,
    figures: bool = True,
) -> dict:
    """Make whatever is stale, write the manifest; return it. ``report`` gets progress lines.
    The notebooks are the jupytext pages under ``docs_dir`` that the globs ``notebooks``
    match (none without ``docs_dir``); a failing one raises ``notebooks.NotebookError``,
    which names it, and no manifest is written. ``figures=False`` draws no figure (a site
    that shows none; its manifest is fresh only for ``manifest_fresh(..., figures=False)``)."""
    Path(cache_root).mkdir(parents=True, exist_ok=True)
    with _one_at_a_time(Path(cache_root)):  # the watcher and a build may both start one
        return _build_assets(
            cache_root, jobs, report, docs_dir, notebooks, notebook_timeout, figures
        )


@contextlib.contextmanager
def _one_at_a_time(cache_root: Path):
    """Hold ``<cache>/assets.lock``: a second asset step waits, then finds everything made."""
    import fcntl

    with open(cache_root / "assets.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def _build_assets(
    cache_root, jobs, report, docs_dir, notebooks, notebook_timeout, figures=True
) -> dict:
    cache = open_cache(cache_root)
    start = time.perf_counter()
    stale = cache.stale_figures() if figures else []
    data_stale = cache.data_stale()
    claims_stale = cache.load_cached_claims() is None
    docs_dir = Path(docs_dir).resolve() if docs_dir is not None else None
    sources = notebook_sources(docs_dir, notebooks) if docs_dir is not None else []
    report(
        f"assets: {len(stale)} of {len(cache.figure_ids)} figures stale, numbers "
        f"{'stale' if data_stale else 'cached'}, claims {'stale' if claims_stale else 'cached'}"
        f", {len(sources)} notebooks"
    )
    runner = None
    if sources:
        from attention_explained.sitebuild._internal.notebooks import NotebookRunner

        runner = NotebookRunner(sources, cache.root, timeout=notebook_timeout, graph=cache.graph)
        runner.start()  # one kernel in the background, while the figures are made
    try:
        if stale or data_stale:
            _compute(cache, stale, data_stale, jobs, report)
        executed = {}
        for source in sources:
            executed[source.relative_to(docs_dir).as_posix()] = runner.wait(source)
        ran = [s.relative_to(docs_dir).as_posix() for s in runner.executed] if runner else []
        if ran:
            report(f"assets: notebooks executed: {', '.join(ran)}")
    finally:
        if runner is not None:
            runner.close()
    if claims_stale:
        from attention_explained.sitebuild._internal.claims import cached_verdicts

        verdicts = cached_verdicts(cache)  # judged in a fresh Python, then cached
        failing = sorted(name for name, v in verdicts.items() if not v["holds"])
        if failing:
            report(f"assets: claims that do not hold: {', '.join(failing)}")
    computed = {"figures": stale, "data": data_stale, "claims": claims_stale, "notebooks": ran}
    value = manifest(cache, computed, executed)
    path = write_manifest(cache.root, value)
    report(f"assets: wrote {path} in {time.perf_counter() - start:.1f} s")
    return value


def _compute(cache: AssetCache, stale: list[str], data_stale: bool, jobs: int, report) -> None:
    """Figures' data here, their drawing in the pool, the numbers last; each asset installed
    into the cache as soon as it is whole."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from importlib import import_module

    from attention_explained.figures.registry import get, module_name
    from attention_explained.sitebuild._internal import compute

    cache.root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="assets-", dir=cache.root))
    fingerprints = cache.graph.fingerprints()
    pool = None
    try:
        pool = compute.take_standby_pool(max(1, jobs))  # started by a watcher's standby
        if stale and pool is None:
            pool = ProcessPoolExecutor(
                max_workers=max(1, jobs),
                mp_context=multiprocessing.get_context("spawn"),  # never fork TensorFlow
                initializer=compute.warm_up,
                initargs=(fingerprints,),
            )
        # The stage lines (compute.emit) go to stderr: stdout is this command's. The grid
        # experiments come from the cache when their own code has not changed.
        with contextlib.redirect_stdout(sys.stderr), _keeping(cache):
            compute.import_tensorflow()
            drawings = {}
            # A figure or two (an edit while serving): each language in its own process.
            parts = [(lang,) for lang in LANGS] if 0 < len(stale) < max(1, jobs) else [None]
            for figure_id in stale:
                import_module(module_name(figure_id))
                data = compute.timed_data(figure_id, get(figure_id).data)
                out = str(compute.scratch_figure(scratch, figure_id))
                drawings[figure_id] = [
                    pool.submit(compute.draw_figure, figure_id, data, out, fingerprints, langs)
                    for langs in parts
                ]
            if data_stale:
                compute.make_data(compute.scratch_data(scratch))
                cache.install_data(compute.scratch_data(scratch))
                report("assets: numbers computed")
        failures = []
        for figure_id, futures in drawings.items() if stale else ():
            try:
                for future in futures:
                    future.result()
            except Exception as exc:
                failures.append(f"figure {figure_id}:\n{''.join(traceback.format_exception(exc))}")
                continue
            cache.install_figure(figure_id, compute.scratch_figure(scratch, figure_id))
            report(f"assets: figure {figure_id} drawn")
        if failures:
            raise RuntimeError("building the assets failed\n" + "\n".join(failures))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        shutil.rmtree(scratch, ignore_errors=True)


@contextlib.contextmanager
def _keeping(cache: AssetCache):
    """``content.data`` keeps its grid experiments in ``cache`` for the block
    (``_internal.experiments``)."""
    from attention_explained.content import data
    from attention_explained.sitebuild._internal.experiments import ExperimentStore

    data.KEEPER = ExperimentStore(cache.root, cache.graph)
    try:
        yield
    finally:
        data.KEEPER = None


def sources_signature(docs_dir: Path | None, notebooks=NOTEBOOK_GLOBS) -> tuple:
    """What the assets are made from, as it stands on disk: each package source file and each
    notebook source (path, modification time, size). A change in it may change a key."""
    from attention_explained.sitebuild.keys import PACKAGE_DIR

    files = sorted(p for p in PACKAGE_DIR.rglob("*.py") if "__pycache__" not in p.parts)
    if docs_dir is not None:
        files += notebook_sources(Path(docs_dir), notebooks)
    signature = []
    for path in files:
        with contextlib.suppress(OSError):  # deleted meanwhile: the next look sees it
            stat = path.stat()
            signature.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(signature)


WATCHER_LOCK = "watcher.lock"  # held by a running watch for its whole life
WATCHER_STATE = "watcher.json"  # what it last saw and whether its run of it is over


def signature_digest(signature: tuple) -> str:
    return hashlib.sha256(repr(signature).encode("utf-8")).hexdigest()[:16]


def _held(lock_path: Path) -> bool:
    """True if another open file holds ``lock_path``'s lock (a live watcher)."""
    import fcntl

    try:
        with open(lock_path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
            return False
    except OSError:
        return False


def watcher_pending(cache_root: Path) -> bool:
    """True while a live ``assets watch`` on this cache has not finished its run of the
    sources as they are on disk now: a build should wait for that run rather than start its
    own (``make serve``'s rebuild after an edit; it then finds the assets made)."""
    cache_root = Path(cache_root)
    try:
        state = json.loads((cache_root / WATCHER_STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    from attention_explained.sitebuild.keys import PACKAGE_DIR

    if state.get("package") != str(PACKAGE_DIR):
        return False  # it watches another copy of the package: not this build's sources
    if not _held(cache_root / WATCHER_LOCK):
        return False  # no watcher, or it died: its state is history
    if state.get("running"):
        return True
    docs = Path(state["docs"]) if state.get("docs") else None
    now = sources_signature(docs, tuple(state.get("notebooks", ())))
    return state.get("signature") != signature_digest(now)


def wait_for_watcher(cache_root: Path, *, timeout: float, interval: float = 0.05) -> bool:
    """Wait (at most ``timeout`` seconds) while :func:`watcher_pending`; True if it waited."""
    deadline = time.monotonic() + timeout
    waited = False
    while watcher_pending(cache_root) and time.monotonic() < deadline:
        waited = True
        time.sleep(interval)
    return waited


class Standby:
    """The next asset step, warm (``_internal/standby.py``): TensorFlow imported and the
    drawing processes started while the author edits; :meth:`run` starts the step in it."""

    def __init__(self, command: list[str]):
        import subprocess

        from attention_explained.sitebuild._internal.compute import die_with_parent

        options = command[command.index("build") + 1 :]
        self.cold = command
        self.result, result_w = os.pipe()  # its exit code, before its teardown
        self.process = subprocess.Popen(
            [sys.executable, "-m", "attention_explained.sitebuild._internal.standby",
             str(result_w), *options],
            stdin=subprocess.PIPE, text=True, pass_fds=(result_w,),
            preexec_fn=die_with_parent if sys.platform == "linux" else None,
        )  # fmt: skip
        os.close(result_w)

    def run(self) -> int:
        """The asset step's exit code: run in the standby, or afresh if the standby died."""
        import subprocess

        from attention_explained.sitebuild._internal.compute import die_with_parent

        if self.process.poll() is None:
            try:
                self.process.stdin.write("go\n")
                self.process.stdin.close()
            except BrokenPipeError:  # it died just now
                self.process.wait()
            else:
                with os.fdopen(self._take_result(), "rb") as result:
                    code = result.read().strip()  # written, or the end: it exited
                return int(code) if code else self.process.wait()
        os.close(self._take_result())
        result = subprocess.run(
            self.cold, check=False, preexec_fn=die_with_parent if sys.platform == "linux" else None
        )
        return result.returncode

    def _take_result(self) -> int:
        """The result pipe's descriptor, closed by the caller, once (a number closed twice
        could by then be another file's)."""
        fd, self.result = self.result, None
        return fd

    def close(self) -> None:
        """End it (if it still waits) and wait for its exit."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()  # end of input: a waiting standby ends without a run
        if self.result is not None:
            os.close(self._take_result())
        try:
            self.process.wait(timeout=30)
        except Exception:
            self.process.kill()
            self.process.wait()


def watch(
    cache_root: Path,
    *,
    docs_dir: Path | None = None,
    notebooks=NOTEBOOK_GLOBS,
    notebook_timeout: int = NOTEBOOK_TIMEOUT,
    jobs: int = 2,
    report=print,
    interval: float = 0.1,
    stop=None,
    figures: bool = True,
) -> None:
    """Run the asset step now, and again whenever a package source or a notebook changes
    (looked at every ``interval`` seconds), until ``stop`` (a ``threading.Event``) is set.

    Each run is ``python -m attention_explained assets build``, run in a :class:`Standby`
    started after the run before (TensorFlow imported, drawing processes up), so it imports
    the package as it is on disk at the run, not at the standby's start; it rewrites the
    manifest atomically. While it lives the watch holds ``<cache>/watcher.lock`` and keeps
    ``<cache>/watcher.json`` (the sources it last saw, whether its run of them is over): a
    site build that finds the assets stale waits for that run (:func:`watcher_pending`)
    instead of making them again. A failing run is reported and the watch goes on: the next
    change runs it again. A run ends with the watch (Linux: SIGTERM when this process dies)."""
    import fcntl

    from attention_explained.figures.render import write_atomic

    cache_root = Path(cache_root)
    cache_root.mkdir(parents=True, exist_ok=True)
    docs_dir = Path(docs_dir).resolve() if docs_dir is not None else None  # as builds see it
    command = asset_step_command(
        cache_root,
        docs_dir=docs_dir,
        notebooks=notebooks,
        notebook_timeout=notebook_timeout,
        jobs=jobs,
        figures=figures,
    )
    lock = open(cache_root / WATCHER_LOCK, "a")  # noqa: SIM115  (held until the watch ends)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise SystemExit(f"assets watch: another watch is running on {cache_root}") from None
    seen = None
    from attention_explained.sitebuild.keys import PACKAGE_DIR

    where = {"package": str(PACKAGE_DIR), "docs": str(docs_dir) if docs_dir else None}
    where["notebooks"] = list(notebooks) if docs_dir else []

    def state(signature, running: bool) -> None:
        value = dict(where, signature=signature_digest(signature), running=running)
        write_atomic(cache_root / WATCHER_STATE, json.dumps(value).encode("utf-8"))

    standby = Standby(command)
    try:
        while stop is None or not stop.is_set():
            now = sources_signature(docs_dir, notebooks)
            if now != seen:
                seen = now
                state(now, running=True)
                returncode = standby.run()
                state(now, running=False)
                previous, standby = standby, Standby(command)
                previous.close()  # its teardown, while the next one warms up
                if returncode != 0:
                    report("assets: the asset step failed; watching for the next change")
                else:
                    report("assets: up to date; watching for changes")
            if stop is not None:
                stop.wait(interval)
            else:
                time.sleep(interval)
    finally:
        standby.close()
        lock.close()
