"""Execute jupytext Markdown notebooks once per code version, shared between languages.

The Korean and English versions of a notebook differ only in their Markdown cells, so the
cache key is the code cells (plus the package's source, which they import). One execution
serves both languages; its outputs are merged into each language's notebook.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from attention_explained.assets import _hash, package_source_key


class NotebookError(RuntimeError):
    """A notebook cell raised; the message names the notebook, the cell and the error."""


def _read(path: Path):
    import jupytext

    return jupytext.read(path)


def code_key(notebook, package_key: str) -> str:
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    kernel = notebook.metadata.get("kernelspec", {}).get("name", "python3")
    return _hash(kernel, package_key, *code)


def stem(path: Path) -> str:
    """``heatmaps.en.md`` → ``heatmaps``: the download name is the same in every language."""
    name = path.name.removesuffix(".md")
    head, _, suffix = name.rpartition(".")
    return head if head and len(suffix) == 2 else name


def _execute(notebook, source: Path, timeout: int):
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    with tempfile.TemporaryDirectory(prefix="nb-") as workdir:
        client = NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name=notebook.metadata.get("kernelspec", {}).get("name", "python3"),
            allow_errors=False,
            resources={"metadata": {"path": workdir}},
            # The kernel's own start-up chatter (e.g. the loopback TCP notice) is not the
            # reader's concern; its errors still reach the terminal.
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
        )
        try:
            client.execute()
        except CellExecutionError as exc:
            raise NotebookError(f"notebook {source} failed:\n{exc}") from exc
        except Exception as exc:
            raise NotebookError(f"notebook {source} could not be executed: {exc!r}") from exc
    return notebook


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
    """Executes stale notebooks in background threads (each runs a kernel subprocess)."""

    def __init__(self, sources: list[Path], cache_root: Path, *, timeout: int = 300, jobs: int = 2):
        # Kernels inherit this: quiet TensorFlow's C++ banners even if a notebook imports
        # keras before attention_explained. A value the user set wins.
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        self.cache_root = Path(cache_root) / "notebooks"
        self.timeout = timeout
        package_key = package_source_key()
        self.notebooks = {src: _read(src) for src in sources}
        self.keys = {src: code_key(nb, package_key) for src, nb in self.notebooks.items()}
        self._pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="notebook")
        self._runs: dict[str, Future] = {}
        self._lock = threading.Lock()
        self.executed: list[Path] = []

    def output_path(self, source: Path) -> Path:
        """Where the executed ``.ipynb`` for ``source`` lives (known before it exists)."""
        lang_key = _hash(self.keys[source], source.read_bytes())
        return self.cache_root / lang_key / f"{stem(source)}.ipynb"

    def start(self) -> None:
        for source in self.notebooks:
            if self.output_path(source).is_file():
                continue
            key = self.keys[source]
            with self._lock:
                if key not in self._runs:  # the other language with the same code shares it
                    nb = copy.deepcopy(self.notebooks[source])
                    self._runs[key] = self._pool.submit(_execute, nb, source, self.timeout)
                    self.executed.append(source)

    def wait(self, source: Path) -> Path:
        """Block until ``source``'s executed notebook is on disk; NotebookError if it failed."""
        import nbformat

        path = self.output_path(source)
        if path.is_file():
            return path
        self.start()
        executed = self._runs[self.keys[source]].result()
        merged = _merge_outputs(self.notebooks[source], executed)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            nbformat.write(merged, out)
        os.replace(tmp, path)
        return path

    def close(self) -> None:
        """Stop waiting work and drop cached notebooks that no current source maps to."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        current = {self.output_path(source).parent for source in self.notebooks}
        if self.cache_root.is_dir():
            for folder in self.cache_root.iterdir():
                if folder.is_dir() and folder not in current:
                    shutil.rmtree(folder, ignore_errors=True)
