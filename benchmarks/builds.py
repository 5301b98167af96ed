"""The builds a reader of the bench compares, each next to the study note's own script.

baseline  the note's script from ../shared/seed/ (plt.show() → savefig), project venv;
          also run right before every run of the others, and each ratio is to those
          paired runs, since a VM's speed drifts over the minutes a bench takes
cold      build with no .cache/ and no site/ (with ``--before REF``: the same cold build
          of that commit, interleaved with ours)
warm      build again, nothing changed
page      build after editing one Markdown page
figure    build after editing one figure function
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

from runs import Workspace, checkout, plain, run, summarise
from timeline import median_timeline, timeline

EDITS = {  # what each incremental build edits first (Workspace.touch: file, appended text)
    "page": ("docs/glossary.md", "\n<!-- bench edit {n} -->\n"),
    "figure": ("attention_explained/figures/temperature.py", "\n# bench edit {n}\n"),
}


def build_steps(ws: Workspace, script: Path) -> list[tuple]:
    """(name, what is timed, what runs before it untimed) in the order they run."""
    return [
        ("baseline", lambda: run([sys.executable, str(script)], ws.root, ws.env), None),
        ("cold", ws.build, ws.clean),
        ("warm", ws.build, None),
        ("page", ws.build, lambda: ws.touch(*EDITS["page"])),
        ("figure", ws.build, lambda: ws.touch(*EDITS["figure"])),
    ]


def measure_builds(ws: Workspace, script: Path, repeat: int, before: str | None) -> dict:
    """Every build ``repeat`` times, each after a run of the note's script; the medians."""
    results: dict = {}
    steps = build_steps(ws, script)
    old = old_samples = None
    if before:  # the same cold build at another commit, interleaved with ours
        old = Workspace(ws.root / "before", checkout(before, ws.root / "before-src"))
        old_samples = []
    baseline = steps[0][1]
    for name, action, prepare in steps:
        samples, paired = [], []
        for _ in range(repeat):
            if name != "baseline":  # the note's script right before: the same machine speed
                paired.append(baseline()[0])
            if name == "cold" and old is not None:
                old.clean()
                old_samples.append(old.build())
                print(f"  {'cold@' + before:9s} {old_samples[-1][0]:6.1f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
            if prepare:
                prepare()
            samples.append(action())
            print(f"  {name:9s} {samples[-1][0]:6.1f} s", file=sys.stderr, flush=True)
        results[name] = summarise(samples)
        if paired:
            results[name]["baseline_seconds"] = round(statistics.median(paired), 3)
        if name == "cold" and old is not None:
            results["cold_before"] = summarise(old_samples)
            results["cold_before"]["ref"] = before
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
    return results
