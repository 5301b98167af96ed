"""One strict build of the real site per test session, shared by the site and browser tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
LANGS = ("ko", "en")


@dataclass
class BuiltSite:
    root: Path  # the site/ folder
    log: str

    def pages(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("index.html") if "assets" not in p.parts)

    def page_lang(self, page: Path) -> str:
        return "en" if page.relative_to(self.root).parts[0] == "en" else "ko"


def strict_build(site_dir: Path) -> BuiltSite:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    if result.returncode != 0:
        raise AssertionError(f"strict build failed:\n{result.stderr[-6000:]}")
    return BuiltSite(site_dir, result.stderr)


def source_pages() -> list[str]:
    """Korean source pages (the default language) as site-relative page folders."""
    pages = []
    for md in sorted(DOCS.rglob("*.md")):
        if re.search(r"\.[a-z]{2}\.md$", md.name):
            continue
        rel = md.relative_to(DOCS).with_suffix("").as_posix()
        pages.append("" if rel == "index" else rel.removesuffix("/index") + "/")
    return pages


class Tags(HTMLParser):
    """Collects tags with their attributes and the ids in a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.ids: set[str] = set()
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse(path: Path) -> Tags:
    parser = Tags()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser
