"""Build-time assets (figures, numbers) in a content-addressed cache under ``.cache/``.

Keys come from file contents and package versions only, so deciding what is fresh imports
neither TensorFlow nor matplotlib. Stale assets are made by one worker subprocess
(``python -m attention_explained.worker``), which also sees code edited since the caller
started, as ``mkdocs serve`` needs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import cache
from importlib import metadata
from pathlib import Path

from attention_explained.figures.registry import EXTRA_SOURCES, FIGURE_IDS, module_name
from attention_explained.figures.render import variant_name

PACKAGE_DIR = Path(__file__).resolve().parent
CORE_FILES = (
    "__init__.py",
    "_tf.py",
    "_validate.py",
    "tensors.py",
    "attention.py",
    "stats.py",
)
FIGURE_SHARED_FILES = (
    "figures/__init__.py",
    "figures/registry.py",
    "figures/render.py",
    "figures/style.py",
    "figures/_data.py",
    "figures/_plots.py",
)
DATA_FILES = (
    "quantities.py",
    "claims.py",
    "equivalence.py",
    "explorer.py",
    "training.py",
    "after_training.py",
    "settings.py",
    "figures/_data.py",
)
VERSIONED = ("tensorflow-cpu", "tensorflow", "keras", "numpy", "matplotlib", "koreanize-matplotlib")


@cache
def versions() -> str:
    found = []
    for name in VERSIONED:
        try:
            found.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return ";".join(found)


def _hash(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()[:20]


def _files(relative: tuple[str, ...]) -> list[bytes]:
    return [rel.encode() + b"\n" + (PACKAGE_DIR / rel).read_bytes() for rel in relative]


def _figure_module_file(figure_id: str) -> str:
    return module_name(figure_id).removeprefix("attention_explained.").replace(".", "/") + ".py"


def figure_key(figure_id: str) -> str:
    """Changes when this figure's module, its strings, the shared figure code or the core change."""
    from attention_explained.figures.strings import STRINGS

    strings = json.dumps([STRINGS.get(figure_id), STRINGS["common"]], sort_keys=True)
    extra = EXTRA_SOURCES.get(figure_id, ())
    return _hash(
        figure_id,
        *_files((_figure_module_file(figure_id), *FIGURE_SHARED_FILES, *CORE_FILES, *extra)),
        strings,
        versions(),
    )


def data_key() -> str:
    """The prose's numbers and the explorer's reference values, made together."""
    return _hash(*_files((*DATA_FILES, *CORE_FILES)), versions())


BUILD_TOOLING = (
    "__main__.py",
    "assets.py",
    "cli.py",
    "mkdocs_plugin.py",
    "notebooks.py",
    "worker.py",
)


def package_source_key(*, include_figures: bool) -> str:
    """The package code a notebook can import: all of it but the build tooling, and the
    figure layer only if the notebook uses it."""
    sources = sorted(
        p
        for p in PACKAGE_DIR.rglob("*.py")
        if p.relative_to(PACKAGE_DIR).as_posix() not in BUILD_TOOLING
        and (include_figures or p.relative_to(PACKAGE_DIR).parts[0] != "figures")
    )
    return _hash(
        *(p.relative_to(PACKAGE_DIR).as_posix().encode() + p.read_bytes() for p in sources),
        versions(),
    )


