"""`make bench`: how long building the site takes, against the study note's own script.

All runs happen in one go on this machine, so the ratios hold even when it is noisy:

  (a) baseline  the note's script from ../shared/seed/ (plt.show() → savefig), project venv;
                also run right before every run of (b)–(e), and each ratio is to those
                paired runs, since a VM's speed drifts over the minutes a bench takes
  (b) cold      build with no .cache/ and no site/
  (c) warm      build again, nothing changed
  (d) page      build after editing one Markdown page
  (e) figure    build after editing one figure function
  timeline      where a cold build's time goes: the worker's stage lines
                (``attention-explained: stage <name> <s> s``: TF import, numbers, each figure's
                data and drawing, training, after-training grid, notebook kernel, notebooks)
                and MkDocs' own log (start-up, each language), each line time-stamped as read
  serve loop    `mkdocs serve` as an author uses it: time from a file edit to the rebuilt
                output ("Reloading browsers") and, with Playwright, to the change in a Chromium
                tab; for a page edit and a figure edit, next to a floor: the same pages served
                by bare Material + mkdocs-static-i18n without this project's plugin
  (f) phone     first visit of every page on a throttled phone (benchmarks/phone.py)

Each is repeated (default 3) and the median reported with peak RSS (largest process of the
run's tree). Builds run in a scratch copy of docs/, mkdocs.yml and the package (imported
first through PYTHONPATH), so the repository and its .cache/ are never touched.
Results: a table on stdout and JSON in benchmarks/results/latest.json.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
THEME_ASSETS = (
    "assets/javascripts/",
    "assets/stylesheets/main",
    "assets/stylesheets/palette",
    "assets/images/",
    "en/assets/javascripts/",
    "en/assets/stylesheets/main",
    "en/assets/stylesheets/palette",
    "en/assets/images/",
)
TARGETS = {  # ratio to the baseline (a)
    "cold": 3.0,  # issue 11
    "cold_with_after_grid": 3.5,  # issue 13: with the after-training grid
    "warm": 0.5,
    "page": 0.6,
    "rss": 1.2,
}
PAGE_BUDGET, FIGURE_BUDGET = 150_000, 120_000


def run(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB (largest process of the tree), and the output, whose last
    line is ``cpu <s>``: user + system CPU seconds of the whole process tree.

    Each output line is prefixed by the seconds since the start at which it was read
    (``"12.345\t<line>"``); :func:`plain` strips the stamps, :func:`timeline` reads them.
    """
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    lines = [f"{time.perf_counter() - start:.3f}\t{line}" for line in process.stdout]
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    output = "".join(lines) + f"{seconds:.3f}\tcpu {cpu:.3f}\n"
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{output[-4000:]}")
    return seconds, usage.ru_maxrss / 1024, output


def plain(output: str) -> str:
    return "".join(line.split("\t", 1)[-1] for line in output.splitlines(keepends=True))


STAGE = re.compile(r"attention-explained: stage (.+?) ([\d.]+) s$")
LANGUAGE = re.compile(r"Building '(\w+)' documentation to directory")
BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")


def timeline(output: str, total: float) -> list[dict]:
    """Where one build's time went: ``{"stage", "start", "end", "seconds"}`` rows.

    Worker and notebook stages come from their own timings, ending when their line was read;
    "mkdocs start-up" runs from the process start to the first language's i18n line, each
    language from its i18n line to the next one (the default language's pages, then the
    nested build of the next language) and the last one to "Documentation built".
    """
    rows, marks = [], []
    for line in output.splitlines():
        stamp, _, text = line.partition("\t")
        try:
            at = float(stamp)
        except ValueError:
            continue
        text = text.rstrip()
        if m := STAGE.search(text):
            seconds = float(m.group(2))
            rows.append({"stage": m.group(1), "start": at - seconds, "end": at, "seconds": seconds})
        elif m := LANGUAGE.search(text):
            marks.append((f"mkdocs {m.group(1)}", at))
        elif BUILT.search(text):
            marks.append(("end", at))
    if marks:
        rows.append({"stage": "mkdocs start-up (imports, config, cache keys)", "start": 0.0,
                     "end": marks[0][1], "seconds": marks[0][1]})  # fmt: skip
    for (name, at), (_, until) in itertools.pairwise(marks):
        rows.append({"stage": name, "start": at, "end": until, "seconds": until - at})
    rows.append({"stage": "total (process wall)", "start": 0.0, "end": total, "seconds": total})
    for row in rows:
        for key in ("start", "end", "seconds"):
            row[key] = round(row[key], 2)
    return sorted(rows, key=lambda r: (r["stage"].startswith("total"), r["start"]))


