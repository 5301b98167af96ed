"""The drawing processes' module reloading (sitebuild/_internal/compute.py), without starting
processes."""

from __future__ import annotations

import sys
import types

import pytest

from attention_explained.sitebuild._internal import compute as worker


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
