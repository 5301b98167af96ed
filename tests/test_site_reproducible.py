"""Two cold builds of one commit write the same bytes in every file of site/.

The first is the run's shared build (conftest's ``built_site``: a fresh site folder and a
fresh cache, which no test writes into), the second one of its own, also cold."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
from datetime import UTC, datetime

import pytest
from site_build import REPO, listing, strict_build

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def two_cold_builds(built_site, tmp_path_factory):
    root = tmp_path_factory.mktemp("reproducible")
    return [built_site.root, strict_build(root / "site", root / "cache").root]


def test_two_cold_builds_are_byte_identical(two_cold_builds):
    first, second = two_cold_builds
    files = listing(first)
    assert files == listing(second)
    differ = [
        name
        for name in files
        if (first / name).is_file() and (first / name).read_bytes() != (second / name).read_bytes()
    ]
    assert differ == [], f"files that differ between two cold builds: {differ}"


def test_the_sitemap_is_dated_by_the_commit(two_cold_builds):
    epoch = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    day = datetime.fromtimestamp(int(epoch), UTC)
    sitemap = (two_cold_builds[0] / "sitemap.xml").read_text(encoding="utf-8")
    # every <lastmod> is the day of a commit (each page's own: test_site_share.py), never the
    # day of the build
    commit_days = set(
        subprocess.run(
            ["git", "log", "--format=%cd", "--date=format-local:%Y-%m-%d"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "TZ": "UTC"},
        ).stdout.split()
    )
    lastmods = re.findall(r"<lastmod>([^<]*)</lastmod>", sitemap)
    assert lastmods and sitemap.count("<url>") == len(lastmods)
    assert set(lastmods) <= commit_days, sorted(set(lastmods) - commit_days)
    assert max(lastmods) <= f"{day:%Y-%m-%d}"
    packed = (two_cold_builds[0] / "sitemap.xml.gz").read_bytes()
    midnight = int(day.replace(hour=0, minute=0, second=0).timestamp())
    assert int.from_bytes(packed[4:8], "little") == midnight, "gzip header mtime"
    assert gzip.decompress(packed).decode("utf-8") == sitemap
