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
    PrefixHandler,
    QuietServer,
    Server,
    Session,
    find_chromium,
    is_local,
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


@pytest.fixture
def open_session(browser):
    """Factory: a fresh context (light unless told otherwise) and page, closed after the test."""
    contexts = []

    def open_(color_scheme: str = "light", *, console: bool = True, **options) -> Session:
        """``options`` go to ``new_context`` (viewport, touch, …); ``console``: record the
        page's console errors as well as its uncaught exceptions."""
        options = {"viewport": VIEWPORT, **options}
        context = browser.new_context(color_scheme=color_scheme, service_workers="block", **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        session = Session(context, page)

        def route(route):
            url = route.request.url
            if is_local(url):
                route.continue_()
            else:
                session.blocked.append(url)
                route.abort("blockedbyclient")

        context.route("**/*", route)

        def on_console(message):
            if message.type == "error":
                where = message.location.get("url", "") if message.location else ""
                session.errors.append(f"console: {message.text} [{where}]")

        if console:
            page.on("console", on_console)
        page.on("pageerror", lambda error: session.errors.append(f"pageerror: {error}"))
        return session

    yield open_
    for context in contexts:
        context.close()


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
