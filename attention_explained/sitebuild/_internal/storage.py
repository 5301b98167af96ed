"""The cache's storage primitives: checked entries written atomically, with no knowledge of
what a key covers (that is :mod:`attention_explained.sitebuild.keys`) or of the cache's layout
(that is :mod:`attention_explained.sitebuild._internal.cache`).

A folder named by a key is either whole or absent, so a build that sees it may use it.
Nothing is written into the cache in place: a file is written under a temporary name and
renamed, a folder is filled and sealed under a temporary name and renamed. A tool that does
write its cache in place (mkdocs-jupyter) gets a private :class:`WorkingCopy` instead.

Every entry checks itself. A folder entry holds ``manifest.sha256`` (the SHA-256 of each of
its files, written by :func:`seal` before the folder is moved into place) and is used only
if :func:`entry_ok` finds every file whole; a one-file entry (:func:`write_file`) starts
with a line carrying its payload's SHA-256, which :func:`read_file` checks. A damaged,
truncated or unreadable entry is removed with a warning that names it, and the build makes
it again: it is never served.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

STALE_AFTER = 24 * 3600  # seconds before a superseded version is removed
MANIFEST = "manifest.sha256"  # in every folder entry: JSON, file name → SHA-256
HEADER = b"ae-cache sha256="  # first line of every one-file entry
KEY_LENGTH = 20  # hex digits of a key (keys.digest)

# Not under "mkdocs": a damaged entry is rebuilt, so a --strict build need not fail for it.
log = logging.getLogger("attention_explained.cache")
if not log.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    log.addHandler(_handler)
    log.propagate = False


def is_key(text: str) -> bool:
    """Whether ``text`` spells a key (so ``<prefix><key>`` is a version prune may remove)."""
    return len(text) == KEY_LENGTH and all(c in "0123456789abcdef" for c in text)


class CacheEntryError(RuntimeError):
    """A cache entry that passed its check could still not be read; names the file."""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST)


# -- folder entries ----------------------------------------------------------------------
def seal(folder: Path) -> None:
    """Record the SHA-256 of every file in ``folder``: call it once the folder is complete."""
    rows = {p.relative_to(folder).as_posix(): _sha256(p) for p in _files(folder)}
    (folder / MANIFEST).write_text(json.dumps(rows, indent=1, sort_keys=True), "utf-8")


def entry_problem(folder: Path) -> str | None:
    """What is wrong with the sealed ``folder`` (None: every file is whole, or no folder)."""
    if not folder.is_dir():
        return None
    try:
        rows = json.loads((folder / MANIFEST).read_text("utf-8"))
        if not isinstance(rows, dict):
            raise ValueError("not a mapping")
    except FileNotFoundError:
        return f"it has no {MANIFEST} (written before entries were checked, or half-written)"
    except (OSError, ValueError) as exc:
        return f"its {MANIFEST} is unreadable ({exc})"
    for name, expected in sorted(rows.items()):
        try:
            if _sha256(folder / name) != expected:
                return f"{name} does not match its recorded SHA-256 (damaged or truncated)"
        except FileNotFoundError:
            return f"{name} is missing"
        except OSError as exc:
            return f"{name} is unreadable ({exc})"
    extra = sorted(set(p.relative_to(folder).as_posix() for p in _files(folder)) - set(rows))
    if extra:
        return f"{extra[0]} is not in its {MANIFEST}"
    return None


def entry_ok(folder: Path) -> bool:
    """True if ``folder`` is a whole entry. A damaged one is removed with a warning naming
    it (so the caller makes it again); an absent one is just False."""
    problem = entry_problem(folder)
    if problem is None:
        return folder.is_dir()
    warn_damaged(folder, problem)
    discard(folder)
    return False


def warn_damaged(entry: Path, problem: str) -> None:
    log.warning("attention-explained: cache entry %s is damaged: %s; rebuilding it", entry, problem)


def discard(path: Path) -> None:
    """Take a damaged entry out of the way atomically (a rename), then delete it."""
    aside = path.with_name(f".damaged-{path.name}-{os.getpid()}-{time.monotonic_ns()}")
    try:
        os.replace(path, aside)
    except OSError:
        return  # already gone (another build discarded or replaced it)
    if aside.is_dir():
        shutil.rmtree(aside, ignore_errors=True)
    else:
        aside.unlink(missing_ok=True)


@contextlib.contextmanager
def new_entry(target: Path) -> Iterator[Path]:
    """``with new_entry(target) as folder:`` fill ``folder``; on success it is sealed and
    moved to ``target`` atomically (if another build installed it first, that copy stays)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        yield staged
        seal(staged)
        os.chmod(staged, 0o755)  # mkdtemp makes 0700
        install_dir(staged, target)
    finally:
        shutil.rmtree(staged, ignore_errors=True)


