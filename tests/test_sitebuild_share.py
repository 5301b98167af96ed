"""Sharing and indexing (sitebuild/_internal/share.py) as pure functions: card figure, JSON-LD,
lastmod
from git, llms.txt."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from attention_explained.sitebuild._internal import share


def git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", *args], cwd=repo, check=True, env=env, capture_output=True)


def test_lastmod_is_each_page_s_own_last_commit_in_utc(tmp_path):
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "docs/a.md").write_text("a\n")
    (repo / "docs/b.md").write_text("b\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one", date="2026-01-02T23:30:00-05:00")  # 2026-01-03 in UTC
    (repo / "docs/b.md").write_text("b2\n")
    (repo / "README").write_text("r\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "two", date="2026-03-04T12:00:00+00:00")
    assert share.commit_dates(repo) == {"a.md": "2026-01-03", "b.md": "2026-03-04"}
    # CI's shallow clone has one commit: every page gets its date, no error
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    assert share.commit_dates(shallow) == {"a.md": "2026-03-04", "b.md": "2026-03-04"}
    assert share.commit_dates(tmp_path / "not-a-repo-at-all") == {}


def test_build_date_follows_source_date_epoch():
    assert share.build_date({"SOURCE_DATE_EPOCH": "1767225600"}) == "2026-01-01"


def test_the_card_shows_the_page_s_first_known_figure_else_the_default():
    known = ["a", "b", "c"]
    assert share.card_figure(["x", "b", "a"], known, "c") == "b"
    assert share.card_figure([], known, "c") == "c"
    url = share.figure_url("https://h.example/site/", "en", "ko", "b")
    assert url == "https://h.example/site/en/figures/b.png"
    assert share.figure_url("https://h.example/site/", "ko", "ko", "b").endswith(
        "/site/figures/b.png"
    )


def test_json_ld_names_its_language_and_cannot_close_its_script():
    text = share.json_ld(
        title="T </script>",
        description="d",
        url="u",
        lang="ko",
        site_name="s",
        site_url="su",
        image="i",
        modified="2026-01-01",
        author="a",
    )
    assert "</script>" not in text
    data = json.loads(text)
    assert data["inLanguage"] == "ko" and "TechArticle" in data["@type"]
    assert data["headline"] == "T </script>" and data["dateModified"] == "2026-01-01"


def test_llms_txt_lists_every_page_once():
    text = share.llms_txt(
        "Site", "About it.", [("A", "https://h/a/", "first"), ("B", "https://h/b/", "second")]
    )
    assert text.splitlines()[:3] == ["# Site", "", "> About it."]
    assert "- [A](https://h/a/): first" in text and "- [B](https://h/b/): second" in text
