"""The build's date from the commit, so that two builds of one commit write the same sitemap.

MkDocs stamps every page's ``update_date`` (the sitemap's ``<lastmod>``, and through it the
mtime in ``sitemap.xml.gz``'s gzip header) with today's date, unless ``SOURCE_DATE_EPOCH``
is set (https://reproducible-builds.org/specs/source-date-epoch/). The plugin sets it to the
commit's time when the user has not; outside a git checkout the build keeps today's date.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ENV = "SOURCE_DATE_EPOCH"


def commit_epoch(repo_dir: Path) -> str | None:
    """The committer time of ``repo_dir``'s HEAD in seconds since the epoch, or None."""
    try:
        result = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=repo_dir,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:  # no git on this machine
        return None
    epoch = result.stdout.strip()
    return epoch if result.returncode == 0 and epoch.isdigit() else None


def pin_build_date(repo_dir: Path, env=os.environ) -> str | None:
    """Set ``SOURCE_DATE_EPOCH`` from the commit unless it is set; returns the value in use."""
    if not env.get(ENV):
        epoch = commit_epoch(repo_dir)
        if epoch is not None:
            env[ENV] = epoch
    return env.get(ENV)