def write_entry(target: Path, files: dict[str, bytes]) -> None:
    """Write a folder entry ``target`` holding ``files`` (name → bytes), sealed, atomically."""
    with new_entry(target) as staged:
        for name, payload in files.items():
            (staged / name).parent.mkdir(parents=True, exist_ok=True)
            (staged / name).write_bytes(payload)


# -- one-file entries ----------------------------------------------------------------------
def write_file(path: Path, payload: bytes) -> None:
    """Write a one-file entry atomically, headed by its payload's SHA-256."""
    from attention_explained.figures.render import write_atomic

    header = HEADER + hashlib.sha256(payload).hexdigest().encode() + b"\n"
    write_atomic(Path(path), header + payload)


def read_file(path: Path) -> bytes | None:
    """The payload of the one-file entry at ``path``; None if it is absent, or damaged (then
    it is removed with a warning naming it, and the caller makes it again)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        problem = f"it is unreadable ({exc})"
    else:
        head, newline, payload = raw.partition(b"\n")
        if not head.startswith(HEADER) or not newline:
            problem = "it has no SHA-256 header (written before entries were checked, or cut)"
        elif hashlib.sha256(payload).hexdigest().encode() != head[len(HEADER) :]:
            problem = "it does not match its recorded SHA-256 (damaged or truncated)"
        else:
            return payload
    warn_damaged(path, problem)
    discard(path)
    return None


class WorkingCopy:
    """A private copy of a folder of one-file entries, for a tool that writes its cache in
    place and deletes what its current run did not use (mkdocs-jupyter 0.26: ``write_text``
    into ``<cache_dir>/<sha>.json``, then an eviction of every other ``*.json``).

    Pointed at the shared folder, a second build could read a page the first is still
    writing, delete a page the first is about to read, or find a half-written page sealed
    as whole. Pointed at :attr:`folder` instead, the tool sees only whole pages (each shared
    entry is checked as it is copied in; a damaged one is dropped with a warning naming it),
    and :meth:`install` moves the pages it wrote into the shared folder once it is done,
    each one atomically and headed by its SHA-256 (:func:`write_file`).
    """

    def __init__(self, shared: Path):
        self.shared = Path(shared)
        self._scratch = tempfile.TemporaryDirectory(prefix=f"ae-{self.shared.name}-")
        self.folder = Path(self._scratch.name)
        self._copied: dict[str, bytes] = {}  # name → payload, as copied in
        for entry in sorted(self.shared.glob("*.json")):
            payload = read_file(entry)  # None if damaged: removed with a warning naming it
            if payload is not None:
                (self.folder / entry.name).write_bytes(payload)
                self._copied[entry.name] = payload

    def install(self) -> list[Path]:
        """Install each page the tool wrote (or changed) in the copy; remove shared pages
        that it no longer uses once they are a day old (another build may still use them).
        Returns the shared pages this run used."""
        used = []
        for path in sorted(self.folder.glob("*.json")):
            payload = path.read_bytes()
            target = self.shared / path.name
            if self._copied.get(path.name) != payload:
                write_file(target, payload)
            used.append(target)
        now = time.time()
        for old in self.shared.glob("*.json"):
            try:
                if old not in used and now - old.stat().st_mtime > STALE_AFTER:
                    old.unlink()
            except FileNotFoundError:
                pass
        self.close()
        return used

    def close(self) -> None:
        """Drop the copy (on install, or when the build failed before it)."""
        self._scratch.cleanup()


def read_json(path: Path):
    """:func:`read_file` parsed as JSON (None when absent or damaged)."""
    payload = read_file(path)
    if payload is None:
        return None
    try:
        return json.loads(payload.decode("utf-8"))
    except ValueError as exc:  # whole but not JSON: written so by a bug, not by chance
        raise CacheEntryError(f"cache entry {path} is not JSON: {exc}") from exc


def write_json(path: Path, value, **dumps) -> None:
    write_file(path, json.dumps(value, **dumps).encode("utf-8"))


def install_dir(staged: Path, target: Path) -> None:
    """Move a finished folder into place atomically: it is either whole or absent."""
    try:
        os.replace(staged, target)
    except OSError:
        if not target.is_dir():  # another build won the race with the same content
            raise
        shutil.rmtree(staged, ignore_errors=True)


def prune(root: Path, prefix: str, *keep: Path) -> None:
    """Remove superseded versions ``<prefix><key>`` beside those to ``keep``, once a day old.

    Not at once: another build running beside this one (``make serve`` during
    ``make test``, or a branch switch) may still be reading a different version.
    """
    now = time.time()
    for old in root.glob(f"{prefix}*"):
        if old not in keep and is_key(old.name[len(prefix) :]):
            try:
                if now - old.stat().st_mtime > STALE_AFTER:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:
                pass