def median_timeline(runs: list[list[dict]]) -> list[dict]:
    """Per stage, the median start and duration over the runs (stages in first-run order)."""
    names = list(dict.fromkeys(row["stage"] for run in runs for row in run))
    rows = []
    for name in names:
        found = [row for run in runs for row in run if row["stage"] == name]
        rows.append({
            "stage": name,
            "start": round(statistics.median(r["start"] for r in found), 2),
            "seconds": round(statistics.median(r["seconds"] for r in found), 2),
            "runs": len(found),
        })  # fmt: skip
    return sorted(rows, key=lambda r: (r["stage"].startswith("total"), r["start"]))


def note_script(seed_dir: Path, image: Path) -> str:
    """The study note's code, verbatim except that the figure is saved instead of shown."""
    texts = sorted(seed_dir.glob("*.txt"))
    if not texts:
        raise SystemExit(f"no study note found in {seed_dir} (pass --seed-dir)")
    text = texts[0].read_text(encoding="utf-8")
    start, end = text.index("import tensorflow as tf"), text.index("plt.show()")
    return text[start:end] + f"plt.savefig({str(image)!r})\n"


SOURCES = ("docs", "mkdocs.yml", "CONTRIBUTING.md", "overrides", "attention_explained")


def checkout(ref: str, into: Path) -> Path:
    """The site's sources at git ``ref`` (for ``--before``), unpacked into ``into``."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", ref, *SOURCES], cwd=REPO, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


class Workspace:
    def __init__(self, root: Path, source: Path = REPO):
        self.root = root
        shutil.copytree(source / "docs", root / "docs")
        shutil.copy2(source / "mkdocs.yml", root / "mkdocs.yml")
        shutil.copy2(source / "CONTRIBUTING.md", root / "CONTRIBUTING.md")  # the term sheet
        shutil.copytree(source / "overrides", root / "overrides")
        shutil.copytree(
            source / "attention_explained",
            root / "attention_explained",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        self.env = dict(
            os.environ, PYTHONPATH=str(root), NO_MKDOCS_2_WARNING="1", TF_CPP_MIN_LOG_LEVEL="2"
        )
        self.env.pop("ATTENTION_EXPLAINED_CACHE", None)  # the workspace's own .cache/
        # "Open in Colab" installs the commit being built; the scratch copy is no checkout.
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
        )
        self.env.setdefault("GITHUB_SHA", head.stdout.strip())
        self.edits = 0

    def build(self) -> tuple[float, float, str]:
        return run([sys.executable, "-m", "mkdocs", "build", "--strict"], self.root, self.env)

    def clean(self) -> None:
        shutil.rmtree(self.root / ".cache", ignore_errors=True)
        shutil.rmtree(self.root / "site", ignore_errors=True)

    def touch(self, relative: str, comment: str) -> None:
        self.edits += 1
        with open(self.root / relative, "a", encoding="utf-8") as out:
            out.write(comment.format(n=self.edits))


PLUGIN_BLOCKS = ("  - attention-explained:", "  - mkdocs-jupyter:")
FIGURE_MODULE = "attention_explained/figures/temperature.py"  # drawn on scaled-dot-product
FIGURE_PAGE, EDIT_PAGE = "scaled-dot-product/", "glossary/"
FIGSIZE = re.compile(r"figsize=\(([\d.]+), ([\d.]+)\)")


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

    def __init__(self, root: Path, env: dict[str, str], timeout: float = 600):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = dict(env, SITE_URL=self.url)  # mkdocs.yml reads it: serve at the root
        self.lines: list[tuple[float, str]] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dev-addr",
             f"127.0.0.1:{self.port}"],
            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.wait_line("Serving on", 0, timeout)

    def _read(self) -> None:
        for line in self.process.stdout:
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
            if self.process.poll() is not None:
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


class Tab:
    """One Chromium tab through Playwright, or nothing if Playwright/Chromium is missing."""

    def __init__(self):
        self.page = None
        self._browser = contextlib.ExitStack()
        try:
            import playwright  # noqa: F401
        except ImportError:
            return
        from attention_explained.sitebuild.browser import NoChromium, launch

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
    showing the redrawn figure (its proportions change). The first edit, which starts the
    warm worker (TensorFlow import), is reported apart as ``first``."""
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
        time.sleep(1.0)
    return samples


