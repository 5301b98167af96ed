"""The asset worker's module reloading (sitebuild/_internal/worker.py), without starting
processes."""

from __future__ import annotations

import sys
import threading
import types

import pytest

from attention_explained.sitebuild._internal import worker


@pytest.fixture
def fresh(monkeypatch):
    worker.forget_fingerprints()
    monkeypatch.setattr("attention_explained.figures.load_all", lambda: None)
    monkeypatch.setattr(worker, "background_priority", lambda pid=0: None)
    monkeypatch.setattr(worker, "die_with_parent", lambda: None)
    yield
    worker.forget_fingerprints()


MODULE = "attention_explained.figures.temperature"


def test_a_drawing_process_started_in_one_job_reloads_in_the_next(fresh, monkeypatch):
    """It loads the code at start-up; its first drawing may come jobs later, after an edit."""
    monkeypatch.setitem(sys.modules, MODULE, types.ModuleType(MODULE))
    worker.warm_up({MODULE: "v1"})  # the pool starts in job 1
    dropped = worker.refresh_modules({MODULE: "v2"})  # its first drawing is in job 2
    assert MODULE in dropped and MODULE not in sys.modules


def test_the_first_job_of_a_worker_reloads_nothing(fresh, monkeypatch):
    monkeypatch.setitem(sys.modules, MODULE, types.ModuleType(MODULE))
    assert worker.refresh_modules({MODULE: "v1"}) == []
    assert worker.refresh_modules({MODULE: "v1"}) == []
    assert worker.refresh_modules({MODULE: "v2"}) == [MODULE]


class _Events(list):
    """The worker's events, with a flag per kind for threads that wait on one."""

    def __init__(self):
        super().__init__()
        self.seen = {kind: threading.Event() for kind in ("figure", "failed", "data")}

    def emit(self, event, **fields):
        self.append((event, fields.get("id")))
        if event in self.seen:
            self.seen[event].set()


@pytest.fixture
def server(monkeypatch, tmp_path):
    """A worker server in this process: a thread pool draws, no TensorFlow, no spawning."""
    from concurrent.futures import ThreadPoolExecutor

    events = _Events()
    monkeypatch.setattr(worker, "emit", events.emit)
    monkeypatch.setattr(worker, "import_tensorflow", lambda: None)
    monkeypatch.setattr(worker, "timed_data", lambda figure_id, compute: {"id": figure_id})
    monkeypatch.setattr(worker, "refresh_modules", lambda fingerprints: [])
    monkeypatch.setitem(sys.modules, "tensorflow", types.ModuleType("tensorflow"))
    srv = worker.Server(jobs=1)
    srv.pool = ThreadPoolExecutor(1)
    yield srv, events, {"job": 1, "out": str(tmp_path), "figures": ["temperature"], "data": True}
    srv.close()


def test_a_figure_is_announced_while_the_numbers_are_still_computed(server, monkeypatch):
    """The client installs each figure when it is drawn, not after the numbers."""
    srv, events, job = server
    monkeypatch.setattr(worker, "draw_figure", lambda figure_id, *args: (figure_id, 0.0))
    waited = []
    monkeypatch.setattr(
        worker, "make_data", lambda out: waited.append(events.seen["figure"].wait(10))
    )
    srv.run(job)
    assert waited == [True]
    assert events.index(("figure", "temperature")) < events.index(("data", None))
    assert events[-1] == ("done", None)


def test_a_failed_drawing_is_reported_and_the_job_still_ends(server, monkeypatch):
    srv, events, job = server

    def fail(*args):
        raise RuntimeError("broken figure")

    monkeypatch.setattr(worker, "draw_figure", fail)
    monkeypatch.setattr(worker, "make_data", lambda out: events.seen["failed"].wait(10))
    srv.run(job)
    assert ("failed", "temperature") in events and ("figure", "temperature") not in events
    assert events[-1] == ("done", None)
