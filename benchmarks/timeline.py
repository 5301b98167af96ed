"""Where a cold build's time goes: the asset step's stage lines and MkDocs' own log.

``attention-explained: stage <name> <s> s`` lines (each figure's data, training, the
after-training grid, numbers, the whole asset step) and MkDocs' language lines, each
time-stamped by :func:`runs.run` as it was read. The plugin logs each stage line as the asset
step writes it (run_asset_step), so a stage's start is its end minus its duration.
"""

from __future__ import annotations

import itertools
import re
import statistics

STAGE = re.compile(r"attention-explained: stage (.+?) ([\d.]+) s$")

LANGUAGE = re.compile(r"Building '(\w+)' documentation to directory")

BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")


def timeline(output: str, total: float) -> list[dict]:
    """Where one build's time went: ``{"stage", "start", "end", "seconds"}`` rows.

    The asset step's stages come from their own timings, ending when their line was read;
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


def print_timeline(rows: list[dict], runs: int) -> None:
    print(f"\nCold build, where the time goes (median of {runs} runs; start = seconds after")
    print("`mkdocs build` started; the asset step runs first, and inside it the data, the")
    print("drawing processes and the notebook kernel overlap; a stage's start is its end minus")
    print("its duration)\n")
    print("| stage | start s | seconds |")
    print("| --- | ---: | ---: |")
    for row in rows:
        print(f"| {row['stage']} | {row['start']:.1f} | {row['seconds']:.2f} |")
