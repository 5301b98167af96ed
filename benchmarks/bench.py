"""`make bench`: how long building the site takes, against the study note's own script.

All runs happen in one go on this machine, so the ratios hold even when it is noisy:

  (a) baseline  the note's script from ../shared/seed/ (plt.show() → savefig), project venv
  (b) cold      build with no .cache/ and no site/
  (c) warm      build again, nothing changed
  (d) page      build after editing one Markdown page
  (e) figure    build after editing one figure function

Each is repeated (default 3) and the median reported with peak RSS (largest process of the
run's tree). Builds run in a scratch copy of docs/, mkdocs.yml and the package (imported
first through PYTHONPATH), so the repository and its .cache/ are never touched.
Results: a table on stdout and JSON in benchmarks/results/latest.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
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
    "cold": 3.0,
    "cold_with_training": 4.0,
    "warm": 0.5,
    "page": 0.6,
    "rss": 1.2,
}
PAGE_BUDGET, FIGURE_BUDGET = 150_000, 120_000


def run(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB (largest process of the tree), and the output."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{output[-4000:]}")
    return seconds, usage.ru_maxrss / 1024, output


def note_script(seed_dir: Path, image: Path) -> str:
    """The study note's code, verbatim except that the figure is saved instead of shown."""
    texts = sorted(seed_dir.glob("*.txt"))
    if not texts:
        raise SystemExit(f"no study note found in {seed_dir} (pass --seed-dir)")
    text = texts[0].read_text(encoding="utf-8")
    start, end = text.index("import tensorflow as tf"), text.index("plt.show()")
    return text[start:end] + f"plt.savefig({str(image)!r})\n"


class Workspace:
    def __init__(self, root: Path):
        self.root = root
        shutil.copytree(REPO / "docs", root / "docs")
        shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
        shutil.copytree(REPO / "overrides", root / "overrides")
        shutil.copytree(
            REPO / "attention_explained",
            root / "attention_explained",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        self.env = dict(
            os.environ, PYTHONPATH=str(root), NO_MKDOCS_2_WARNING="1", TF_CPP_MIN_LOG_LEVEL="2"
        )
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


def summarise(samples: list[tuple[float, float, str]]) -> dict:
    times = [s for s, _, _ in samples]
    return {
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (>= 3)")
    parser.add_argument("--seed-dir", type=Path, default=REPO.parent / "shared" / "seed")
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
        for name, action, before in steps:
            samples = []
            for _ in range(args.repeat):
                if before:
                    before()
                samples.append(action())
                print(f"  {name:9s} {samples[-1][0]:6.1f} s", file=sys.stderr, flush=True)
            results[name] = summarise(samples)
            if name == "figure":
                rendered = [
                    int(m)
                    for _, _, out in samples
                    for m in re.findall(r"figures rendered (\d+)", out)
                ]
                results[name]["figures_rendered"] = rendered
        results["training"] = training_seconds(ws.env, ws.root, args.repeat)
        from after_grid import after_grid_seconds  # benchmarks/after_grid.py

        results["after_training"] = after_grid_seconds(ws.env, ws.root, args.repeat)
        weights = page_weights(ws.root / "site")

    base = results["baseline"]["seconds"]
    ratios = {k: results[k]["seconds"] / base for k in ("cold", "warm", "page", "figure")}
    build_rss = max(results[k]["rss_mb"] for k in ("cold", "warm", "page", "figure"))
    checks = {
        "cold": ratios["cold"]
        <= (TARGETS["cold_with_training"] if results["training"] else TARGETS["cold"]),
        "warm": ratios["warm"] <= TARGETS["warm"],
        "page": ratios["page"] <= TARGETS["page"],
        "figure renders one figure": all(n == 1 for n in results["figure"]["figures_rendered"]),
        "rss": build_rss <= TARGETS["rss"] * results["baseline"]["rss_mb"],
        "page weight": max(weights["pages"].values()) <= PAGE_BUDGET,
        "figure weight": max(weights["figures"].values()) <= FIGURE_BUDGET,
    }
    report = {
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "results": results,
        "ratios": ratios,
        "build_peak_rss_mb": build_rss,
        "weights": weights,
        "checks": checks,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")

    cold_limit = TARGETS["cold_with_training"] if results["training"] else TARGETS["cold"]
    print(f"\nMachine: {report['machine']} ({report['date']}); median of {args.repeat} runs\n")
    print("| run | median s | min–max s | peak RSS MB | × baseline | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    labels = {
        "baseline": "(a) the note's script",
        "cold": "(b) cold build",
        "warm": "(c) warm build",
        "page": "(d) one page edited",
        "figure": "(e) one figure edited",
    }
    limits = {
        "cold": f"≤ {cold_limit}×",
        "warm": f"≤ {TARGETS['warm']}×",
        "page": f"≤ {TARGETS['page']}×",
        "figure": "1 figure re-rendered",
    }
    for key, label in labels.items():
        r = results[key]
        ratio = "1.00" if key == "baseline" else f"{ratios[key]:.2f}"
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
