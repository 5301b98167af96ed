"""Execute jupytext Markdown notebooks once per code version, shared between languages.

The Korean and English versions of a notebook differ only in their Markdown cells, so the
cache key is the code cells plus the package modules they import (``keys.ImportGraph``).
One execution serves both languages; its outputs are merged into each language's notebook.
"""

from __future__ import annotations

import copy
import os
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from attention_explained.sitebuild._internal.storage import entry_ok, prune, write_entry
from attention_explained.sitebuild.keys import ImportGraph, code_cells, digest


class NotebookError(RuntimeError):
    """A notebook cell raised; the message names the notebook, the cell and the error."""


# Bump when what the build writes into an executed notebook changes (ids, merged streams):
# entries written before it are executed again rather than served with the old form.
FORMAT = "2"

# Which pages are notebooks (globs relative to docs/) and how long a cell may run: the
# plugin's defaults (config.py) and the asset step's (assets.py), spelled once.
NOTEBOOK_GLOBS = ("notebooks/*.md",)
NOTEBOOK_TIMEOUT = 300


def notebook_sources(docs_dir: Path, patterns) -> list[Path]:
    """The jupytext notebooks under ``docs_dir`` that ``patterns`` match, sorted."""
    docs_dir = Path(docs_dir)
    return sorted({p for pattern in patterns for p in docs_dir.glob(pattern) if p.is_file()})


def executed_path(cache_root: Path, source: Path, key: str) -> Path:
    """Where the executed ``.ipynb`` of ``source`` (whose code has ``key``, ``code_key``)
    lives in the cache at ``cache_root``: keyed by the code and by the source's own bytes
    (its language's prose), so it is known before it exists."""
    lang_key = digest(FORMAT, key, Path(source).read_bytes())
    return Path(cache_root) / "notebooks" / lang_key / f"{stem(Path(source))}.ipynb"


def executed_paths(sources, cache_root: Path, graph: ImportGraph) -> dict[Path, Path]:
    """``executed_path`` of each source, with the keys of ``graph`` (the current code)."""
    return {
        src: executed_path(cache_root, src, graph.notebook_key(src.read_text("utf-8")))
        for src in sources
    }


def _read(path: Path):
    """The jupytext notebook with cell ids from each cell's place, not jupytext's random ones
    (they end up in the page's HTML and the .ipynb download: two builds must agree)."""
    import jupytext

    notebook = jupytext.read(path)
    number_cells(notebook)
    return notebook


def number_cells(notebook) -> None:
    """Give each cell the id ``cell-<n>``, by position (nbformat ids: 1-64 of [a-zA-Z0-9-_])."""
    for number, cell in enumerate(notebook.cells, 1):
        cell["id"] = f"cell-{number}"


def coalesce_streams(outputs: list) -> list:
    """Merge each run of adjacent stream outputs of one name (stdout, stderr) into one.

    A kernel flushes a print whenever its buffer timer fires, so one printed block may
    arrive as one stream output in one run and as two in the next (``</pre> <pre>`` in the
    page). Only neighbours are merged: text printed after an image stays after it.
    """
    merged: list = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            output.get("output_type") == "stream"
            and last is not None
            and last.get("output_type") == "stream"
            and last.get("name") == output.get("name")
        ):
            last["text"] = _text(last["text"]) + _text(output["text"])
        else:
            merged.append(copy.deepcopy(output))
    return merged


def _text(text) -> str:
    return "".join(text) if isinstance(text, list) else text


def stem(path: Path) -> str:
    """``heatmaps.en.md`` → ``heatmaps``: the download name is the same in every language."""
    name = path.name.removesuffix(".md")
    head, _, suffix = name.rpartition(".")
    return head if head and len(suffix) == 2 else name


class _KernelSession:
    """One kernel for every notebook of a build: TensorFlow is imported once, not per notebook.

    Each notebook starts with ``%reset -f``, so no variable leaks from one to the next;
    imported modules stay loaded, which is the point.
    """

    def __init__(self, kernel_name: str, timeout: int):
        from jupyter_client.manager import KernelManager

        self.timeout, self.kernel_name = timeout, kernel_name
        self.workdir = tempfile.TemporaryDirectory(prefix="nb-")
        self.km = KernelManager(kernel_name=kernel_name)
        # The kernel's own start-up chatter (e.g. the loopback TCP notice) is not the
        # reader's concern; its errors still reach the terminal.
        self.km.start_kernel(
            cwd=self.workdir.name, extra_arguments=["--IPKernelApp.log_level=ERROR"]
        )
        process = getattr(self.km.provisioner, "process", None)
        if process is not None:  # a local kernel: it yields the CPU to the data
            from attention_explained.sitebuild._internal.compute import background_priority

            background_priority(process.pid)

    def execute(self, notebook, source: Path):
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError

        notebook = copy.deepcopy(notebook)
        notebook.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
        client = NotebookClient(
            notebook,
            km=self.km,
            timeout=self.timeout,
            kernel_name=self.kernel_name,
            allow_errors=False,
            resources={"metadata": {"path": self.workdir.name}},
        )
        try:
            client.execute()
        except CellExecutionError as exc:
            raise NotebookError(f"notebook {source} failed:\n{exc}") from exc
        except Exception as exc:
            raise NotebookError(f"notebook {source} could not be executed: {exc!r}") from exc
        finally:
            if client.kc is not None:
                client.kc.stop_channels()
        notebook.cells.pop(0)
        for number, cell in enumerate((c for c in notebook.cells if c.cell_type == "code"), 1):
            cell.execution_count = number  # as if it had run alone
            cell.outputs = coalesce_streams(cell.get("outputs", []))
            for output in cell.get("outputs", []):
                if "execution_count" in output:
                    output["execution_count"] = number
        return notebook

    def close(self) -> None:
        self.km.shutdown_kernel(now=True)
        self.workdir.cleanup()


