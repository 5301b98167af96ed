"""conftest's built_site: one build for the whole run, however many pytest-xdist workers ask
for it (site_build.shared_build: a lock in the folder the run's processes share); and
conftest's ae_cache: each session's copy of one fixture-site cache the run warms once
(site_build.warm_fixture_cache, a lock of its own), from the shared build's asset step."""

from __future__ import annotations

import threading

import pytest
import site_build
from site_build import BuiltSite, shared_build, warm_fixture_cache

pytestmark = pytest.mark.site  # shared_build checks the marker; the builds below are fakes


def ask_at_once(run_dir, count=4, ask_for=shared_build) -> list:
    """``count`` threads call ``ask_for`` together (flock excludes each open of the lock file,
    so threads contend as worker processes do); each result or exception, in order."""
    results: list = [None] * count
    start = threading.Barrier(count)

    def ask(n):
        start.wait()
        try:
            results[n] = ask_for(run_dir)
        except AssertionError as exc:
            results[n] = exc

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def fake_asset_step(steps: list):
    """Stands in for site_build.asset_step (a real one is a cold asset step, about 50 s):
    records its cache and writes one entry into it."""

    def step(cache, *options):
        steps.append((cache, options))
        (cache / "entry").write_text("made", "utf-8")
        return [], f"asset step {len(steps)}"

    return step


def failing_asset_step(steps: list):
    """Stands in for site_build.asset_step: records its cache, then fails naming a figure."""

    def step(cache, *options):
        steps.append(cache)
        raise AssertionError("the asset step failed:\nfigure softmax-curve: a broken drawing")

    return step


def test_the_site_is_built_once_and_every_asker_reads_that_build(tmp_path, monkeypatch):
    calls, steps = [], []

    def fake_build(site_dir, cache_dir):
        assert (cache_dir / "entry").exists(), "the build ran before the asset step"
        calls.append((site_dir, cache_dir))
        (site_dir / "index.html").parent.mkdir(parents=True)
        (site_dir / "index.html").write_text("built", "utf-8")
        return BuiltSite(site_dir, f"log of build {len(calls)}")

    monkeypatch.setattr(site_build, "asset_step", fake_asset_step(steps))
    monkeypatch.setattr(site_build, "strict_build", fake_build)
    results = ask_at_once(tmp_path)
    assert len(calls) == len(steps) == 1, (calls, steps)
    site_dir, cache_dir = calls[0]
    assert steps[0] == (cache_dir, ("--docs", str(site_build.DOCS)))
    assert cache_dir.parent == site_dir.parent == tmp_path / "built"  # cold: a cache of its own
    assert [(r.root, r.log) for r in results] == [(site_dir, "log of build 1")] * len(results)
    assert {r.asset_step()["log"] for r in results} == {"asset step 1"}


def test_a_failed_build_is_reported_to_every_asker_and_not_run_again(tmp_path, monkeypatch):
    calls, steps = [], []

    def failing_build(site_dir, cache_dir):
        calls.append(site_dir)
        raise AssertionError("strict build failed:\nERROR - a broken page")

    monkeypatch.setattr(site_build, "asset_step", fake_asset_step(steps))
    monkeypatch.setattr(site_build, "strict_build", failing_build)
    results = ask_at_once(tmp_path)
    assert len(calls) == len(steps) == 1, (calls, steps)
    assert all(isinstance(r, AssertionError) and "a broken page" in str(r) for r in results)


def test_a_failed_asset_step_stops_the_build_and_is_reported_to_every_asker(tmp_path, monkeypatch):
    steps, calls = [], []

    monkeypatch.setattr(site_build, "asset_step", failing_asset_step(steps))
    monkeypatch.setattr(site_build, "strict_build", lambda *args: calls.append(args))
    results = ask_at_once(tmp_path)
    assert len(steps) == 1 and not calls, (steps, calls)
    assert all(isinstance(r, AssertionError) and "softmax-curve" in str(r) for r in results)


def fake_shared_assets(asked: list):
    """Stands in for site_build.shared_assets (a real one is the cold asset step): a cache
    with an entry of each kind the fixture shares, and one it does not."""

    def assets(run_dir):
        asked.append(run_dir)
        seed = run_dir / "built" / "cache"
        for entry in ("figures/f-key", "data/key", "notebooks/key"):
            (seed / entry).mkdir(parents=True, exist_ok=True)
            (seed / entry / "made").write_text(entry, "utf-8")
        return seed

    return assets


def test_the_fixture_cache_is_warmed_once_from_the_shared_assets_and_every_asker_gets_it(
    tmp_path, monkeypatch
):
    calls, asked = [], []

    def fake_build(root, cache_dir):
        calls.append((root, cache_dir))
        assert (cache_dir / "figures/f-key/made").exists(), "built before the shared entries"
        (cache_dir / "entry").write_text("warm", "utf-8")

    monkeypatch.setattr(site_build, "shared_assets", fake_shared_assets(asked))
    monkeypatch.setattr(site_build, "fixture_build", fake_build)
    results = ask_at_once(tmp_path, ask_for=warm_fixture_cache)
    assert len(calls) == 1, calls
    assert asked == [tmp_path]
    root, cache_dir = calls[0]
    assert root.parent == cache_dir.parent == tmp_path / "fixture-cache"
    assert results == [cache_dir] * len(results)
    assert (cache_dir / "entry").read_text("utf-8") == "warm"
    # the code's entries are the real site's; the real site's notebooks are not the fixture's
    assert (cache_dir / "data/key/made").read_text("utf-8") == "data/key"
    assert not (cache_dir / "notebooks").exists()


def test_a_failed_fixture_warm_up_is_reported_to_every_asker_and_not_run_again(
    tmp_path, monkeypatch
):
    calls = []

    def failing_build(root, cache_dir):
        calls.append(root)
        raise AssertionError("fixture site build failed:\nERROR - a broken page")

    monkeypatch.setattr(site_build, "shared_assets", fake_shared_assets([]))
    monkeypatch.setattr(site_build, "fixture_build", failing_build)
    results = ask_at_once(tmp_path, ask_for=warm_fixture_cache)
    assert len(calls) == 1, calls
    assert all(isinstance(r, AssertionError) and "a broken page" in str(r) for r in results)


def test_a_failed_shared_asset_step_fails_the_fixture_cache_too(tmp_path, monkeypatch):
    steps, calls = [], []

    monkeypatch.setattr(site_build, "asset_step", failing_asset_step(steps))
    monkeypatch.setattr(site_build, "fixture_build", lambda *args: calls.append(args))
    results = ask_at_once(tmp_path, ask_for=warm_fixture_cache)
    results += ask_at_once(tmp_path)  # and the shared build's askers, after it: no new step
    assert len(steps) == 1 and not calls, (steps, calls)
    assert all(isinstance(r, AssertionError) and "softmax-curve" in str(r) for r in results)