class AssetCache:
    """``<root>/figures/<id>-<key>/<id>.<lang>.<theme>.svg`` and ``<root>/data/<key>/*.json``."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.figure_root = self.root / "figures"
        self.data_root = self.root / "data"
        self.keys = {figure_id: figure_key(figure_id) for figure_id in FIGURE_IDS}
        self.data_dir = self.data_root / data_key()
        self.numbers_path = self.data_dir / "numbers.json"
        self.explorer_path = self.data_dir / "explorer-reference.json"
        self.claims_path = self.data_dir / "claims.json"

    def figure_dir(self, figure_id: str) -> Path:
        return self.figure_root / f"{figure_id}-{self.keys[figure_id]}"

    def figure_path(self, figure_id: str, lang: str, theme: str, fmt: str = "svg") -> Path:
        return self.figure_dir(figure_id) / variant_name(figure_id, lang, theme, fmt)

    def stale_figures(self) -> list[str]:
        return [i for i in FIGURE_IDS if not self.figure_dir(i).is_dir()]

    def data_stale(self) -> bool:
        return not self.data_dir.is_dir()

    def start(self, figures: list[str], data: bool, jobs: int = 2) -> Worker | None:
        """Start one worker for whatever is stale; ``None`` when everything is cached."""
        if not figures and not data:
            return None
        return Worker(self, figures, data, jobs)

    def load_numbers(self) -> dict[str, str]:
        return json.loads(self.numbers_path.read_text(encoding="utf-8"))

    def load_claims(self) -> dict[str, dict]:
        return json.loads(self.claims_path.read_text(encoding="utf-8"))


class Worker:
    """A subprocess that builds into a scratch folder; results move into the cache atomically.

    ``wait_data()`` returns as soon as the numbers are in place; ``wait()`` when all is.
    """

    def __init__(self, cache: AssetCache, figures: list[str], data: bool, jobs: int = 2):
        from attention_explained.worker import DATA_READY

        self.cache, self.figures, self.data = cache, figures, data
        cache.root.mkdir(parents=True, exist_ok=True)
        self.scratch = Path(tempfile.mkdtemp(prefix="worker-", dir=cache.root))
        command = [
            sys.executable,
            "-m",
            "attention_explained.worker",
            "--out",
            str(self.scratch),
            "--jobs",
            str(jobs),
        ]
        if data:
            command.append("--data")
        if figures:
            command += ["--figures", *figures]
        env = {
            **os.environ,
            "TF_CPP_MIN_LOG_LEVEL": os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"),
            # One malloc arena instead of 8 per core: TensorFlow's thread pools otherwise
            # leave ~30 MB of fragmentation in a process that is already ~600 MB.
            "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "1"),
        }
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        self._lines: list[str] = []
        self._data_ready = threading.Event()
        self._reader = threading.Thread(target=self._read, args=(DATA_READY,), daemon=True)
        self._reader.start()
        self._result: tuple[int, str] | None = None

    def _read(self, marker: str) -> None:
        for line in self.process.stdout:
            if line.strip() == marker:
                self._install_data()
                self._data_ready.set()
            else:
                self._lines.append(line)
        self._data_ready.set()  # ended, with or without data: waiters look at the result

    def _install_data(self) -> None:
        self.cache.data_root.mkdir(parents=True, exist_ok=True)
        _install_dir(self.scratch / "data", self.cache.data_dir)
        _prune(self.cache.data_root, "", self.cache.data_dir)

    def wait_data(self) -> tuple[int, str] | None:
        """Block until the numbers are installed; the failure's result if the worker died."""
        self._data_ready.wait()
        return None if self.cache.data_dir.is_dir() else self.wait()

    def wait(self) -> tuple[int, str]:
        """Block until done; return (return code, its output). Safe to call repeatedly."""
        if self._result is None:
            self.process.wait()
            self._reader.join()
            if self.process.returncode == 0:
                self._install_figures()
            shutil.rmtree(self.scratch, ignore_errors=True)
            self._result = (self.process.returncode, "".join(self._lines))
        return self._result

    def _install_figures(self) -> None:
        for figure_id in self.figures:
            target = self.cache.figure_dir(figure_id)
            self.cache.figure_root.mkdir(parents=True, exist_ok=True)
            _install_dir(self.scratch / "figures" / figure_id, target)
            _prune(self.cache.figure_root, f"{figure_id}-", target)


def _install_dir(staged: Path, target: Path) -> None:
    """Move a finished folder into place atomically: it is either whole or absent."""
    try:
        os.replace(staged, target)
    except OSError:
        if not target.is_dir():  # another build won the race with the same content
            raise


STALE_AFTER = 24 * 3600  # seconds


def _prune(root: Path, prefix: str, *keep: Path) -> None:
    """Remove superseded versions ``<prefix><key>`` beside those to ``keep``, once a day old.

    Not at once: another build running beside this one (``make serve`` during
    ``make test``, or a branch switch) may still be reading a different version.
    """
    now = time.time()
    for old in root.glob(f"{prefix}*"):
        if old not in keep and _is_key(old.name[len(prefix) :]):
            try:
                if now - old.stat().st_mtime > STALE_AFTER:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:
                pass


def _is_key(text: str) -> bool:
    return len(text) == 20 and all(c in "0123456789abcdef" for c in text)
