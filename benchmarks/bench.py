"""`make bench`: how long building the site takes, against the study note's own script.

All runs happen in one go on this machine, so the ratios hold even when it is noisy:

  builds      (a) the note's script, paired with each run of (b) cold, (c) warm, (d) one page
              edited, (e) one figure edited (builds.py)
  grids       the training and after-training grids alone (grids.py)
  timeline    where a cold build's time goes (timeline.py)
  serve loop  `mkdocs serve`: an edit to the rebuilt output and to a Chromium tab, next to a
              floor of bare Material + mkdocs-static-i18n (serve_loop.py)
  (f) phone   first visit of every page on a throttled phone (phone.py)
  explorer    the explorer's update time at its largest size, in Chromium (explorer.py)
  newcomer    a fresh clone (empty package caches) to the first page `make serve` serves,
              against the note's own set-up: a venv, pip, its script (newcomer.py)

Each is repeated (default 3) and the median reported with peak RSS (largest process of the
run's tree). Builds run in a scratch copy (runs.Workspace), so the repository and its .cache/
are never touched. Results: tables on stdout (report.py) and JSON in
benchmarks/results/latest.json.

A new measurement: a function in a module beside this one that takes the workspace (or the
built site) and returns a dict (or None when it cannot run here), one line in ``measure``
below that stores it in ``results``, and its lines in report.print_report.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from builds import measure_builds
from grids import after_grid_seconds, training_seconds
from report import page_weights, print_report, verdicts
from runs import REPO, Workspace, note_script
from serve_loop import make_floor, serve_loop


def phone_visits(site: Path, repeat: int) -> dict | None:
    """First visits of every page on a throttled phone (``benchmarks/phone.py``: its
    ``measure_site``, ``table``, ``summary`` and ``check``); None with ``--phone-repeat 0``."""
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


def explorer_updates(site: Path, clicks: int) -> dict | None:
    """The explorer's median update time at its largest size per language
    (``benchmarks/explorer.py``); None with ``--explorer-clicks 0``."""
    if clicks <= 0:
        return None
    import explorer  # benchmarks/explorer.py

    return explorer.measure(site, clicks)


def newcomer_hook(repeat: int, seed_dir: Path) -> dict | None:
    """A fresh clone with empty pip and uv caches to the first page `make serve` serves, next
    to the note's own set-up (a venv, pip, its script), round by round, and the ratio
    (``benchmarks/newcomer.py``); ``--newcomer-repeat 0`` skips."""
    if repeat <= 0:
        return None
    import newcomer  # benchmarks/newcomer.py

    return newcomer.measure(REPO, repeat=repeat, cold=True, note=seed_dir)


def measure(args: argparse.Namespace) -> tuple[dict, dict]:
    """Every measurement, in one scratch workspace: (results, the built site's weights)."""
    with tempfile.TemporaryDirectory(prefix="ae-bench-") as scratch:
        ws = Workspace(Path(scratch))
        script = ws.root / "note_script.py"
        script.write_text(note_script(args.seed_dir, ws.root / "note.png"), encoding="utf-8")
        results = measure_builds(ws, script, args.repeat, args.before)
        results["training"] = training_seconds(ws.env, ws.root, args.repeat)
        results["after_training"] = after_grid_seconds(ws.env, ws.root, args.repeat)
        weights = page_weights(ws.root / "site")
        results["phone"] = phone_visits(ws.root / "site", args.phone_repeat)
        results["explorer"] = explorer_updates(ws.root / "site", args.explorer_clicks)
        if not args.no_serve:
            results["serve"] = serve_loop(ws, make_floor(ws.root), args.serve_edits)
    results["newcomer"] = newcomer_hook(args.newcomer_repeat, args.seed_dir)
    return results, weights


def parse_args(argv: list[str] | None) -> argparse.Namespace:
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
        "--serve-edits", type=int, default=8,
        help="edits of each kind in the serve loop (median; >= 3): a poll of MkDocs' file "
        "watcher alone spreads a page edit over 0.5 s",
    )  # fmt: skip
    parser.add_argument(
        "--phone-repeat", type=int, default=3,
        help="throttled runs per page in benchmarks/phone.py (median); 0 = skip",
    )  # fmt: skip
    parser.add_argument(
        "--explorer-clicks", type=int, default=15,
        help="explorer updates timed per language (benchmarks/explorer.py); 0 = skip",
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
    if args.serve_edits < 3:
        parser.error(f"--serve-edits must be >= 3 (a median), got {args.serve_edits}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results, weights = measure(args)
    report = verdicts(results, weights)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    missed = print_report(report, args.repeat, args.before)
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
