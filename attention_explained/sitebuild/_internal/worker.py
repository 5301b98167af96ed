"""The worker: one process that makes every stale asset, and the client that drives it.

Both halves of the protocol live here, so the event names and the scratch layout are
spelled once.

- **Client → worker** (stdin): one JSON job per line,
  ``{"job": n, "out": "<scratch>", "data": bool, "figures": [ids], "fingerprints": {...}}``.
  ``fingerprints`` maps every package module to a digest of its source; modules whose
  digest changed since the worker's last job (and every module that imports them) are
  dropped from ``sys.modules`` before the job, in the worker and in its drawing processes,
  so a long-lived worker (``mkdocs serve``) draws with the code as it is now.
  End of input: the worker stops its drawing processes and exits.
- **Worker → client** (stdout): lines ``@ae {json}`` with ``event`` one of
  ``stage`` (``name``, ``seconds``: a timing a bench can read), ``data`` (numbers ready),
  ``figure`` (``id`` ready), ``failed`` (``id`` or ``"data"``, ``traceback``), ``done``.
  Any other line is a library's chatter, kept for error messages.
- **Scratch layout**: ``<out>/data/`` (numbers, their values, explorer reference) and
  ``<out>/figures/<id>/`` (the variants), moved into the cache by the client as each is
  announced.

The worker computes each figure's data itself (TensorFlow, imported once) and hands the
drawing to a pool of spawned matplotlib processes, so figures are drawn while later data is
still computed.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterable
from pathlib import Path

EVENT = "@ae "


def scratch_data(out: Path) -> Path:
    return Path(out) / "data"


def scratch_figure(out: Path, figure_id: str) -> Path:
    return Path(out) / "figures" / figure_id


# ============================================================================================
# The worker process (python -m attention_explained.sitebuild._internal.worker)
# ============================================================================================


_emit_lock = threading.Lock()


def emit(event: str, **fields) -> None:
    """Write one ``@ae`` event line for the client: every report of the worker goes through
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


def forget_fingerprints() -> None:
    """Back to a fresh process's state: no module fingerprints recorded yet (for tests that
    start a worker's life in-process)."""
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


BACKGROUND_NICE = 5  # drawing and the notebook kernel yield the CPU to the worker's chain


