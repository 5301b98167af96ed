"""What the asset step (``assets.py``) computes, in its own process and its drawing pool.

Each figure's data here (TensorFlow, imported once, ``import_tensorflow``), its drawing in a
pool of spawned matplotlib processes (``warm_up``, ``draw_figure``), the prose numbers and the
explorer's reference values (``make_data``), each into a scratch folder (``scratch_data``,
``scratch_figure``) that the asset step installs into the cache when it is whole. Timings are
``@ae {json}`` stage lines (``emit``) that the asset step writes to stderr and the plugin
relays to its log, where the benchmarks read them.

A drawing process refreshes the package modules whose source changed since it loaded them
(``refresh_modules``, from each task's ``fingerprints``), so it always draws the code as it is.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from pathlib import Path

EVENT = "@ae "


def scratch_data(out: Path) -> Path:
    return Path(out) / "data"


def scratch_figure(out: Path, figure_id: str) -> Path:
    return Path(out) / "figures" / figure_id


_emit_lock = threading.Lock()


def emit(event: str, **fields) -> None:
    """Write one ``@ae`` event line (a stage's timing) to stdout: every report goes through
    here (public so that a test collects the events in-process instead of on stdout)."""
    line = EVENT + json.dumps({"event": event, **fields}) + "\n"
    with _emit_lock:  # the drawing reporter thread emits too: whole lines only
        sys.stdout.write(line)
        sys.stdout.flush()


class _Stage:
    """``with _Stage("numbers"):`` reports how long the block took."""

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        self.start = time.perf_counter()

    def __exit__(self, *exc):
        emit("stage", name=self.name, seconds=round(time.perf_counter() - self.start, 3))


_known: dict[str, str] | None = None  # module fingerprints this process has imported

# (pool, jobs): the drawing pool a standby started before its asset step (standby.py)
STANDBY_POOL = None


def take_standby_pool(jobs: int):
    """The standby's started drawing pool, once, if it has ``jobs`` processes; else None."""
    global STANDBY_POOL
    standby, STANDBY_POOL = STANDBY_POOL, None
    if standby is not None and standby[1] == jobs:
        return standby[0]
    if standby is not None:
        standby[0].shutdown(cancel_futures=True)
    return None


def forget_fingerprints() -> None:
    """Back to a fresh process's state: no module fingerprints recorded yet (for tests that
    start a process's life in-process)."""
    global _known
    _known = None


def refresh_modules(fingerprints: dict[str, str]) -> list[str]:
    """Drop changed package modules (and what imports them) from ``sys.modules``."""
    global _known
    if _known is None or not fingerprints:
        _known = dict(fingerprints) or _known
        return []
    changed = {m for m in set(fingerprints) | set(_known) if fingerprints.get(m) != _known.get(m)}
    _known = dict(fingerprints)
    if not changed:
        return []
    from attention_explained.sitebuild.keys import ImportGraph

    stale = ImportGraph().dependents(changed) | changed
    dropped = sorted(name for name in stale if sys.modules.pop(name, None) is not None)
    return dropped


BACKGROUND_NICE = 5  # drawing and the notebook kernel yield the CPU to the data's chain


def background_priority(pid: int = 0) -> None:
    """Lower a process's CPU priority (``pid`` 0: this one); never fails the build.

    On 2 cores the asset step's critical path is the data (TensorFlow import, training
    grids, numbers); drawing and the notebooks take what CPU is left.
    """
    with contextlib.suppress(OSError, AttributeError):
        current = os.getpriority(os.PRIO_PROCESS, pid)
        os.setpriority(os.PRIO_PROCESS, pid, min(19, current + BACKGROUND_NICE))


def warm_up(fingerprints: dict[str, str]) -> None:
    """The drawing pool's initializer: import matplotlib and the figure modules while the
    parent imports TensorFlow.

    ``fingerprints`` are those of the job that started the pool, taken before this import:
    the code imported here is at least that new. Recording them now (not at this process's
    first drawing, which may come in a later job) lets that drawing reload what changed.
    """
    global _known
    _known = dict(fingerprints) or None
    from attention_explained.figures import load_all

    if sys.platform == "linux":  # an asset step that is killed takes its drawing processes along
        die_with_parent()
    background_priority()
    load_all()


def draw_figure(
    figure_id: str, data, out: str, fingerprints: dict[str, str], langs=None
) -> tuple[str, float]:
    """The drawing processes' task: one figure's variants into ``out`` (``langs``: only
    theirs; every language's by default), with the code as it is now; returns the id and the
    seconds taken. (A test replaces it to draw nothing.)"""
    from importlib import import_module

    refresh_modules(fingerprints)
    start = time.perf_counter()
    from attention_explained.figures.registry import module_name
    from attention_explained.figures.render import render

    import_module(module_name(figure_id))  # re-registers it if it was just dropped
    options = {} if langs is None else {"langs": langs}
    render([figure_id], Path(out), data={figure_id: data}, cards=True, **options)
    return figure_id, time.perf_counter() - start


_SHARED = {"training": "training", "after_training": "after-training grid"}  # data → stage


def timed_data(figure_id: str, compute):
    """A figure's data, timed; a shared grid (run once) that it ran is reported on its own.
    (A test replaces it to compute nothing.)"""
    from attention_explained.content import data as experiments

    before = {name: getattr(experiments, name).cache_info().currsize for name in _SHARED}
    start = time.perf_counter()
    data = compute()
    seconds = time.perf_counter() - start
    ran = [n for n in _SHARED if getattr(experiments, n).cache_info().currsize > before[n]]
    if ran:  # this figure ran a shared grid: the time is the grid's
        emit("stage", name=" + ".join(_SHARED[n] for n in ran), seconds=round(seconds, 3))
        seconds = 0.0
    emit("stage", name=f"figure-data {figure_id}", seconds=round(seconds, 3))
    return data


def make_data(out: Path) -> None:
    """The prose numbers (as printed, and unrounded for the claims) and the explorer's
    reference values. The claims are judged over them apart (``sitebuild._internal.claims``)."""
    from attention_explained.content import data as experiments
    from attention_explained.content.pages import compute, values
    from attention_explained.explorer import reference_cases
    from attention_explained.sitebuild._internal.cache import EXPLORER, NUMBERS, VALUES

    for name, stage in _SHARED.items():
        if not getattr(experiments, name).cache_info().currsize:  # no figure of this job ran it
            with _Stage(stage):
                getattr(experiments, name)()
    with _Stage("numbers"):
        numbers, unrounded = compute(), values()
    with _Stage("explorer-reference"):
        reference = reference_cases()
    out.mkdir(parents=True, exist_ok=True)
    (out / NUMBERS).write_text(json.dumps(numbers, ensure_ascii=False, indent=1), "utf-8")
    (out / VALUES).write_text(json.dumps(unrounded, indent=1), "utf-8")
    (out / EXPLORER).write_text(json.dumps(reference, indent=1), "utf-8")


def import_tensorflow() -> None:
    """Import TensorFlow with one thread per op and two ops at a time.

    The grids are thousands of small ops: splitting one op over threads costs more than it
    saves (the same wall time for ~40% more CPU, which the drawing processes and MkDocs
    need), while running two independent ops at once still uses both cores. The results
    are bit-identical either way (tests/test_training.py, which runs this function).
    """
    from attention_explained._tf import tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(2)


def die_with_parent() -> None:
    """Linux: this process gets SIGTERM when its parent dies without closing it (a drawing
    process under the asset step). Tests replace it: a test process must not be tied to its
    parent."""
    import ctypes
    import signal

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
