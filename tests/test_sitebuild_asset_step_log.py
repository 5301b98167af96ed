"""How a site build runs a stale asset step (sitebuild/_internal/build.py, run_asset_step): its
stage lines reach MkDocs' log while it runs, and a failure carries its error output.

The asset step is a stand-in command (``asset_step_command`` replaced), so these are fast."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from attention_explained.sitebuild import assets
from attention_explained.sitebuild._internal import build
from attention_explained.sitebuild._internal.compute import EVENT

OPTIONS = SimpleNamespace(notebooks=[], notebook_timeout=60, jobs=1, figures=True)

# Says it started, reports a stage, then waits until the file in argv[1] exists: it ends well
# only if its stage line was read while it was still running. 60 s is only the bound of a
# failure (exit 3), never waited for when the lines arrive.
WAITS_TO_BE_SEEN = f"""
import json, os, sys, time
print("assets: started", flush=True)
sys.stderr.write({EVENT!r} + json.dumps({{"event": "stage", "name": "figure-data x",
                                          "seconds": 0.25}}) + "\\n")
sys.stderr.flush()
deadline = time.monotonic() + 60
while not os.path.exists(sys.argv[1]):
    if time.monotonic() > deadline:
        sys.exit(3)
    time.sleep(0.01)
print("assets: done", flush=True)
"""

FAILS = f"""
import sys
sys.stderr.write({EVENT!r} + '{{"event": "stage", "name": "numbers", "seconds": 1.0}}\\n')
sys.stderr.write("figure 'softmax-curve' (lang=ko, theme=light, layout=wide) failed: boom\\n")
sys.exit(1)
"""


class SeesStages(logging.Handler):
    """Creates ``flag`` when a stage line is logged; keeps every message."""

    def __init__(self, flag: Path):
        super().__init__()
        self.flag, self.messages = flag, []

    def emit(self, record):
        message = record.getMessage()
        self.messages.append(message)
        if "stage figure-data x 0.25 s" in message:
            self.flag.write_text("seen", "utf-8")


@pytest.fixture
def seen(tmp_path):
    handler = SeesStages(tmp_path / "seen")
    build.log.addHandler(handler)
    level = build.log.level
    build.log.setLevel(logging.INFO)
    yield handler
    build.log.removeHandler(handler)
    build.log.setLevel(level)


def stand_in(monkeypatch, *command: str) -> None:
    monkeypatch.setattr(assets, "asset_step_command", lambda *a, **k: [sys.executable, *command])


def test_stage_lines_are_logged_while_the_step_runs(tmp_path, monkeypatch, seen):
    stand_in(monkeypatch, "-c", WAITS_TO_BE_SEEN, str(seen.flag))
    build.run_asset_step(OPTIONS, tmp_path / "cache", tmp_path, tmp_path)
    stages = [m for m in seen.messages if "stage" in m]
    assert stages[0] == "attention-explained: stage figure-data x 0.25 s", seen.messages
    assert stages[-1].startswith("attention-explained: stage asset-step "), seen.messages
    progress = [m for m in seen.messages if m.startswith("attention-explained: assets: ")]
    assert progress == ["attention-explained: assets: started", "attention-explained: assets: done"]


def test_a_failed_step_raises_with_its_error_output_and_no_stage_lines(tmp_path, monkeypatch, seen):
    stand_in(monkeypatch, "-c", FAILS)
    with pytest.raises(PluginError) as failure:
        build.run_asset_step(OPTIONS, tmp_path / "cache", tmp_path, tmp_path)
    message = str(failure.value)
    assert message.startswith("attention-explained: the asset step failed:\n"), message
    assert "figure 'softmax-curve' (lang=ko, theme=light, layout=wide) failed: boom" in message
    assert EVENT not in message, message
    assert "attention-explained: stage numbers 1.00 s" in seen.messages
