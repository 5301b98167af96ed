"""`mkdocs serve` as an author uses it, in a real tab: a page edit shows up, a figure edit
redraws that figure (its content, seen in the tab) through the asset step the rebuild runs,
and stopping serve, even while that step runs, leaves no process behind.

(click 8.2.2-8.3.x broke MkDocs' --livereload flag; this test is what proves the pinned
click works.)
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from site_build import make_site

pytestmark = [pytest.mark.browser, pytest.mark.site]

FIGURE = "logit-variance"  # the fixture page's figure
FIGSIZE = re.compile(r"figsize=\(([\d.]+), ([\d.]+)\)")
# Every wait below is on an event (a log line, a process exit, the tab's content). Its
# deadline only catches a hang: ten times the slowest run seen with both cores kept busy
# (a cold serve start ~60 s there; a figure redraw or a clean stop, well under 30 s).
DEADLINE = 600  # seconds
DEADLINE_MS = DEADLINE * 1000


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, what: str, timeout: float = DEADLINE):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _signals_as_in_a_terminal() -> None:
    """Ctrl-C reaches serve as it does in a terminal, even when the suite itself was started
    in the background by a shell, which starts its children with SIGINT ignored (Python then
    installs no KeyboardInterrupt handler, and the SIGINT case would wait out its deadline)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Serve:
    """The fixture site under `mkdocs serve`, importing an editable package copy; with
    ``cache``, the asset watcher beside it, as `make serve` runs them."""

    def __init__(self, root: Path, package: Path, log: Path, cache: Path | None = None):
        self.port = free_port()
        self.log = log
        env = dict(os.environ, PYTHONPATH=str(package), NO_MKDOCS_2_WARNING="1")
        self.watcher = None
        if cache is not None:
            self.watcher_log = log.with_name("watch.log")
            with open(self.watcher_log, "w", encoding="utf-8") as out:
                self.watcher = subprocess.Popen(
                    [sys.executable, "-m", "attention_explained", "assets", "watch",
                     "--cache-dir", str(cache), "--docs", str(root / "docs")],
                    cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
            wait_for(lambda: "assets: up to date" in self.watched(), "the watcher's first run")
        with open(log, "w", encoding="utf-8") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dev-addr",
                 f"127.0.0.1:{self.port}"],
                cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=_signals_as_in_a_terminal,
            )  # fmt: skip
        self.url = f"http://127.0.0.1:{self.port}/fixture/"
        wait_for(lambda: "Serving on" in self.read() or self.process.poll() is not None, "serve")
        assert self.process.poll() is None, self.read()

    def read(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def watched(self) -> str:
        return self.watcher_log.read_text(encoding="utf-8", errors="replace")

    def rebuilds(self) -> int:
        return self.read().count("figures rendered")

    def stop(self, signum: int) -> set[int]:
        """Stop serve with ``signum``; return the processes it had started."""
        below = descendants(self.process.pid)
        self.process.send_signal(signum)
        self.process.wait(timeout=DEADLINE)
        return below


def edit_figure_code(package: Path) -> None:
    """Make the figure one unit shorter: a change of its drawing code, visible in the tab."""
    module = package / "attention_explained/figures" / (FIGURE.replace("-", "_") + ".py")
    source = module.read_text(encoding="utf-8")
    width, height = FIGSIZE.search(source).groups()
    edited = FIGSIZE.sub(f"figsize=({width}, {float(height) - 1})", source, count=1)
    module.write_text(edited, encoding="utf-8")


@pytest.fixture
def served(tmp_path, ae_cache, package_copy):
    """`mkdocs serve` alone: a rebuild that finds the assets stale runs the asset step."""
    root = make_site(tmp_path / "site", ae_cache)
    serve = Serve(root, package_copy, tmp_path / "serve.log")
    try:
        yield root, package_copy, serve
    finally:
        if serve.process.poll() is None:
            serve.process.kill()
            serve.process.wait()


@pytest.fixture
def served_and_watched(tmp_path, ae_cache, package_copy):
    """`make serve`: the asset watcher, then `mkdocs serve` beside it."""
    root = make_site(tmp_path / "site", ae_cache)
    serve = Serve(root, package_copy, tmp_path / "serve.log", cache=ae_cache)
    try:
        yield root, package_copy, serve
    finally:
        for process in (serve.process, serve.watcher):
            if process.poll() is None:
                process.kill()
                process.wait()


RATIO = f"""() => {{
    const img = [...document.images].find(i => i.src.includes('{FIGURE}.svg'));
    return img && img.complete && img.naturalWidth ? img.naturalHeight / img.naturalWidth : null;
}}"""


def test_page_and_figure_edits_show_in_the_tab(served_and_watched, open_session):
    """As under `make serve`: each figure edit is drawn by the watcher's warm run, which the
    rebuild waits for; no rebuild runs the asset step itself."""
    root, package, serve = served_and_watched
    session = open_session()
    page = session.page
    page.goto(serve.url)
    assert page.locator("h1").inner_text() == "고정 사이트"
    assert "livereload" in page.content(), "mkdocs serve must inject its live-reload script"

    index = root / "docs/index.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace("# 고정 사이트", "# 바뀐 제목"), encoding="utf-8"
    )
    page.wait_for_function(
        "() => document.querySelector('h1')?.innerText === '바뀐 제목'", timeout=DEADLINE_MS
    )
    # Unchanged pages reuse their search entries; the edited one is indexed again.
    index_json = page.request.get(serve.url + "search/search_index.json").json()
    titles = {doc["location"]: doc["title"] for doc in index_json["docs"]}
    assert titles[""] == "바뀐 제목", titles
    assert re.search(r"search entries reused [1-9]", serve.read()), serve.read()

    page.wait_for_function(RATIO, timeout=DEADLINE_MS)
    before_ratio, before_rebuilds = page.evaluate(RATIO), serve.rebuilds()
    edit_figure_code(package)
    # The tab shows the redrawn figure: its proportions follow the edited figsize.
    page.wait_for_function(f"() => ({RATIO})() !== null && ({RATIO})() < {before_ratio} - 0.05",
                           timeout=DEADLINE_MS)  # fmt: skip
    assert serve.rebuilds() > before_rebuilds
    rendered = re.findall(r"figures rendered (\d+)", serve.read())[-1]
    assert int(rendered) == 1, serve.read()

    # Again: the tab shows the second edit too (the drawing is of the code as it is now).
    after_first = page.evaluate(RATIO)
    edit_figure_code(package)
    page.wait_for_function(f"() => ({RATIO})() !== null && ({RATIO})() < {after_first} - 0.05",
                           timeout=DEADLINE_MS)  # fmt: skip
    wait_for(lambda: serve.rebuilds() > before_rebuilds + 1, "a second figure rebuild")
    # The Korean page changed; the English one came from the last rebuild's HTML.
    assert re.search(r"pages reused [1-9]", serve.read()), serve.read()
    log = serve.read()
    assert log.count("waited for the asset watcher's run") >= 2, log
    assert "running the asset step first" not in log, log
    assert serve.watched().count("figure logit-variance drawn") == 2, serve.watched()
    session.assert_clean()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_stopping_serve_leaves_no_process_behind(served, signum, tmp_path):
    _, package, serve = served
    before = serve.read().count("running the asset step first")
    # A change no other test made (so its figure is not cached): the rebuild runs the asset
    # step, whose drawing of the figure waits for a file that appears only after the check
    # below, so only stopping serve can end it; serve is stopped while it waits.
    release = tmp_path / "release"
    module = package / "attention_explained/figures" / (FIGURE.replace("-", "_") + ".py")
    head = "def draw(data, lang: str, theme: str):\n"
    source = module.read_text("utf-8")
    assert source.count(head) == 1
    wait = (
        "    import os as _o, time as _t\n"
        f"    while not _o.path.exists({str(release)!r}):\n"
        "        _t.sleep(0.05)\n"
    )
    module.write_text(source.replace(head, f"{head}{wait}"), encoding="utf-8")
    try:
        wait_for(
            lambda: (
                serve.read().count("running the asset step first") > before
                and len(descendants(serve.process.pid)) > 1
            ),  # the step and a drawing process
            "the asset step to start drawing",
        )
        started = serve.stop(signum)
        assert started, "the asset step should have been running"
        wait_for(lambda: not any(alive(p) for p in started), "every child to exit")
    finally:
        release.touch()  # whatever is left (a failure) can finish
