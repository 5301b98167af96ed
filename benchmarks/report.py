"""The bench's verdicts and tables: ratios to the note's script, targets, page weights.

:func:`verdicts` turns the measurements into ratios and pass/fail checks; :func:`print_report`
prints the tables (Markdown, pasted into README's bench section).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from grids import TARGET as AFTER_GRID_TARGET
from grids import TRAINING_TARGET
from runs import machine
from serve_loop import print_serve, serve_checks
from timeline import print_timeline

from attention_explained.sitebuild._internal.budgets import FIGURE_BYTES, PAGE_BYTES

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

TARGETS = {  # ratio to the baseline, the note's script
    # issue 29: the cold build as it now is (both grids, the initialisers' figure, a phone
    # layout and a card per figure), after 3.0× and then 3.5× for less work
    "cold": 4.5,
    "warm": 0.5,
    "page": 0.6,
    "rss": 1.2,
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


def verdicts(results: dict, weights: dict) -> dict:
    """The report written to JSON: ratios, peak RSS, weights and each target's check."""
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
    cold_limit = TARGETS["cold"]
    checks = {
        "cold": ratios["cold"] <= cold_limit,
        "warm": ratios["warm"] <= TARGETS["warm"],
        "page": ratios["page"] <= TARGETS["page"],
        "figure renders one figure": all(n == 1 for n in results["figure"]["figures_rendered"]),
        "rss": build_rss <= TARGETS["rss"] * results["baseline"]["rss_mb"],
        "page weight": max(weights["pages"].values()) <= PAGE_BYTES,
        "figure weight": max(weights["figures"].values()) <= FIGURE_BYTES,
    }
    if results.get("serve"):
        checks |= serve_checks(results["serve"])
    if results.get("phone"):
        checks["phone budgets"] = not results["phone"]["misses"]
    if results.get("explorer"):
        checks["explorer update"] = all(row["met"] for row in results["explorer"].values())
    return {
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "results": results,
        "ratios": ratios,
        "build_peak_rss_mb": build_rss,
        "weights": weights,
        "checks": checks,
        "load_average": os.getloadavg(),
    }


def print_report(report: dict, repeat: int, before: str | None) -> list[str]:
    """The tables on stdout; returns the names of the missed targets."""
    results, ratios, weights = report["results"], report["ratios"], report["weights"]
    build_rss = report["build_peak_rss_mb"]
    cold_limit = TARGETS["cold"]
    load = ", ".join(f"{x:.1f}" for x in report["load_average"])
    print(
        f"\nMachine: {report['machine']} ({report['date']}); median of {repeat} runs; "
        f"load average at the end {load} (other processes may have been running)\n"
    )
    print("× baseline: to the note's script timed right before each run (its median in brackets)\n")
    print("| run | median s | min–max s | peak RSS MB | × baseline | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    labels = {
        "baseline": "(a) the note's script",
        "cold": "(b) cold build",
        "cold_before": f"(b) cold build at {before} (before), interleaved with (b)",
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
            f"{t['min']:.1f}–{t['max']:.1f} | | | ≤ {TRAINING_TARGET:.0f} s |"
        )
    if results.get("after_training"):
        t = results["after_training"]
        print(
            f"| after-training grid (inside a cold build) | {t['seconds']:.1f} | "
            f"{t['min']:.1f}–{t['max']:.1f} | | | ≤ {AFTER_GRID_TARGET:.0f} s |"
        )
    print_timeline(results["cold"]["timeline"], repeat)
    if results.get("serve"):
        print_serve(results["serve"], results["baseline"]["seconds"])
    if results.get("phone"):
        print("\nFirst visit on a throttled phone (benchmarks/phone.py):")
        print(results["phone"]["table"])
        for line in results["phone"]["misses"]:
            print("  MISSED " + line)
    else:
        print("\nPhone / first visit: not measured (--phone-repeat 0, or no benchmarks/phone.py)")
    if results.get("explorer"):
        import explorer  # benchmarks/explorer.py

        print("\nExplorer update at its largest size (benchmarks/explorer.py):")
        print(explorer.table(results["explorer"]))
    if results.get("newcomer"):
        import newcomer  # benchmarks/newcomer.py

        print(
            "\nNewcomer: a fresh clone to the first page `make serve` serves, against the note's"
            " set-up (a venv, pip, its script):"
        )
        print(newcomer.table(results["newcomer"]))
    print(f"\nFigures re-rendered in (e): {results['figure']['figures_rendered']}")
    print(
        f"Build peak RSS {build_rss:.0f} MB = "
        f"{build_rss / results['baseline']['rss_mb']:.2f}× the baseline's "
        f"(target ≤ {TARGETS['rss']}×)"
    )
    largest_page = max(weights["pages"], key=weights["pages"].get)
    largest_fig = max(weights["figures"], key=weights["figures"].get)
    print(
        f"Largest page: {largest_page} {weights['pages'][largest_page] / 1000:.1f} kB "
        f"(≤ {PAGE_BYTES / 1000:.0f} kB); largest figure: {largest_fig} "
        f"{weights['figures'][largest_fig] / 1000:.1f} kB (≤ {FIGURE_BYTES / 1000:.0f} kB)"
    )
    print(f"Site total without theme assets: {weights['total_excluding_theme'] / 1e6:.2f} MB")
    print("\nPage HTML bytes:")
    for page, size in sorted(weights["pages"].items()):
        print(f"  {size:8d}  {page}")
    print("Figure bytes:")
    for fig, size in sorted(weights["figures"].items()):
        print(f"  {size:8d}  {fig}")
    failed = [name for name, ok in report["checks"].items() if not ok]
    print("\nTargets: " + ("all met" if not failed else "MISSED: " + ", ".join(failed)))
    return failed
