"""Keep each page's work while its input is unchanged.

A rebuild converts and indexes every page of every language again, although an author
changed one. Two memories, each keyed by everything its step reads:

- ``RenderCache`` (``mkdocs serve``), Markdown→HTML: the page's final Markdown (numbers filled
  in, figure lines rewritten), its source path and URL, the site's files and their URLs
  (links are resolved against them), and the config file. A hit restores what
  ``Page.render`` sets.
- ``SearchEntryCache`` (every build; kept on disk between builds), Material's search entries
  of a page: its HTML, URL, title, table of contents and the front matter the index reads
  (``search``, ``tags``, ``title``), under the search plugin's config and Material's version.
- ``PageContentCache`` (``mkdocs serve``), the plugin's own content step (MathML, a notebook
  page's shared CSS/JS): its HTML, where the page is, its anchors and the math font's
  coverage.
"""

from __future__ import annotations

import copy
import json
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attention_explained.sitebuild.keys import digest

# What MkDocs 1.6's ``Page.render`` sets on the page (besides ``links_to_anchors``, kept
# apart below). ``_title_from_render`` is private to MkDocs and has no public setter that
# keeps ``Page.title``'s order (front matter first, then the rendered H1): the page's
# ``title`` is a weak property, and assigning it would freeze the title for good. So it is
# restored by name, here only; tests/test_sitebuild_render_cache.py renders a real page and
# fails if ``render`` sets anything else or stops setting one of these.
RENDER_SETS = ("content", "toc", "_title_from_render", "present_anchor_ids")


def files_digest(files) -> str:
    """Which files the site has and where they are served: what link resolution reads."""
    return digest(*(f"{f.src_uri}\t{f.url}" for f in files))


def render_context(lang: str, files, config_file: Path) -> str:
    """What every page's HTML depends on besides its Markdown: the language, the site's
    files and the config file."""
    text = config_file.read_bytes() if config_file.is_file() else b""
    return f"{lang}:{files_digest(files)}:{digest(text)}"


def search_context(search) -> str:
    """What Material's search entries depend on besides the page: its config and version."""
    from importlib.metadata import version

    options = json.dumps(dict(search.config), sort_keys=True, default=str)
    return f"mkdocs-material {version('mkdocs-material')}\n{options}"


class RenderCache:
    def __init__(self):
        self.entries: dict[str, dict[str, Any]] = {}
        self.hits = 0

    def wrap(self, page, context: str) -> None:
        """Make ``page.render`` use the cache; ``context`` is files_digest + the config's.

        The key is taken when the page is rendered, from its Markdown as every plugin left it.
        (mkdocs-jupyter replaces ``render`` of notebook pages after this; those keep theirs.)
        """
        original = page.render

        def render(config, files) -> None:
            key = digest(context, page.file.src_uri, page.url, page.markdown or "")
            entry = self.entries.get(key)
            if entry is None:
                original(config, files)
                links = page.links_to_anchors
                self.entries[key] = {
                    **{name: copy.deepcopy(getattr(page, name, None)) for name in RENDER_SETS},
                    "links": None
                    if links is None
                    else {f.src_uri: dict(anchors) for f, anchors in links.items()},
                }
                return
            self.hits += 1
            for name in RENDER_SETS:
                setattr(page, name, copy.deepcopy(entry[name]))
            if entry["links"] is not None:
                page.links_to_anchors = {
                    target: dict(anchors)
                    for uri, anchors in entry["links"].items()
                    if (target := files.get_file_from_path(uri)) is not None
                }

        page.render = render


def _toc(items) -> list:
    return [[i.title, i.url, i.level, _toc(i.children)] for i in items]


class SearchEntryCache:
    def __init__(self, path: Path | None = None):
        """``path``: a JSON file that keeps the entries between builds (None: memory only)."""
        self.path = path
        self.entries: dict[str, list[dict]] = {}
        self.used: set[str] = set()  # keys of this build's pages
        self.hits = 0
        if path is not None:
            from attention_explained.sitebuild._internal.storage import read_json

            entries = read_json(Path(path))  # None if absent or damaged (then pages are indexed)
            self.entries = entries if isinstance(entries, dict) else {}
        self._stored = set(self.entries)

    def begin(self) -> None:
        """A new build: what it indexes decides what :meth:`save` keeps."""
        self.used = set()

    def save(self) -> None:
        """Keep this build's entries on disk (only if any page was indexed anew)."""
        if self.path is None or self.used == self._stored:
            return
        from attention_explained.sitebuild._internal.storage import write_json

        rows = {key: self.entries[key] for key in sorted(self.used)}
        write_json(Path(self.path), rows, ensure_ascii=False)
        self._stored = set(rows)

    def wrap(self, index, context: str = "") -> None:
        """Make ``index.add_entry_from_context`` (Material's search) reuse a page's entries.

        ``context``: what else the entries depend on (the search plugin's config, Material's
        version)."""
        if getattr(index, "_ae_entry_cache", None) is self:
            return
        original = index.add_entry_from_context

        def add_entry_from_context(page) -> None:
            meta = {k: page.meta.get(k) for k in ("search", "tags", "title")}
            key = digest(
                context,
                page.url,
                str(page.title),
                page.content or "",
                json.dumps(meta, sort_keys=True, default=str),
                json.dumps(_toc(page.toc), default=str),
            )
            self.used.add(key)
            entries = self.entries.get(key)
            if entries is None:
                start = len(index.entries)
                original(page)
                self.entries[key] = copy.deepcopy(index.entries[start:])
                return
            self.hits += 1
            index.entries.extend(copy.deepcopy(entries))

        index.add_entry_from_context = add_entry_from_context
        index._ae_entry_cache = self


class PageContentCache:
    """Serve: an unchanged page's content step is not done again.

    A result is the page's HTML, the notebook pages it added to the build and the shared
    files (content-named) it links to, whoever added them: a hit restores all three."""

    MAX_ENTRIES = 2000  # a long serve session starts over rather than grow without end

    def __init__(self):
        self.entries: dict[str, tuple[str, list[str], dict[str, str]]] = {}

    @staticmethod
    def key(page, html: str, font: str, anchors: list[str]) -> str:
        """``font``: the math font's path (its name carries its coverage); ``anchors``:
        the page's table of contents ids."""
        return digest(page.file.src_uri, page.url, html, font, *anchors)

    def content(
        self,
        key: str,
        make: Callable[[], str],
        notebook_pages: list[str],
        shared_files: dict[str, str],
    ) -> str:
        """``make()``'s result for ``key``, made once; ``notebook_pages`` and
        ``shared_files`` are the build's, which ``make`` extends and a hit restores."""
        if key not in self.entries:
            if len(self.entries) > self.MAX_ENTRIES:
                self.entries.clear()
            start = len(notebook_pages)
            output = make()
            linked = {
                name: text
                for name, text in shared_files.items()
                if posixpath.basename(name) in output
            }
            self.entries[key] = (output, notebook_pages[start:], linked)
            return output
        output, pages, linked = self.entries[key]
        notebook_pages.extend(pages)
        for name, text in linked.items():
            shared_files.setdefault(name, text)
        return output