def background_priority(pid: int = 0) -> None:
    """Lower a process's CPU priority (``pid`` 0: this one); never fails the build.

    On 2 cores the build's critical path is the worker (TensorFlow import, data, training
    grids, numbers) and then MkDocs rendering the pages, which wait for the numbers. Drawing
    and the notebooks are needed only at the end, so they take what CPU is left.
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

    if sys.platform == "linux":  # a worker that is killed takes its drawing processes along
        die_with_parent()
    background_priority()
    load_all()


def draw_figure(figure_id: str, data, out: str, fingerprints: dict[str, str]) -> tuple[str, float]:
    """The drawing processes' task: one figure's variants into ``out``, with the code as it
    is now; returns the id and the seconds taken. (A test replaces it to draw nothing.)"""
    from importlib import import_module

    refresh_modules(fingerprints)
    start = time.perf_counter()
    from attention_explained.figures.registry import module_name
    from attention_explained.figures.render import render

    import_module(module_name(figure_id))  # re-registers it if it was just dropped
    render([figure_id], Path(out), data={figure_id: data}, cards=True)
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


def _report_drawings(job: int, drawn: queue.SimpleQueue, drawings: dict) -> None:
    """Announce each figure as soon as it is drawn (while the numbers may still be computed),
    so the client installs it at once; returns when every submitted drawing is announced."""
    submitted_all, reported = False, 0
    while not submitted_all or reported < len(drawings):
        future = drawn.get()
        if future is None:
            submitted_all = True
            continue
        reported += 1
        figure_id = drawings[future]
        try:
            _, seconds = future.result()
        except Exception as exc:
            text = "".join(traceback.format_exception(exc))
            emit("failed", job=job, id=figure_id, traceback=text)
            continue
        emit("stage", name=f"figure-draw {figure_id}", seconds=round(seconds, 3))
        emit("figure", job=job, id=figure_id)


class Server:
    """The worker process's job loop: each job's figure data here, their drawing in a pool of
    spawned processes, the numbers last (``main`` feeds it stdin; tests run it in-process)."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = None

    def _pool(self, fingerprints: dict[str, str]):
        if self.pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(
                max_workers=max(1, self.jobs),
                mp_context=multiprocessing.get_context("spawn"),  # never fork TensorFlow
                initializer=warm_up,
                initargs=(fingerprints,),
            )
        return self.pool

    def run(self, job: dict) -> None:
        n, out = job["job"], Path(job["out"])
        fingerprints = job.get("fingerprints") or {}
        if job.get("figures") and self.pool is None:
            # Start the drawing processes now: they import matplotlib while TensorFlow loads
            # here, instead of after it (the pool spawns a process per task it cannot place).
            for _ in range(self.jobs):
                self._pool(fingerprints).submit(os.getpid)
        if (job.get("figures") or job.get("data")) and "tensorflow" not in sys.modules:
            with _Stage("tf-import"):
                import_tensorflow()

        dropped = refresh_modules(fingerprints)
        if dropped:
            emit("reloaded", job=n, modules=dropped)
        drawn: queue.SimpleQueue = queue.SimpleQueue()  # drawings, as each one finishes
        drawings: dict = {}  # future → figure id
        reporter = threading.Thread(
            target=_report_drawings, args=(n, drawn, drawings), name="drawings", daemon=True
        )
        reporter.start()
        try:
            if job.get("figures"):
                self._submit_figures(job, drawings, drawn.put)
        finally:
            drawn.put(None)  # every drawing is submitted
        if job.get("data"):
            try:
                make_data(scratch_data(out))
                emit("data", job=n)
            except Exception:
                emit("failed", job=n, id="data", traceback=traceback.format_exc())
        reporter.join()
        emit("done", job=n)

    def _submit_figures(self, job: dict, drawings: dict, on_done) -> None:
        """Each figure's data here (TensorFlow), its drawing in the pool."""
        from importlib import import_module

        from attention_explained.figures.registry import get, module_name

        n, fingerprints = job["job"], job.get("fingerprints") or {}
        pool = self._pool(fingerprints)
        for figure_id in job["figures"]:
            try:
                import_module(module_name(figure_id))  # re-registers a dropped module
                data = timed_data(figure_id, get(figure_id).data)
            except Exception:
                emit("failed", job=n, id=figure_id, traceback=traceback.format_exc())
                continue
            target = str(scratch_figure(Path(job["out"]), figure_id))
            future = pool.submit(draw_figure, figure_id, data, target, fingerprints)
            drawings[future] = figure_id  # before the callback can hand it to the reporter
            future.add_done_callback(on_done)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m attention_explained.sitebuild._internal.worker"
    )
    parser.add_argument("--jobs", type=int, default=2, help="drawing processes")
    args = parser.parse_args(argv)
    server = Server(args.jobs)
    try:
        for line in sys.stdin:
            if line.strip():
                server.run(json.loads(line))
    finally:
        server.close()
    return 0


# ============================================================================================
# The client (in the MkDocs process)
# ============================================================================================


class WorkerError(RuntimeError):
    """An asset could not be made; the message names it and carries the full traceback."""


class Job:
    """One request: which assets it makes, and events to wait on for each of them."""

    def __init__(self, number: int, cache, scratch: Path, figures: list[str], data: bool):
        self.number, self.cache, self.scratch = number, cache, scratch
        self.figures, self.data = list(figures), data
        self.ready = {name: threading.Event() for name in (*figures, *(["data"] if data else []))}
        self.failures: dict[str, str] = {}
        self.done = threading.Event()

    def _settle(self, name: str, traceback_text: str | None = None) -> None:
        if traceback_text is not None:
            self.failures[name] = traceback_text
        if name in self.ready:
            self.ready[name].set()

    def _raise_for(self, names: Iterable[str]) -> None:
        failed = [n for n in names if n in self.failures]
        if failed:
            parts = [f"{_label(n)}:\n{self.failures[n]}" for n in failed]
            raise WorkerError("building the assets failed\n" + "\n".join(parts))

    def settled(self, name: str) -> bool:
        """Wait until ``name`` ("data" or a figure id) is made or has failed; True if made.
        False at once if this job does not make it."""
        if name not in self.ready:
            return False
        self.ready[name].wait()
        return name not in self.failures

    def wait_data(self) -> None:
        """Block until the numbers are in the cache (at once if they were not requested)."""
        if "data" in self.ready:
            self.ready["data"].wait()
            self._raise_for(["data"])

    def wait_figures(self, ids: Iterable[str] | None = None) -> None:
        ids = list(self.figures if ids is None else [i for i in ids if i in self.ready])
        for figure_id in ids:
            self.ready[figure_id].wait()
        self._raise_for(ids)

    def wait(self) -> None:
        self.done.wait()
        self._raise_for(self.ready)


