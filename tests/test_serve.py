"""`mkdocs serve` as an author uses it: live reload fires in a real tab, and editing a
figure's code re-renders that figure alone.

(click 8.2.2-8.3.x broke MkDocs' --livereload flag; this test is what proves the pinned
click works.)
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest
from test_browser import browser, open_session  # noqa: F401  (fixtures)
from test_mkdocs_plugin import REPO, make_site

from attention_explained.figures import FIGURE_IDS

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.fixture
def served(tmp_path):
    """The fixture site served by `mkdocs serve` with a package copy it watches."""
    package = tmp_path / "pkg"
    shutil.copytree(
        REPO / "attention_explained",
        package / "attention_explained",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    root = make_site(tmp_path / "site")
    port = free_port()
    log = tmp_path / "serve.log"
    env = dict(os.environ, PYTHONPATH=str(package), NO_MKDOCS_2_WARNING="1")
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "serve",
                "--livereload",
                "--dev-addr",
                f"127.0.0.1:{port}",
            ],
            cwd=root,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    read = lambda: log.read_text(encoding="utf-8", errors="replace")  # noqa: E731
    try:
        wait_for(lambda: "Serving on" in read() or process.poll() is not None, 180, "serve")
        assert process.poll() is None, read()
        yield root, package, f"http://127.0.0.1:{port}/fixture/", read
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_live_reload_and_figure_edits(served, open_session):  # noqa: F811
    root, package, url, read = served
    session = open_session()
    page = session.page
    page.goto(url)
    assert page.locator("h1").inner_text() == "고정 사이트"
    assert "livereload" in page.content(), "mkdocs serve must inject its live-reload script"

    index = root / "docs/index.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace("# 고정 사이트", "# 바뀐 제목"), encoding="utf-8"
    )
    page.wait_for_function(
        "() => document.querySelector('h1')?.innerText === '바뀐 제목'", timeout=120_000
    )

    before = len(re.findall(r"figures rendered", read()))
    module = package / "attention_explained/figures/temperature.py"
    module.write_text(
        module.read_text(encoding="utf-8") + "\n# edited while serving\n", encoding="utf-8"
    )
    wait_for(lambda: len(re.findall(r"figures rendered", read())) > before, 180, "a rebuild")
    rendered, cached = re.findall(r"figures rendered (\d+), from cache (\d+)", read())[-1]
    assert (int(rendered), int(cached)) == (1, len(FIGURE_IDS) - 1)
    page.wait_for_load_state()
    session.assert_clean()
