"""The build's date is the commit's (SOURCE_DATE_EPOCH): sitemaps do not follow the clock."""

from __future__ import annotations

import subprocess
from pathlib import Path

from attention_explained.sitebuild._internal.build_date import ENV, commit_epoch, pin_build_date

REPO = Path(__file__).resolve().parents[1]


def _head_time() -> str:
    return subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_date_is_the_commits():
    env: dict[str, str] = {}
    assert pin_build_date(REPO, env) == _head_time() == env[ENV]


def test_a_date_the_user_set_wins():
    env = {ENV: "86400"}
    assert pin_build_date(REPO, env) == "86400"


def test_outside_a_checkout_the_date_is_left_alone(tmp_path):
    assert commit_epoch(tmp_path) is None
    env: dict[str, str] = {}
    assert pin_build_date(tmp_path, env) is None and ENV not in env