def _label(name: str) -> str:
    return "numbers" if name == "data" else f"figure {name}"


class Worker:
    """The client half: starts the worker process, sends jobs, installs what comes back."""

    def __init__(self, cache_root: Path, *, jobs: int = 2):
        self.cache_root = Path(cache_root)
        env = {
            **os.environ,
            "TF_CPP_MIN_LOG_LEVEL": os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"),
            # One malloc arena instead of 8 per core: TensorFlow's thread pools otherwise
            # leave ~30 MB of fragmentation in a process that is already ~600 MB.
            "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "1"),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "attention_explained.sitebuild._internal.worker",
                "--jobs",
                str(jobs),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=die_with_parent if sys.platform == "linux" else None,
        )
        self.jobs: dict[int, Job] = {}
        self.output: list[str] = []
        self.stages: list[tuple[str, float]] = []
        self.on_stage = None  # callable(name, seconds), e.g. a logger
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="ae-worker", daemon=True)
        self._reader.start()

    def submit(self, cache, figures: list[str], data: bool) -> Job:
        self.cache_root.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="worker-", dir=self.cache_root))
        with self._lock:
            job = Job(len(self.jobs) + 1, cache, scratch, figures, data)
            self.jobs[job.number] = job
        request = {
            "job": job.number,
            "out": str(scratch),
            "data": data,
            "figures": list(figures),
            "fingerprints": cache.graph.fingerprints(),
        }
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._fail_pending("the worker process has exited")
        return job

    def alive(self) -> bool:
        return self.process.poll() is None

    def _read(self) -> None:
        for line in self.process.stdout:
            if not line.startswith(EVENT):
                self.output.append(line)
                continue
            event = json.loads(line[len(EVENT) :])
            kind, job = event["event"], self.jobs.get(event.get("job", 0))
            if kind == "stage":
                self.stages.append((event["name"], event["seconds"]))
                if self.on_stage:
                    self.on_stage(event["name"], event["seconds"])
            elif job is None:
                continue
            elif kind == "data":
                job.cache.install_data(scratch_data(job.scratch))
                job._settle("data")
            elif kind == "figure":
                job.cache.install_figure(event["id"], scratch_figure(job.scratch, event["id"]))
                job._settle(event["id"])
            elif kind == "failed":
                job._settle(event["id"], event["traceback"])
            elif kind == "done":
                shutil.rmtree(job.scratch, ignore_errors=True)
                job.done.set()
        self.process.wait()
        self._fail_pending(f"the worker exited with code {self.process.returncode}")

    def _fail_pending(self, why: str) -> None:
        text = f"{why}; its output:\n{''.join(self.output[-200:])}"
        for job in list(self.jobs.values()):
            if not job.done.is_set():
                for name, ready in job.ready.items():
                    if not ready.is_set():
                        job._settle(name, text)
                shutil.rmtree(job.scratch, ignore_errors=True)
                job.done.set()

    def finish_input(self) -> None:
        """No more jobs: the worker exits once the ones sent are done."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()

    def close(self, timeout: float = 30) -> None:
        """End of input: the worker finishes its jobs and exits; kill it if it hangs."""
        self.finish_input()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=5)


def die_with_parent() -> None:
    """Linux: this process gets SIGTERM when its parent dies without closing it (the worker
    under MkDocs, a drawing process under the worker). Tests replace it: a test process
    must not be tied to its parent."""
    import ctypes
    import signal

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Everything is written and the drawing processes are gone; a normal exit would now spend
    # ~0.8 s in TensorFlow's interpreter teardown, with the build waiting for it.
    os._exit(code)
