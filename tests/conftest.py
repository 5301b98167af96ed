"""Shared fixtures. Builds use a temporary cache shared by the session, never the repo's .cache/.

A test that builds a site, launches Chromium, creates a venv or runs a full experiment grid
must carry that need's marker (needs.py): the fixtures and helpers that do those things
check it, so `make test-fast` cannot silently grow slow.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import needs
import pytest
from browser_support import (
    TEST_ARGS,
    TIMEOUT_MS,
    VIEWPORT,
    PagePool,
    PrefixHandler,
    QuietServer,
    Server,
    Session,
    find_chromium,
    launch,
    no_browser,
    site_prefix,
    sync_playwright,
)
from site_build import BuiltSite, copy_package, shared_build, warm_fixture_cache

# -- the marker checks (needs.py) ---------------------------------------------------------
needs.install()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    needs.running.append(item)  # fixtures set up now run on behalf of this test


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    if needs.running and needs.running[-1] is item:
        needs.running.pop()


@pytest.fixture(scope="session")
def ae_cache(tmp_path_factory, run_dir) -> Path:
    """One asset cache for this session's fixture-site builds (the real site has its own),
    starting warm: a copy of the cache the run warms once (site_build.warm_fixture_cache:
    the real site's figures, numbers and verdicts, then a plain fixture-site build), so that
    neither pytest-xdist's workers nor the fixture draw every figure and compute the numbers
    again. A figure or number a test changes is made anew."""
    cache = tmp_path_factory.mktemp("ae-cache")
    shutil.copytree(warm_fixture_cache(run_dir), cache, dirs_exist_ok=True)
    return cache


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory) -> Path:
    """A folder shared by every process of this test run: under pytest-xdist, the parent of
    the workers' own temporary folders (one per run); without it, the session's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if "PYTEST_XDIST_WORKER" in os.environ else base


@pytest.fixture(scope="session")
def built_site(run_dir) -> BuiltSite:
    """The real site, one cold strict build for the whole run, however many workers read it
    (site_build.shared_build). Read it, never write into it: copy what a test must change."""
    return shared_build(run_dir)


@pytest.fixture
def package_copy(tmp_path) -> Path:
    """A copy of the package that a build imports first (PYTHONPATH), for editing safely."""
    return copy_package(tmp_path / "pkg")


# -- browser tests: the built site served under its prefix, and a system Chromium ----------


@pytest.fixture(scope="module")
def server(built_site) -> Iterator[Server]:
    prefix = site_prefix()
    handler = type("Handler", (PrefixHandler,), {"prefix": prefix})
    httpd = QuietServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(built_site.root))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{httpd.server_port}", prefix)
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    needs.require("browser")
    if sync_playwright is None:
        no_browser("Playwright for Python is not installed")
    if find_chromium() is None:
        no_browser("no Chromium found (CHROMIUM_PATH, chromium, google-chrome, /usr/bin/chromium)")
    with launch(TEST_ARGS) as browser:
        yield browser


@pytest.fixture(scope="module")
def page_pool(browser) -> Iterator[PagePool]:
    """The module's open pages, handed out afresh to each test (browser_support.PagePool)."""
    pool = PagePool(browser, TIMEOUT_MS)
    yield pool
    pool.close()


@pytest.fixture
def open_session(page_pool):
    """Factory: a session (context and page) in a new page's state, light unless told
    otherwise, given back to the pool after the test.

    ``options`` go to ``new_context`` (viewport, touch, …); ``console``: record the page's
    console errors as well as its uncaught exceptions; ``fresh``: a new context and page,
    closed after the test (for a test that must see Chromium's own first state)."""
    sessions: list[Session] = []

    def open_(
        color_scheme: str = "light", *, console: bool = True, fresh: bool = False, **options
    ) -> Session:
        options = {"viewport": VIEWPORT, **options}
        session = page_pool.take(color_scheme, console, fresh, options)
        sessions.append(session)
        return session

    yield open_
    for session in sessions:
        page_pool.give_back(session)  # never raises: a page it cannot reset is closed


@pytest.fixture(scope="session")
def content_values() -> dict[str, float]:
    """The build's numbers, unrounded (≈ 20 s once per session): what the claims read."""
    needs.require("grid")
    from attention_explained.content.pages import values

    return values()


@pytest.fixture(scope="session")
def content_numbers() -> dict[str, str]:
    """The build's numbers as the prose prints them (the same run as ``content_values``)."""
    needs.require("grid")
    from attention_explained.content.pages import compute

    return compute()


@pytest.fixture(scope="session")
def printed_value(content_numbers, content_values):
    """``printed_value(name)``: the unrounded value behind a printed number (a range prints
    low–high, but is judged on its value, e.g. the median over seeds)."""

    def value(name: str) -> float:
        assert name in content_numbers, name
        return content_values[name]

    return value


try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - reported by `axe` below
    Axe = None


@pytest.fixture(scope="module")
def axe():
    if Axe is None:
        # A missing test dependency is an install error, in CI and locally alike.
        pytest.fail(
            "axe-playwright-python is not installed: `.venv/bin/pip install -c constraints.txt "
            "-e '.[test]'`",
            pytrace=False,
        )
    return Axe()