def _merge_outputs(target, executed):
    """Copy outputs of ``executed``'s code cells into ``target``'s code cells, in order."""
    merged = copy.deepcopy(target)
    code_out = [c for c in executed.cells if c.cell_type == "code"]
    code_in = [c for c in merged.cells if c.cell_type == "code"]
    for cell, done in zip(code_in, code_out, strict=True):
        cell.outputs, cell.execution_count = done.outputs, done.execution_count
    merged.metadata["language_info"] = executed.metadata.get("language_info", {})
    return merged


class NotebookRunner:
    """Executes stale notebooks in one background kernel while the build goes on."""

    def __init__(
        self,
        sources: list[Path],
        cache_root: Path,
        *,
        timeout: int = 300,
        graph: ImportGraph | None = None,
    ):
        # Kernels inherit this: quiet TensorFlow's C++ banners even if a notebook imports
        # keras before attention_explained. A value the user set wins.
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        self.cache_dir = Path(cache_root)
        self.cache_root = self.cache_dir / "notebooks"
        self.timeout = timeout
        self.sources = list(sources)
        graph = graph or ImportGraph()
        self.keys = {src: graph.notebook_key(src.read_text("utf-8")) for src in self.sources}
        self._parsed: dict[Path, object] = {}
        self._runs: dict[str, Future] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.executed: list[Path] = []
        self.on_stage = None  # callable(name, seconds): kernel start-up and each notebook

    def _stage(self, name: str, start: float) -> None:
        if self.on_stage is not None:
            self.on_stage(name, time.perf_counter() - start)

    def notebook(self, source: Path):
        """The parsed notebook; jupytext runs only when a notebook must be executed."""
        if source not in self._parsed:
            self._parsed[source] = _read(source)
        return self._parsed[source]

    def output_path(self, source: Path) -> Path:
        """Where the executed ``.ipynb`` for ``source`` lives (known before it exists)."""
        return executed_path(self.cache_dir, source, self.keys[source])

    def source_for(self, executed: Path) -> Path | None:
        """The source notebook whose executed ``.ipynb`` is ``executed``, if any."""
        for source in self.sources:
            if self.output_path(source) == executed:
                return source
        return None

    def start(self) -> None:
        if self._thread is not None:
            return
        todo = {}
        for source in self.sources:
            key = self.keys[source]
            if key not in self._runs and not entry_ok(self.output_path(source).parent):
                self._runs[key] = Future()  # the other language with the same code shares it
                todo[key] = source
                self.executed.append(source)
        if todo:
            self._thread = threading.Thread(
                target=self._run, args=(todo,), name="notebooks", daemon=True
            )
            self._thread.start()

    def _run(self, todo: dict[str, Path]) -> None:
        session = None
        try:
            names = {
                self.notebook(src).metadata.get("kernelspec", {}).get("name", "python3")
                for src in todo.values()
            }
            start = time.perf_counter()
            session = _KernelSession(names.pop() if len(names) == 1 else "python3", self.timeout)
            self._stage("notebook-kernel", start)
            for key, source in todo.items():
                if self._stop.is_set():
                    self._runs[key].cancel()
                    continue
                try:
                    start = time.perf_counter()
                    self._runs[key].set_result(session.execute(self.notebook(source), source))
                    self._stage(f"notebook {stem(source)}", start)
                except Exception as exc:
                    self._runs[key].set_exception(exc)
        except Exception as exc:  # the kernel did not start: every waiting notebook fails
            for key in todo:
                if not self._runs[key].done():
                    self._runs[key].set_exception(
                        NotebookError(f"could not start a kernel for the notebooks: {exc!r}")
                    )
        finally:
            if session is not None:
                session.close()

    def wait(self, source: Path) -> Path:
        """Block until ``source``'s executed notebook is on disk; NotebookError if it failed."""
        import nbformat

        path = self.output_path(source)
        if entry_ok(path.parent):  # in the cache, and whole
            return path
        self.start()
        run = self._runs.get(self.keys[source])
        if run is None:  # damaged after start() checked it: execute it here
            run = self._runs[self.keys[source]] = Future()
            self._run({self.keys[source]: source})
        executed = run.result()
        merged = _merge_outputs(self.notebook(source), executed)
        write_entry(path.parent, {path.name: nbformat.writes(merged).encode("utf-8")})
        return path

    def close(self) -> None:
        """Stop pending work and drop day-old notebooks that no current source maps to."""
        self._stop.set()
        prune(self.cache_root, "", *(self.output_path(s).parent for s in self.sources))


def code_key(text: str) -> str:
    """A notebook's key: its code cells, kernel and the package code they import."""
    return ImportGraph().notebook_key(text)


__all__ = [
    "NOTEBOOK_GLOBS",
    "NOTEBOOK_TIMEOUT",
    "NotebookError",
    "NotebookRunner",
    "coalesce_streams",
    "code_cells",
    "code_key",
    "executed_path",
    "executed_paths",
    "notebook_sources",
    "number_cells",
    "stem",
]
