"""``python -m attention_explained assets watch``: the asset step now, and again after every
change to the package, each run rewriting the manifest. Run as ``make serve`` runs it, in a
subprocess importing a package copy; every wait is on an event (a line the watch prints
after a run), its deadline only catches a hang."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.site  # a run draws a figure (TensorFlow, matplotlib) in a subprocess

DEADLINE = 600  # seconds: a hang, not a slow machine
DONE = "assets: up to date"


class Watch:
    def __init__(self, cache: Path, package: Path, cwd: Path):
        env = dict(os.environ, PYTHONPATH=str(package))
        command = [sys.executable, "-m", "attention_explained", "assets", "watch"]
        self.process = subprocess.Popen(
            [*command, "--cache-dir", str(cache), "--no-notebooks"],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.SimpleQueue = queue.SimpleQueue()
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def next_run(self) -> str:
        """Wait for the end of the next run of the asset step; its output."""
        out = []
        while True:
            try:
                line = self.lines.get(timeout=DEADLINE)
            except queue.Empty:
                raise AssertionError("no run ended:\n" + "".join(self.log + out)) from None
            out.append(line)
            if line.startswith(DONE) or "the asset step failed" in line:
                self.log += out
                return "".join(out)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=DEADLINE)


def manifest(cache: Path) -> dict:
    return json.loads((cache / "manifest.json").read_text(encoding="utf-8"))


def test_an_edit_to_the_package_remakes_what_it_changes_and_rewrites_the_manifest(
    tmp_path, ae_cache, package_copy
):
    cache = tmp_path / "cache"
    shutil.copytree(ae_cache, cache)
    (cache / "manifest.json").unlink(missing_ok=True)
    watch = Watch(cache, package_copy, tmp_path)
    try:
        first_run = watch.next_run()
        assert DONE in first_run, first_run
        first = manifest(cache)
        assert first["computed"]["figures"] == [], first_run  # the copy's cache is warm
        module = package_copy / "attention_explained/figures/temperature.py"
        module.write_text(module.read_text("utf-8") + "\n# edited while watched\n", "utf-8")
        second_run = watch.next_run()
        assert DONE in second_run, second_run
        second = manifest(cache)
        assert second["computed"]["figures"] == ["temperature"]
        old, new = first["keys"]["figures"], second["keys"]["figures"]
        assert new["temperature"] != old["temperature"]
        assert {k: v for k, v in new.items() if k != "temperature"} == {
            k: v for k, v in old.items() if k != "temperature"
        }
    finally:
        watch.stop()


def children(pid: int) -> int:
    """How many processes ``pid`` has started (Linux /proc)."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        count += int(fields[1]) == pid
    return count


def test_a_standby_whose_imported_code_changed_runs_the_step_afresh(
    tmp_path, ae_cache, package_copy
):
    """The watch's standby imports a few package modules while it waits; if one of them is
    edited before its run, the run is that of a fresh process (it imports the edit)."""
    cache = tmp_path / "cache"
    shutil.copytree(ae_cache, cache)
    jobs = 2
    standby = subprocess.Popen(
        [sys.executable, "-m", "attention_explained.sitebuild._internal.standby", "-",
         "--cache-dir", str(cache), "--jobs", str(jobs), "--no-notebooks"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(package_copy)),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + DEADLINE
        # its drawing processes start after its imports: then it is waiting for "go"
        while children(standby.pid) < jobs and standby.poll() is None:
            assert time.monotonic() < deadline, "the standby never started its pool"
            time.sleep(0.1)
        imported = package_copy / "attention_explained/sitebuild/_internal/__init__.py"
        # a line from the asset step's own process only (its drawing processes import the
        # module too, and may do so after this edit)
        marker = (
            "\nimport multiprocessing, sys\n"
            "if multiprocessing.current_process().name == 'MainProcess':\n"
            '    sys.stderr.write("edited module\\n")\n'
        )
        imported.write_text(imported.read_text("utf-8") + marker, "utf-8")
        out, _ = standby.communicate("go\n", timeout=DEADLINE)
    finally:
        if standby.poll() is None:
            standby.kill()
    assert standby.returncode == 0, out
    assert "edited module" in out, out  # the run imported the module as it is now
    assert "assets: wrote" in out, out
