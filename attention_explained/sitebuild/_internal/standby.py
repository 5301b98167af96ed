"""The watcher's next asset step, started before it is needed (``assets watch``).

``python -m attention_explained.sitebuild._internal.standby FD <assets build options>`` imports
TensorFlow and Keras and starts the drawing pool (``compute.warm_up``), then waits for one
line on stdin. ``go`` runs ``python -m attention_explained assets build <options>`` in this
process, with that pool, and writes its exit code to the file descriptor FD (``-``: none);
end of input ends it. A figure edit under ``make serve`` then costs
its own figure, not a TensorFlow import (README: the serve loop).

The package it imported while waiting is only this module's few (the TensorFlow wrapper, the
compute helpers, the keys); the pool's processes reload what changed before each drawing
(``compute.refresh_modules``). If a file it imported changed before ``go``, it runs the step
as a fresh process would: it replaces itself with the plain command (``os.execv``).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[2]


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _sources() -> dict[Path, str | None]:
    return {p: _digest(p) for p in PACKAGE_DIR.rglob("*.py") if "__pycache__" not in p.parts}


def changed_since(before: dict[Path, str | None]) -> list[str]:
    """The package modules this process has imported whose source differs from ``before``
    (a file's digest, taken before they were imported)."""
    changed = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not path or not name.startswith("attention_explained"):
            continue
        path = Path(path).resolve()
        if path.is_relative_to(PACKAGE_DIR) and _digest(path) != before.get(path):
            changed.append(name)
    return sorted(changed)


def command(options: list[str]) -> list[str]:
    """The plain asset step for these options (what ``go`` runs, here or, stale, afresh)."""
    return [sys.executable, "-m", "attention_explained", "assets", "build", *options]


def warm(jobs: int):
    """Everything slow that does not depend on the package's code as it will be at ``go``:
    TensorFlow (with the asset step's threading), Keras, and ``jobs`` drawing processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from attention_explained.sitebuild._internal import compute
    from attention_explained.sitebuild.keys import ImportGraph

    compute.import_tensorflow()
    import keras  # noqa: F401  (the layers' modules import it; 1-2 s cold)

    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),  # never fork TensorFlow
        initializer=compute.warm_up,
        initargs=(ImportGraph().fingerprints(),),
    )
    for started in [pool.submit(os.getpid) for _ in range(jobs)]:  # start them now
        started.result()
    return pool


def run(result_fd: int | None, options: list[str], stdin=None) -> int:
    """Warm up, wait for ``go``, run the asset step; its exit code, also written to
    ``result_fd`` (when given) as soon as the step is over, before this process's teardown
    (TensorFlow's takes about a second, which the watch and a waiting rebuild need not wait)."""
    stdin = stdin or sys.stdin
    before = _sources()
    jobs = int(options[options.index("--jobs") + 1]) if "--jobs" in options else 2
    pool = warm(max(1, jobs))
    if stdin.readline().strip() != "go":  # the watch ended
        pool.shutdown(cancel_futures=True)
        return 0
    if changed_since(before):  # what it imported is not the code any more: start afresh
        pool.shutdown(cancel_futures=True)
        sys.stdout.flush()
        sys.stderr.flush()
        cold = command(options)
        os.execv(cold[0], cold)  # result_fd stays open in it, unwritten: the exit code counts
    from attention_explained.sitebuild._internal import compute

    compute.STANDBY_POOL = (pool, max(1, jobs))
    from attention_explained.cli import main as cli_main

    code = cli_main(["assets", "build", *options])
    sys.stdout.flush()
    sys.stderr.flush()
    if result_fd is not None:
        os.write(result_fd, f"{code}\n".encode())
        os.close(result_fd)
    return code


if __name__ == "__main__":  # standby.py RESULT_FD|- <assets build options>
    fd = sys.argv[1]
    sys.exit(run(None if fd == "-" else int(fd), sys.argv[2:]))