def serve_loop(ws: Workspace, floor: Path, repeat: int) -> dict:
    """Page and figure edits under `mkdocs serve`, and the floor's page edits."""
    tab = Tab()
    result: dict = {"browser": tab.page is not None}
    try:
        served = Served(ws.root, ws.env)
        try:
            result["page"] = page_edits(served, tab, ws.root, repeat, 1000)
            result["figure"] = figure_edits(served, tab, ws.root, repeat)
            result["tf_imports"] = served.count("stage tf-import")
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


def cpu_seconds(output: str) -> float | None:
    found = re.findall(r"^[\d.]+\tcpu ([\d.]+)$", output, flags=re.M)
    return float(found[-1]) if found else None


def summarise(samples: list[tuple[float, float, str]]) -> dict:
    times = [s for s, _, _ in samples]
    cpus = [c for _, _, out in samples if (c := cpu_seconds(out)) is not None]
    return {
        "cpu_seconds": statistics.median(cpus) if cpus else None,
        "seconds": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "rss_mb": max(r for _, r, _ in samples),
        "runs": len(times),
    }


def page_weights(site: Path) -> dict:
    pages = {
        p.relative_to(site).as_posix(): p.stat().st_size
        for p in site.rglob("*.html")
        if p.name == "index.html"
    }
    figures = {
        p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("figures/*.svg")
    }
    total = sum(
        p.stat().st_size
        for p in site.rglob("*")
        if p.is_file() and not p.relative_to(site).as_posix().startswith(THEME_ASSETS)
    )
    return {"pages": pages, "figures": figures, "total_excluding_theme": total}


def training_seconds(env: dict[str, str], cwd: Path, repeat: int) -> dict | None:
    probe = (
        "import time\nfrom attention_explained import training\n"
        "if not hasattr(training, 'run_grid'): raise SystemExit(3)\n"
        "from attention_explained._tf import tf\n"
        "t = time.perf_counter(); training.run_grid()\n"
        "print('GRID', time.perf_counter() - t)\n"
    )
    found = []
    for _ in range(repeat):
        process = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if process.returncode == 3:
            return None
        match = re.search(r"GRID ([\d.]+)", process.stdout)
        if not match:
            raise SystemExit(f"training grid failed:\n{process.stderr[-3000:]}")
        found.append(float(match.group(1)))
    return {
        "seconds": statistics.median(found),
        "min": min(found),
        "max": max(found),
        "runs": repeat,
    }


def machine() -> str:
    cpu = ""
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        cpu = platform.processor()
    return (
        f"{cpu or 'unknown CPU'}, {os.cpu_count()} cores, {platform.system()}, "
        f"Python {platform.python_version()}"
    )


def phone_hook(site: Path, repeat: int) -> dict | None:
    """PHONE HOOK (issue 12, part 3): first visits on a throttled phone.

    ``benchmarks/phone.py`` (from another branch) provides ``measure_site(site, repeat=)``,
    ``table``, ``summary`` and ``check``; while it is not in this tree, or with
    ``--phone-repeat 0``, the bench says so and reports nothing for the phone.
    """
    if repeat <= 0 or not (Path(__file__).with_name("phone.py")).is_file():
        return None
    from dataclasses import asdict

    import phone  # benchmarks/phone.py

    visits = phone.measure_site(site, repeat=repeat)
    return {
        "visits": [asdict(v) for v in visits],
        "summary": phone.summary(visits),
        "table": phone.table(visits),
        "misses": phone.check(visits),
    }


