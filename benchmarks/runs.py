"""Timing one process, and the scratch copies of the site that the bench builds in.

:func:`run` times a command (wall, peak RSS, CPU of its whole process tree, each output line
time-stamped as read); :class:`Workspace` is a copy of docs/, mkdocs.yml and the package
(imported first through PYTHONPATH), so the repository and its .cache/ are never touched.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


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
