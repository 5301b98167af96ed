"""The serve loop: `mkdocs serve` as an author uses it.

The time from a file edit to the rebuilt output ("Reloading browsers") and, with Playwright,
to the change in a Chromium tab; for a page edit and a figure edit, next to a floor: the
same pages served by bare Material + mkdocs-static-i18n without this project's plugin.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from runs import REPO, Workspace

PLUGIN_BLOCKS = ("  - attention-explained:", "  - mkdocs-jupyter:")

FIGURE_MODULE = "attention_explained/figures/temperature.py"  # drawn on scaled-dot-product

FIGURE_PAGE, EDIT_PAGE = "scaled-dot-product/", "glossary/"

# Between two figure edits, the time an author takes to look at the redrawn figure and edit
# again; the watcher's next standby (TensorFlow imported, drawing processes up: ~5 s of CPU)
# is ready well within it. An edit that comes sooner waits for the rest of that warm-up.
FIGURE_GAP = 15  # seconds

FIGSIZE = re.compile(r"figsize=\(([\d.]+), ([\d.]+)\)")

# issue 29: seconds from saving the file to the change in the tab (medians; the first figure
# edit of a session on its own)
TARGETS = {"page": 1.5, "figure": 5.0}


def floor_config(text: str) -> str:
    """mkdocs.yml for the floor: Material + mkdocs-static-i18n (+ search), without this
    project's plugin, mkdocs-jupyter, the hooks file or the template overrides."""
    out, skipping = [], None  # None, "plugin" (one list item) or "top" (a top-level key)
    for line in text.splitlines():
        top = bool(line.strip()) and not line.startswith((" ", "#"))
        if top or (skipping == "plugin" and line.startswith("  - ")):
            skipping = None
        if line.rstrip() in PLUGIN_BLOCKS:
            skipping = "plugin"
        elif line.startswith("hooks:"):
            skipping = "top"
        if skipping or line.strip().startswith("custom_dir:"):
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def make_floor(root: Path) -> Path:
    """A scratch copy of docs/ (placeholders and figure lines left as text) for the floor."""
    floor = root / "floor"
    shutil.copytree(REPO / "docs", floor / "docs")
    config = floor_config((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    (floor / "mkdocs.yml").write_text(config, encoding="utf-8")
    return floor


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """`mkdocs serve` in ``root``; every log line time-stamped as it is read."""

    def __init__(self, root: Path, env: dict[str, str], timeout: float = 600, watch=False):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = dict(env, SITE_URL=self.url)  # mkdocs.yml reads it: serve at the root
        self.lines: list[tuple[float, str]] = []
        self.process = self.watcher = None
        if watch:  # as `make serve` runs it: the asset watcher beside mkdocs serve
            self.watcher = subprocess.Popen(
                [sys.executable, "-m", "attention_explained", "assets", "watch"],
                cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            )  # fmt: skip
            threading.Thread(target=self._read, args=(self.watcher,), daemon=True).start()
            self.wait_line("assets: up to date", 0, timeout)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dev-addr",
             f"127.0.0.1:{self.port}"],
            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        self.reader.start()
        self.wait_line("Serving on", 0, timeout)

    def _read(self, process) -> None:
        for line in process.stdout:
            self.lines.append((time.perf_counter(), line.rstrip()))

    def count(self, text: str) -> int:
        return sum(text in line for _, line in list(self.lines))

    def wait_line(self, text: str, seen: int, timeout: float) -> float:
        """The time at which the ``seen + 1``-th line containing ``text`` was read."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            hits = [at for at, line in list(self.lines) if text in line]
            if len(hits) > seen:
                return hits[seen]
            if any(p.poll() is not None for p in (self.process, self.watcher) if p):
                break
            time.sleep(0.02)
        log = "\n".join(line for _, line in self.lines[-60:])
        raise SystemExit(f"mkdocs serve: no {text!r} line within {timeout:.0f} s:\n{log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=5)
        if self.watcher is not None:
            self.watcher.terminate()
            self.watcher.wait(timeout=60)


class Tab:
    """One Chromium tab through Playwright, or nothing if Playwright/Chromium is missing."""

    def __init__(self):
        self.page = None
        self._browser = contextlib.ExitStack()
        try:
            import playwright  # noqa: F401
        except ImportError:
            return
        from attention_explained.edition.browser import NoChromium, launch

        try:
            self.page = self._browser.enter_context(launch()).new_page()
        except NoChromium:
            return

    def wait(self, expression: str, timeout: float) -> float | None:
        """The time at which ``expression`` became true in the tab (polled every 20 ms)."""
        if self.page is None:
            return None
        try:
            self.page.wait_for_function(expression, timeout=timeout * 1000, polling=20)
        except Exception as exc:  # a timeout: reported as a missing tab time, not a crash
            print(f"  tab: {str(exc).splitlines()[0]}", file=sys.stderr, flush=True)
            return None
        return time.perf_counter()

    def close(self) -> None:
        self._browser.close()


IMAGE_RATIO = """() => {
    const img = [...document.images].find(i => i.src.includes('/figures/temperature.svg'));
    if (!img) return null;
    const fold = img.closest('details');  // the figure sits in a folded block
    if (fold && !fold.open) fold.open = true;
    if (!img.complete || !img.naturalWidth) { img.scrollIntoView(); return null; }  // lazy
    return img.naturalHeight / img.naturalWidth;
}"""


def _edit_page(root: Path, n: int) -> str:
    marker = f"bench-edit-{n}-{os.getpid()}"
    with open(root / "docs/glossary.md", "a", encoding="utf-8") as out:
        out.write(f"\n\n{marker}\n")
    return marker


def page_edits(served: Served, tab: Tab, root: Path, repeat: int, first: int) -> list[dict]:
    """Edit docs/glossary.md ``repeat`` times; seconds to the reload and to the tab."""
    samples = []
    if tab.page is not None:
        tab.page.goto(served.url + EDIT_PAGE)
    for n in range(first, first + repeat):
        seen = served.count("Reloading browsers")
        start = time.perf_counter()
        marker = _edit_page(root, n)
        shown = tab.wait(f"() => !!document.body?.innerText.includes({marker!r})", 120)
        rebuilt = served.wait_line("Reloading browsers", seen, 120)
        samples.append({
            "rebuilt": round(rebuilt - start, 3),
            "tab": None if shown is None else round(shown - start, 3),
        })  # fmt: skip
        print(f"  serve page  {samples[-1]}", file=sys.stderr, flush=True)
        time.sleep(1.0)  # let the livereload poll settle before the next edit
    return samples


def figure_edits(served: Served, tab: Tab, root: Path, repeat: int) -> list[dict]:
    """Shorten the temperature figure ``repeat`` times; seconds to the reload and to the tab
    showing the redrawn figure (its proportions change). The first edit of the session is
    reported apart as ``first``."""
    samples = []
    if tab.page is not None:
        tab.page.goto(served.url + FIGURE_PAGE)
        tab.wait(f"() => ({IMAGE_RATIO})() !== null", 60)
    module = root / FIGURE_MODULE
    for n in range(repeat + 1):
        before = tab.page.evaluate(IMAGE_RATIO) if tab.page is not None else None
        seen = served.count("Reloading browsers")
        source = module.read_text(encoding="utf-8")
        width, height = FIGSIZE.search(source).groups()
        start = time.perf_counter()
        module.write_text(
            FIGSIZE.sub(f"figsize=({width}, {float(height) - 0.2:.1f})", source, count=1),
            encoding="utf-8",
        )
        shown = None
        if before is not None:
            ratio = f"({IMAGE_RATIO})()"
            limit = before - 0.005
            expression = f"() => {{ const r = {ratio}; return r !== null && r < {limit}; }}"
            shown = tab.wait(expression, 300)
        rebuilt = served.wait_line("Reloading browsers", seen, 300)
        samples.append({
            "rebuilt": round(rebuilt - start, 3),
            "tab": None if shown is None else round(shown - start, 3),
            "first": n == 0,
        })  # fmt: skip
        print(f"  serve figure {samples[-1]}", file=sys.stderr, flush=True)
        time.sleep(FIGURE_GAP)
    return samples


def serve_loop(ws: Workspace, floor: Path, repeat: int) -> dict:
    """Page and figure edits under `mkdocs serve`, and the floor's page edits."""
    tab = Tab()
    result: dict = {"browser": tab.page is not None, "edits": repeat}
    try:
        served = Served(ws.root, ws.env, watch=True)
        try:
            result["page"] = page_edits(served, tab, ws.root, repeat, 1000)
            result["figure"] = figure_edits(served, tab, ws.root, repeat)
            result["cold_steps"] = served.count("running the asset step first")
            result["waited"] = served.count("waited for the asset watcher's run")
        finally:
            served.stop()
        env = {k: v for k, v in ws.env.items() if k != "PYTHONPATH"}
        served = Served(floor, env)
        try:
            result["floor"] = page_edits(served, tab, floor, repeat, 2000)
        finally:
            served.stop()
    finally:
        tab.close()
    return result


def serve_summary(samples: list[dict], key: str) -> dict | None:
    values = [s[key] for s in samples if s.get(key) is not None and not s.get("first")]
    if not values:
        return None
    return {"seconds": statistics.median(values), "min": min(values), "max": max(values)}


def serve_checks(serve: dict) -> dict[str, bool]:
    """Each serve-loop target (TARGETS) met? The targets are to the tab: without a browser
    they are not checked, which fails; an edit the tab never showed fails its check."""
    if not serve["browser"]:
        return {"serve loop seen in a tab (Playwright and Chromium)": False}

    def met(samples: list[dict], limit: float) -> bool:
        tabs = [s["tab"] for s in samples]
        return bool(tabs) and None not in tabs and statistics.median(tabs) <= limit

    first = [s for s in serve["figure"] if s["first"]]
    later = [s for s in serve["figure"] if not s["first"]]
    return {
        "serve page edit": met(serve["page"], TARGETS["page"]),
        "serve figure edit": met(later, TARGETS["figure"]),
        "serve first figure edit": met(first, TARGETS["figure"]),
    }


def print_serve(serve: dict, baseline_seconds: float) -> None:
    how = "a Chromium tab (Playwright)" if serve["browser"] else "no browser (Playwright missing)"
    print(f"\nServe loop (`mkdocs serve`, median of {serve['edits']} edits; seen in {how}):\n")
    print("| edit | to rebuilt output s | to the tab s | × floor | × the note's script | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    floor = serve_summary(serve["floor"], "tab") or serve_summary(serve["floor"], "rebuilt")
    key = "tab" if serve["browser"] else "rebuilt"
    rows = [
        ("page edit (docs/glossary.md)", serve["page"], f"≤ {TARGETS['page']} s"),
        ("figure edit (figures/temperature.py)", serve["figure"], f"≤ {TARGETS['figure']:.0f} s"),
        ("first figure edit of the session",
         [dict(s, first=False) for s in serve["figure"] if s["first"]],
         f"≤ {TARGETS['figure']:.0f} s"),
        ("floor: page edit, bare Material + i18n", serve["floor"], ""),
    ]  # fmt: skip
    for label, samples, target in rows:
        rebuilt, tab = serve_summary(samples, "rebuilt"), serve_summary(samples, key)
        tab_s = "" if not serve["browser"] or tab is None else f"{tab['seconds']:.2f}"
        ratio = "" if tab is None or floor is None else f"{tab['seconds'] / floor['seconds']:.2f}"
        rebuilt_s = "" if rebuilt is None else f"{rebuilt['seconds']:.2f}"
        note = "" if tab is None else f"{tab['seconds'] / baseline_seconds:.2f}"
        print(f"| {label} | {rebuilt_s} | {tab_s} | {ratio} | {note} | {target} |")
    print(
        f"Rebuilds that waited for the watcher's warm run: {serve['waited']}; "
        f"that ran a cold asset step themselves: {serve['cold_steps']}"
    )