def newcomer_hook(repeat: int) -> dict | None:
    """NEWCOMER HOOK (issue 22): a fresh clone to the first page `make serve` serves, with the
    machine's warm package caches (``benchmarks/newcomer.py``); ``--newcomer-repeat 0`` skips."""
    if repeat <= 0:
        return None
    import newcomer  # benchmarks/newcomer.py

    return newcomer.measure(REPO, repeat=repeat)


def print_timeline(rows: list[dict], runs: int) -> None:
    print(f"\nCold build, where the time goes (median of {runs} runs; start = seconds after")
    print("`mkdocs build` started, stages overlap: the worker, the notebook kernel and MkDocs")
    print("run side by side; a figure-draw line is read when the worker collects the drawing,")
    print("so its start is its end minus its duration and may be later than the real start)\n")
    print("| stage | start s | seconds |")
    print("| --- | ---: | ---: |")
    for row in rows:
        print(f"| {row['stage']} | {row['start']:.1f} | {row['seconds']:.2f} |")


def print_serve(serve: dict, runs: int) -> None:
    how = "a Chromium tab (Playwright)" if serve["browser"] else "no browser (Playwright missing)"
    print(f"\nServe loop (`mkdocs serve`, median of {runs} edits; seen in {how}):\n")
    print("| edit | to rebuilt output s | to the tab s | × floor | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    floor = serve_summary(serve["floor"], "tab") or serve_summary(serve["floor"], "rebuilt")
    key = "tab" if serve["browser"] else "rebuilt"
    rows = [
        ("page edit (docs/glossary.md)", serve["page"], "≤ 1.5 s"),
        ("figure edit (figures/temperature.py)", serve["figure"], "≤ 5 s"),
        ("first figure edit (starts the warm worker)",
         [dict(s, first=False) for s in serve["figure"] if s["first"]], ""),
        ("floor: page edit, bare Material + i18n", serve["floor"], ""),
    ]  # fmt: skip
    for label, samples, target in rows:
        rebuilt, tab = serve_summary(samples, "rebuilt"), serve_summary(samples, key)
        tab_s = "" if not serve["browser"] or tab is None else f"{tab['seconds']:.2f}"
        ratio = "" if tab is None or floor is None else f"{tab['seconds'] / floor['seconds']:.2f}"
        rebuilt_s = "" if rebuilt is None else f"{rebuilt['seconds']:.2f}"
        print(f"| {label} | {rebuilt_s} | {tab_s} | {ratio} | {target} |")
    print(f"TensorFlow imports while serving: {serve['tf_imports']} (the warm worker's one)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--runs", "--repeat", dest="repeat", type=int, default=3,
        help="runs per measurement (>= 3)",
    )  # fmt: skip
    parser.add_argument(
        "--before", metavar="REF",
        help="also time a cold build of git REF, interleaved with ours (before/after)",
    )  # fmt: skip
    parser.add_argument(
        "--no-serve", action="store_true", help="skip the serve-loop lines (no mkdocs serve)"
    )
    parser.add_argument(
        "--phone-repeat", type=int, default=3,
        help="throttled runs per page in benchmarks/phone.py (median); 0 = skip",
    )  # fmt: skip
    parser.add_argument(
        "--newcomer-repeat", type=int, default=3,
        help="fresh clones timed to the first served page (benchmarks/newcomer.py); 0 = skip",
    )  # fmt: skip
    seeds = [up / "shared" / "seed" for up in (REPO.parent, REPO.parent.parent)]  # worktrees
    parser.add_argument(
        "--seed-dir", type=Path, default=next((s for s in seeds if s.is_dir()), seeds[0])
    )
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/latest.json")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)
    if args.repeat < 3:
        parser.error(f"--repeat must be >= 3 so that a median means something, got {args.repeat}")

    with tempfile.TemporaryDirectory(prefix="ae-bench-") as scratch:
        ws = Workspace(Path(scratch))
        script = ws.root / "note_script.py"
        script.write_text(note_script(args.seed_dir, ws.root / "note.png"), encoding="utf-8")
        results: dict = {}
        steps = [
            ("baseline", lambda: run([sys.executable, str(script)], ws.root, ws.env), None),
            ("cold", ws.build, ws.clean),
            ("warm", ws.build, None),
            ("page", ws.build, lambda: ws.touch("docs/glossary.md", "\n<!-- bench edit {n} -->\n")),
            (
                "figure",
                ws.build,
                lambda: ws.touch(
                    "attention_explained/figures/temperature.py", "\n# bench edit {n}\n"
                ),
            ),
        ]
        old = None
        if args.before:  # the same cold build at another commit, interleaved with ours
            source = checkout(args.before, ws.root / "before-src")
            old = Workspace(ws.root / "before", source)
            old_samples = []
        baseline = steps[0][1]
        for name, action, before in steps:
            samples, paired = [], []
            for _ in range(args.repeat):
                if name != "baseline":  # the note's script right before: the same machine speed
                    paired.append(baseline()[0])
                if name == "cold" and old is not None:
                    old.clean()
                    old_samples.append(old.build())
                    print(f"  {'cold@' + args.before:9s} {old_samples[-1][0]:6.1f} s",
                          file=sys.stderr, flush=True)  # fmt: skip
                if before:
                    before()
                samples.append(action())
                print(f"  {name:9s} {samples[-1][0]:6.1f} s", file=sys.stderr, flush=True)
            results[name] = summarise(samples)
            if paired:
                results[name]["baseline_seconds"] = round(statistics.median(paired), 3)
            if name == "cold" and old is not None:
                results["cold_before"] = summarise(old_samples)
                results["cold_before"]["ref"] = args.before
                runs = [timeline(out, seconds) for seconds, _, out in old_samples]
                results["cold_before"]["timeline"] = median_timeline(runs)
            if name == "figure":
                rendered = [
                    int(m)
                    for _, _, out in samples
                    for m in re.findall(r"figures rendered (\d+)", plain(out))
                ]
                results[name]["figures_rendered"] = rendered
            if name == "cold":
                runs = [timeline(out, seconds) for seconds, _, out in samples]
                results[name]["timeline"] = median_timeline(runs)
                results[name]["timelines"] = runs
        results["training"] = training_seconds(ws.env, ws.root, args.repeat)
        from after_grid import after_grid_seconds  # benchmarks/after_grid.py

        results["after_training"] = after_grid_seconds(ws.env, ws.root, args.repeat)
        weights = page_weights(ws.root / "site")
        results["phone"] = phone_hook(ws.root / "site", args.phone_repeat)
        if not args.no_serve:
            results["serve"] = serve_loop(ws, make_floor(ws.root), args.repeat)

    results["newcomer"] = newcomer_hook(args.newcomer_repeat)
    base = results["baseline"]["seconds"]
    # Each ratio is to the note's script timed right before each of its runs (the machine's
    # speed drifts over a long bench); the interleaved "before" builds share cold's.
    if "cold_before" in results:
        results["cold_before"]["baseline_seconds"] = results["cold"]["baseline_seconds"]
    ratios = {
        k: results[k]["seconds"] / results[k].get("baseline_seconds", base)
        for k in ("cold", "cold_before", "warm", "page", "figure")
        if k in results
    }
    build_rss = max(results[k]["rss_mb"] for k in ("cold", "warm", "page", "figure"))
    cold_limit = TARGETS["cold_with_after_grid" if results["after_training"] else "cold"]
    checks = {
        "cold": ratios["cold"] <= cold_limit,
        "warm": ratios["warm"] <= TARGETS["warm"],
        "page": ratios["page"] <= TARGETS["page"],
        "figure renders one figure": all(n == 1 for n in results["figure"]["figures_rendered"]),
        "rss": build_rss <= TARGETS["rss"] * results["baseline"]["rss_mb"],
        "page weight": max(weights["pages"].values()) <= PAGE_BUDGET,
        "figure weight": max(weights["figures"].values()) <= FIGURE_BUDGET,
    }
    if results.get("phone"):
        checks["phone budgets"] = not results["phone"]["misses"]
    report = {
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "results": results,
        "ratios": ratios,
        "build_peak_rss_mb": build_rss,
        "weights": weights,
        "checks": checks,
        "load_average": os.getloadavg(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")

    load = ", ".join(f"{x:.1f}" for x in report["load_average"])
    print(
        f"\nMachine: {report['machine']} ({report['date']}); median of {args.repeat} runs; "
        f"load average at the end {load} (other processes may have been running)\n"
    )
    print("× baseline: to the note's script timed right before each run (its median in brackets)\n")
    print("| run | median s | min–max s | peak RSS MB | × baseline | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    labels = {
        "baseline": "(a) the note's script",
        "cold": "(b) cold build",
        "cold_before": f"(b) cold build at {args.before} (before), interleaved with (b)",
        "warm": "(c) warm build",
        "page": "(d) one page edited",
        "figure": "(e) one figure edited",
    }
    limits = {
        "cold": f"≤ {cold_limit}×",
        "cold_before": f"≤ {cold_limit}×",
        "warm": f"≤ {TARGETS['warm']}×",
        "page": f"≤ {TARGETS['page']}×",
        "figure": "1 figure re-rendered",
    }
    for key, label in labels.items():
        if key not in results:
            continue
        r = results[key]
        ratio = "1.00" if key == "baseline" else f"{ratios[key]:.2f}"
        if "baseline_seconds" in r:
            ratio += f" ({r['baseline_seconds']:.1f} s)"
        print(
            f"| {label} | {r['seconds']:.1f} | {r['min']:.1f}–{r['max']:.1f} | "
            f"{r['rss_mb']:.0f} | {ratio} | {limits.get(key, '')} |"
        )
    if results["training"]:
        t = results["training"]
        print(
            f"| training grid (inside a cold build) | {t['seconds']:.1f} | "
            f"{t['min']:.1f}–{t['max']:.1f} | | | ≤ 10 s |"
        )
    if results.get("after_training"):
        t = results["after_training"]
        print(
            f"| after-training grid (inside a cold build) | {t['seconds']:.1f} | "
            f"{t['min']:.1f}–{t['max']:.1f} | | | ≤ 15 s |"
        )
    print_timeline(results["cold"]["timeline"], args.repeat)
    if results.get("serve"):
        print_serve(results["serve"], args.repeat)
    if results.get("phone"):
        print("\nFirst visit on a throttled phone (benchmarks/phone.py):")
        print(results["phone"]["table"])
        for line in results["phone"]["misses"]:
            print("  MISSED " + line)
    else:
        print("\nPhone / first visit: not measured (--phone-repeat 0, or no benchmarks/phone.py)")
    if results.get("newcomer"):
        import newcomer  # benchmarks/newcomer.py

        print("\nNewcomer: a fresh clone to the first page `make serve` serves (warm caches):")
        print(newcomer.table(results["newcomer"]))
    print(f"\nFigures re-rendered in (e): {results['figure']['figures_rendered']}")
    print(
        f"Build peak RSS {build_rss:.0f} MB = "
        f"{build_rss / results['baseline']['rss_mb']:.2f}× the baseline's (target ≤ 1.2×)"
    )
    largest_page = max(weights["pages"], key=weights["pages"].get)
    largest_fig = max(weights["figures"], key=weights["figures"].get)
    print(
        f"Largest page: {largest_page} {weights['pages'][largest_page] / 1000:.1f} kB "
        f"(≤ 150 kB); largest figure: {largest_fig} "
        f"{weights['figures'][largest_fig] / 1000:.1f} kB (≤ 120 kB)"
    )
    print(f"Site total without theme assets: {weights['total_excluding_theme'] / 1e6:.2f} MB")
    print("\nPage HTML bytes:")
    for page, size in sorted(weights["pages"].items()):
        print(f"  {size:8d}  {page}")
    print("Figure bytes:")
    for fig, size in sorted(weights["figures"].items()):
        print(f"  {size:8d}  {fig}")
    failed = [name for name, ok in checks.items() if not ok]
    print("\nTargets: " + ("all met" if not failed else "MISSED: " + ", ".join(failed)))
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
