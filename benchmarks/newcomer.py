"""The newcomer line of `make bench`: a fresh clone to the first page `make serve` serves.

Each run clones the repository (committed ``HEAD``, or ``--ref``) into a scratch folder and
runs ``make serve`` there on a free port, as a new contributor would, timing from the clone
to two events: the install step done (``.venv/.installed`` appears) and the first page
answering 200. Package caches are the machine's own (pip's and uv's), so after the first run
they are warm, as on a developer's machine; ``--warmup`` runs that many untimed rounds first.

``--note`` also times, round by round, the study note's own set-up as its reader does it: a
venv, pip installing TensorFlow, NumPy and matplotlib at constraints.txt's pins, then the note's
script (benchmarks/runs.py note_script). ``--cold`` gives every run (ours and the note's)
empty pip and uv caches of its own, as on a fresh machine; the line then reports both and the
ratio of our first served page to the note's finished script (issue: "the whole site faster
than the note's one script").

``--compare REF`` times REF's set-up (its own Makefile) interleaved with ours, round by round,
so both see the same machine speed: the before/after of a set-up change. ``--pip`` also times
the same commit with ``INSTALLER=pip`` (the set-up before uv), interleaved the same way.

    python benchmarks/newcomer.py --repeat 3 --compare main
    python benchmarks/newcomer.py --repeat 3 --cold --note
    python benchmarks/newcomer.py --repeat 3 --pip
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SERVING = re.compile(r"Serving on (http://\S+)")
# Variables of the caller's own environment that a new contributor does not have.
FOREIGN = ("VIRTUAL_ENV", "PYTHONPATH", "ATTENTION_EXPLAINED_CACHE", "MAKEFLAGS", "MFLAGS")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def newcomer(
    source: Path,
    ref: str,
    scratch: Path,
    *,
    until: str = "served",
    make_args: tuple[str, ...] = (),
    timeout: float = 1800,
    cold: bool = False,
) -> dict:
    """One fresh clone of ``source`` at ``ref`` to its first served page (``until="installed"``:
    to the end of the install step); seconds from the clone. ``cold``: empty package caches."""
    clone = Path(tempfile.mkdtemp(prefix="clone-", dir=scratch))
    env = fresh_env(Path(tempfile.mkdtemp(prefix="caches-", dir=scratch)) if cold else None)
    start = time.perf_counter()
    subprocess.run(
        ["git", "clone", "--quiet", "--no-checkout", str(source), str(clone)], check=True
    )
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", ref], check=True)
    log_path = clone / "newcomer.log"
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            ["make", "serve", f"HOST=127.0.0.1:{free_port()}", *make_args],
            cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    installed = served = None
    try:
        deadline = start + timeout
        while time.perf_counter() < deadline and process.poll() is None:
            if installed is None and (clone / ".venv" / ".installed").exists():
                installed = time.perf_counter() - start
                if until == "installed":
                    break
            found = SERVING.search(log_path.read_text(encoding="utf-8", errors="replace"))
            if found and _answers(found.group(1)):
                served = time.perf_counter() - start
                break
            time.sleep(0.1)
    finally:
        with_group(process, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            with_group(process, signal.SIGKILL)
            process.wait()
        output = log_path.read_text(encoding="utf-8", errors="replace")
        shutil.rmtree(clone, ignore_errors=True)
    if served is None and not (until == "installed" and installed is not None):
        raise RuntimeError(f"make serve at {ref} served no page:\n{output[-3000:]}")
    installer = "uv" if "with uv" in output else "pip"
    return {"ref": ref, "installer": installer, "installed_s": installed, "served_s": served}


def fresh_env(caches: Path | None) -> dict[str, str]:
    """The caller's environment without what a new contributor lacks; with ``caches``, pip
    and uv get empty cache folders there (a fresh machine)."""
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    if caches is not None:
        env |= {"PIP_CACHE_DIR": str(caches / "pip"), "UV_CACHE_DIR": str(caches / "uv")}
    return env


def pins(names: tuple[str, ...], constraints: Path) -> list[str]:
    """``name==version`` for each of ``names`` as ``constraints`` pins it."""
    pinned = dict(
        line.split("==", 1)
        for line in constraints.read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    )
    missing = [name for name in names if name not in pinned]
    if missing:
        raise SystemExit(f"{constraints} pins none of {missing}")
    return [f"{name}=={pinned[name]}" for name in names]


NOTE_PACKAGES = ("tensorflow", "numpy", "matplotlib")  # what the note's script imports


def note_setup(source: Path, seed_dir: Path, scratch: Path, *, cold: bool = False) -> dict:
    """The study note's set-up as its reader does it: a venv, ``pip install`` of the packages
    the note imports (at our pins), then its script; seconds to installed and to done."""
    from runs import note_script  # benchmarks/runs.py

    root = Path(tempfile.mkdtemp(prefix="note-", dir=scratch))
    env = fresh_env(root / "caches" if cold else None) | {"MPLBACKEND": "Agg"}
    python = root / ".venv" / "bin" / "python"
    script = root / "note.py"
    script.write_text(note_script(seed_dir, root / "note.png"), encoding="utf-8")
    start = time.perf_counter()
    subprocess.run([shutil.which("python3") or sys.executable, "-m", "venv", str(root / ".venv")],
                   env=env, check=True)  # fmt: skip
    quietly(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         *pins(NOTE_PACKAGES, source / "constraints.txt")],
        env=env,
    )  # fmt: skip
    installed = time.perf_counter() - start
    quietly([str(python), str(script)], cwd=root, env=env)
    done = time.perf_counter() - start
    shutil.rmtree(root, ignore_errors=True)
    return {"installed_s": installed, "done_s": done}


def quietly(command: list[str], **kwargs) -> None:
    """Run ``command``; its output is shown only if it fails (pip's and TensorFlow's notices
    would bury the bench's lines)."""
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode:
        raise RuntimeError(f"{command[:3]} failed ({done.returncode}):\n{done.stderr[-3000:]}")


def with_group(process: subprocess.Popen, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)


def measure(
    source: Path = REPO,
    *,
    repeat: int = 3,
    warmup: int = 1,
    compare: str | None = None,
    ref: str = "HEAD",
    until: str = "served",
    pip: bool = False,
    cold: bool = False,
    note: Path | None = None,
) -> dict:
    """Median seconds to install and to the first served page, for ``ref`` (and ``compare``,
    and ``ref`` with pip forced when ``pip``); with ``note`` (the seed folder), the note's own
    set-up too, and each variant's ratio to it. ``cold``: every run starts with empty caches."""
    variants = {ref: (ref, ())}
    if compare:
        variants[compare] = (compare, ())
    if pip:
        variants[f"{ref} (pip)"] = (ref, ("INSTALLER=pip",))
    refs = list(variants)
    runs: dict[str, list[dict]] = {r: [] for r in refs}
    notes: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="ae-newcomer-") as scratch:
        for round_ in range(warmup + repeat):
            if note is not None:  # first in every round: the same machine speed as ours
                run = note_setup(source, note, Path(scratch), cold=cold)
                if round_ >= warmup:
                    notes.append(run)
                print(
                    f"  newcomer note's set-up    installed {run['installed_s']:6.1f} s, "
                    f"script done {run['done_s']:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
            for r in refs if round_ % 2 == 0 else refs[::-1]:  # alternate who goes first
                commit, make_args = variants[r]
                run = newcomer(
                    source, commit, Path(scratch), until=until, make_args=make_args, cold=cold
                )
                timed = round_ >= warmup
                if timed:
                    runs[r].append(run)
                served = "-" if run["served_s"] is None else f"{run['served_s']:.1f}"
                print(
                    f"  newcomer {r:12s} {run['installer']:3s} installed {run['installed_s']:6.1f}"
                    f" s, served {served} s{'' if timed else '  (warm-up)'}",
                    file=sys.stderr,
                    flush=True,
                )
    results = {
        r: {
            "installer": samples[0]["installer"],
            "cold_caches": cold,
            "installed_s": round(statistics.median(s["installed_s"] for s in samples), 1),
            "served_s": None
            if until == "installed"
            else round(statistics.median(s["served_s"] for s in samples), 1),
            "runs": samples,
        }
        for r, samples in runs.items()
    }
    if notes:
        done = statistics.median(n["done_s"] for n in notes)
        results["note's set-up"] = {
            "installer": "pip",
            "cold_caches": cold,
            "installed_s": round(statistics.median(n["installed_s"] for n in notes), 1),
            "served_s": round(done, 1),  # its "first page": the script's figure written
            "runs": notes,
        }
        for r in refs:
            served = results[r]["served_s"]
            # round by round, so that both sides of each ratio saw the same machine speed
            results[r]["ratio_to_note"] = (
                None
                if served is None
                else round(
                    statistics.median(
                        ours["served_s"] / theirs["done_s"]
                        for ours, theirs in zip(runs[r], notes, strict=True)
                    ),
                    2,
                )
            )
    return results


def table(results: dict) -> str:
    rows = [
        "| set-up | installer | caches | to installed (s) | to first page (s) | ÷ note's set-up |",
        "|---|---|---|---|---|---|",
    ]
    for r, row in results.items():
        caches = "empty" if row.get("cold_caches") else "warm"
        ratio = row.get("ratio_to_note")
        rows.append(
            f"| {r} | {row['installer']} | {caches} | {row['installed_s']} | {row['served_s']} "
            f"| {'-' if ratio is None else f'{ratio}×'} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds (median)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed rounds that warm caches")
    parser.add_argument("--ref", default="HEAD", help="the commit to set up (default HEAD)")
    parser.add_argument("--compare", metavar="REF", help="also REF's set-up, interleaved")
    parser.add_argument(
        "--pip", action="store_true", help="also the same commit with INSTALLER=pip, interleaved"
    )
    parser.add_argument(
        "--until", choices=("served", "installed"), default="served",
        help="stop each run at the first served page (default) or once the install step is done",
    )  # fmt: skip
    parser.add_argument(
        "--cold", action="store_true", help="every run with empty pip and uv caches of its own"
    )
    parser.add_argument(
        "--note", action="store_true",
        help="also time the study note's own set-up (venv, pip, its script), round by round",
    )  # fmt: skip
    seeds = [up / "shared" / "seed" for up in (REPO.parent, REPO.parent.parent)]  # worktrees
    parser.add_argument(
        "--seed-dir", type=Path, default=next((s for s in seeds if s.is_dir()), seeds[0])
    )
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.warmup < 0:
        parser.error(f"--repeat must be >= 1 and --warmup >= 0, got {args.repeat}, {args.warmup}")
    results = measure(
        repeat=args.repeat,
        warmup=args.warmup,
        compare=args.compare,
        ref=args.ref,
        until=args.until,
        pip=args.pip,
        cold=args.cold,
        note=args.seed_dir if args.note else None,
    )
    print(table(results))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
