"""Two cold builds of one commit write the same bytes in every file of site/, and so does a warm
build that reuses every page's work from the cache.

The first is the run's shared build (conftest's ``built_site``: a fresh site folder and a
fresh cache, which no test writes into), the second one of its own, also cold; the warm build
then builds again from the second's cache."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
from datetime import UTC, datetime

import pytest
from site_build import DOCS, REPO, listing, strict_build

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("reproducible")


@pytest.fixture(scope="module")
def two_cold_builds(built_site, root):
    return [built_site.root, strict_build(root / "site", root / "cache").root]


def differing(first, second) -> list[str]:
    files = listing(first)
    assert files == listing(second)
    return [
        name
        for name in files
        if (first / name).is_file() and (first / name).read_bytes() != (second / name).read_bytes()
    ]


def test_two_cold_builds_are_byte_identical(two_cold_builds):
    assert differing(*two_cold_builds) == [], "files that differ between two cold builds"


def test_a_warm_build_reuses_every_page_and_writes_the_same_bytes(two_cold_builds, root):
    """The next build (a new process) takes every Markdown page's HTML from the cache
    (render_cache.py; mkdocs-jupyter renders the notebook pages from its own) and writes what
    a cold build writes."""
    warm = strict_build(root / "site-warm", root / "cache")
    pages = [p for p in DOCS.rglob("*.md") if "notebooks" not in p.relative_to(DOCS).parts]
    assert f"pages reused {len(pages)};" in warm.log, warm.log[-2000:]
    assert differing(two_cold_builds[0], warm.root) == [], "a warm build differs from a cold one"


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
