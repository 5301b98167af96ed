"""A site build under ``make serve`` waits for the asset watcher's run instead of starting
its own cold one (``assets.watcher_pending``), and only while that is right: a watcher is
alive (it holds ``watcher.lock``), it watches this package, and its run of the sources as
they are on disk now is not over."""

from __future__ import annotations

import contextlib
import fcntl
import json
import threading

import pytest

from attention_explained.sitebuild import assets
from attention_explained.sitebuild.keys import PACKAGE_DIR

GLOBS = ("notebooks/*.md",)
DEADLINE = 60  # seconds: a hang, not a slow machine


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "docs" / "notebooks"
    folder.mkdir(parents=True)
    (folder / "a.md").write_text("# a notebook\n", encoding="utf-8")
    return tmp_path / "docs"


@pytest.fixture
def cache(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    return folder


def write_state(cache, docs, **fields) -> None:
    """What a watch writes: the sources it saw (as they are now, unless told), its package."""
    now = assets.signature_digest(assets.sources_signature(docs, GLOBS))
    state = {"package": str(PACKAGE_DIR), "docs": str(docs), "notebooks": list(GLOBS)}
    state |= {"signature": now, "running": False} | fields
    (cache / assets.WATCHER_STATE).write_text(json.dumps(state), encoding="utf-8")


@contextlib.contextmanager
def live_watcher(cache):
    """Hold the lock as a running ``assets watch`` does for its whole life."""
    with open(cache / assets.WATCHER_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def test_no_watcher_no_wait(cache, docs):
    assert not assets.watcher_pending(cache)  # no state at all
    write_state(cache, docs, running=True)
    assert not assets.watcher_pending(cache)  # a state left by a watch that has ended


def test_a_live_watcher_is_waited_for_until_its_run_of_these_sources_is_over(cache, docs):
    with live_watcher(cache):
        write_state(cache, docs, running=True)
        assert assets.watcher_pending(cache)
        write_state(cache, docs, running=False)
        assert not assets.watcher_pending(cache)
        # an edit it has not run yet (a notebook here): the build waits for that run
        (docs / "notebooks/a.md").write_text("# a notebook, edited\n", encoding="utf-8")
        assert assets.watcher_pending(cache)
        write_state(cache, docs, running=False)
        assert not assets.watcher_pending(cache)


def test_a_watcher_of_another_package_copy_is_not_waited_for(cache, docs, tmp_path):
    with live_watcher(cache):
        write_state(cache, docs, running=True, package=str(tmp_path / "elsewhere"))
        assert not assets.watcher_pending(cache)


def test_the_wait_ends_when_the_watchers_run_does(cache, docs, monkeypatch):
    waited, seen_pending = [], threading.Event()
    pending = assets.watcher_pending

    def observed(root):
        value = pending(root)
        if value:
            seen_pending.set()
        return value

    monkeypatch.setattr(assets, "watcher_pending", observed)
    with live_watcher(cache):
        write_state(cache, docs, running=True)
        waiting = threading.Thread(
            target=lambda: waited.append(assets.wait_for_watcher(cache, timeout=DEADLINE))
        )
        waiting.start()
        assert seen_pending.wait(DEADLINE)  # it is waiting
        write_state(cache, docs, running=False)  # the run is over
        waiting.join(timeout=DEADLINE)
    assert waited == [True]
    assert not assets.wait_for_watcher(cache, timeout=DEADLINE)  # nothing to wait for
