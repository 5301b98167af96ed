"""Keep each page's work while its input is unchanged.

A rebuild converts and indexes every page of every language again, although an author
changed one. Two memories, each keyed by everything its step reads:

- ``RenderCache`` (``mkdocs serve``), Markdown→HTML: the page's final Markdown (numbers as
  tokens, figure lines rewritten), its source path and URL, the site's files and their URLs
  (links are resolved against them), and the config file. A hit restores what
  ``Page.render`` sets.
- ``SearchEntryCache`` (every build; kept on disk between builds), Material's search entries
  of a page: its HTML, URL, title, table of contents and the front matter the index reads
  (``search``, ``tags``, ``title``), under the search plugin's config and Material's version.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from attention_explained.sitebuild.keys import digest

_RESULT = ("content", "toc", "_title_from_render", "present_anchor_ids")


def files_digest(files) -> str:
    """Which files the site has and where they are served: what link resolution reads."""
    return digest(*(f"{f.src_uri}\t{f.url}" for f in files))


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
                    **{name: copy.deepcopy(getattr(page, name, None)) for name in _RESULT},
                    "links": None
                    if links is None
                    else {f.src_uri: dict(anchors) for f, anchors in links.items()},
                }
                return
            self.hits += 1
            for name in _RESULT:
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
            try:
                self.entries = json.loads(Path(path).read_text("utf-8"))
            except (OSError, ValueError):
                self.entries = {}
        self._stored = set(self.entries)

    def begin(self) -> None:
        """A new build: what it indexes decides what :meth:`save` keeps."""
        self.used = set()

    def save(self) -> None:
        """Keep this build's entries on disk (only if any page was indexed anew)."""
        if self.path is None or self.used == self._stored:
            return
        from attention_explained.figures.render import write_atomic

        rows = {key: self.entries[key] for key in sorted(self.used)}
        write_atomic(Path(self.path), json.dumps(rows, ensure_ascii=False).encode())
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
