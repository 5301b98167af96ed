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
