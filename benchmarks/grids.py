"""The experiment grids' own timing lines for `make bench`: training and after-training.

Each grid runs with the site's settings in fresh processes (TensorFlow's import excluded
from the time). ``python benchmarks/grids.py [--repeat N]`` prints the after-training
grid's median, min and max (docs/after-training.md); ``bench.py`` imports both functions.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = 15.0  # seconds of the after-training grid on 2 CPU cores; the aim is 6
TRAINING_TARGET = 10.0  # seconds of the training grid
PROBE = (
    "import time\n"
    "from attention_explained import after_training\n"
    "import tensorflow  # its import stays out of the time (the package did it, quietly)\n"
    "t = time.perf_counter(); c = time.process_time(); after_training.run()\n"
    "print('GRID', time.perf_counter() - t, time.process_time() - c)\n"
)


def training_seconds(env: dict[str, str], cwd: Path, repeat: int) -> dict | None:
    probe = (
        "import time\nfrom attention_explained import training\n"
        "if not hasattr(training, 'run_grid'): raise SystemExit(3)\n"
        "import tensorflow  # its import stays out of the time (the package did it, quietly)\n"
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


def after_grid_seconds(env: dict[str, str], cwd: Path, repeat: int) -> dict | None:
    """Median/min/max wall seconds (and CPU seconds) of the grid, or None if it is absent."""
    walls, cpus = [], []
    for _ in range(repeat):
        process = subprocess.run(
            [sys.executable, "-c", PROBE], cwd=cwd, env=env, capture_output=True, text=True
        )
        if "No module named 'attention_explained.after_training'" in process.stderr:
            return None
        match = re.search(r"GRID ([\d.]+) ([\d.]+)", process.stdout)
        if not match:
            raise SystemExit(f"after-training grid failed:\n{process.stderr[-3000:]}")
        walls.append(float(match.group(1)))
        cpus.append(float(match.group(2)))
    return {
        "seconds": statistics.median(walls),
        "min": min(walls),
        "max": max(walls),
        "cpu_seconds": statistics.median(cpus),
        "runs": repeat,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2")
    load = os.getloadavg()[0]
    result = after_grid_seconds(env, REPO, args.repeat)
    if result is None:
        raise SystemExit("attention_explained.after_training is not importable")
    print(
        f"| after-training grid | {result['seconds']:.1f} | {result['min']:.1f}–"
        f"{result['max']:.1f} | CPU {result['cpu_seconds']:.1f} s | ≤ {TARGET:.0f} s |"
        f"  (load average {load:.1f} at start, {os.cpu_count()} cores)"
    )
    return 0 if result["seconds"] <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
