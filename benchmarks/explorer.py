"""The explorer's update time at its largest size, in Chromium: the widget's own clock.

Each click on "new sample" at n = 64, d_k = 4096 redraws A and B, redoes A·Bᵀ, the softmax
statistics and the heatmap; the page records how long that took (``aeExplorer.state
.lastUpdateMs``). The target is a median under 50 ms per language. A timing, so it lives in
`make bench`, not in the tests (they check that the update happens and is reported).

Run alone: ``python benchmarks/explorer.py [--site site] [--clicks 15]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import phone  # benchmarks/phone.py: the site server and Chromium

from attention_explained.settings import LANGS

TARGET_MS = 50.0
LARGEST = {"length": 64, "dim": 4096}


def _page_url(base: str, lang: str) -> str:
    return f"{base}explorer/" if lang == LANGS[0] else f"{base}{lang}/explorer/"


def update_times(browser, url: str, clicks: int) -> list[float]:
    """Milliseconds per update after `clicks` new samples at the largest size."""
    page = browser.new_page()
    try:
        page.goto(url, wait_until="networkidle")
        page.wait_for_function("() => window.aeExplorer && aeExplorer.state.stats")
        for control in LARGEST:
            page.locator(f"#ae-explorer-{control}").focus()
            page.keyboard.press("End")
        state = page.evaluate("() => aeExplorer.state")
        if (state["length"], state["dim"]) != tuple(LARGEST.values()):
            raise RuntimeError(f"explorer at {url} did not reach its largest size: {state}")
        times = []
        for _ in range(clicks):
            draws = page.evaluate("() => aeExplorer.state.draws")
            page.click("#ae-explorer-new-sample")
            page.wait_for_function(f"() => aeExplorer.state.draws > {draws}")
            times.append(float(page.evaluate("() => aeExplorer.state.lastUpdateMs")))
        return times
    finally:
        page.close()


def measure(site: Path, clicks: int = 15) -> dict:
    """Median update time per language, with every sample and whether it meets the target."""
    results = {}
    with phone.serve(site, phone.site_prefix()) as base, phone.chromium() as browser:
        for lang in LANGS:
            times = update_times(browser, _page_url(base, lang), clicks)
            median = statistics.median(times)
            results[lang] = {"median_ms": median, "times_ms": times, "met": median < TARGET_MS}
    return results


def table(results: dict) -> str:
    rows = ["| explorer update, n = 64, dₖ = 4096 | median ms | target |", "|---|---|---|"]
    for lang, row in results.items():
        rows.append(f"| {lang} | {row['median_ms']:.1f} | < {TARGET_MS:.0f} ms |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", type=Path, default=phone.REPO / "site")
    parser.add_argument("--clicks", type=int, default=15, help="updates timed per language")
    parser.add_argument("--json", type=Path, help="write the samples as JSON here")
    args = parser.parse_args(argv)
    if args.clicks < 1:
        parser.error(f"--clicks must be >= 1, got {args.clicks}")
    if not (args.site / "explorer" / "index.html").is_file():
        parser.error(f"--site {args.site} has no built explorer page: run `make build` first")
    results = measure(args.site, args.clicks)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0 if all(row["met"] for row in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
