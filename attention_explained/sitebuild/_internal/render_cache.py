"""Keep each page's work while its input is unchanged, in memory and on disk between builds.

A rebuild converts and indexes every page of every language again, although an author
changed one (or nothing). Three memories, each keyed by everything its step reads, each kept
in a JSON file of the cache (only the entries the last build used) and read by the next build:

- ``RenderCache``, Markdown→HTML: the page's final Markdown (numbers filled in, figure lines
  rewritten), its source path and URL, the site's files and their URLs (links are resolved
  against them), the config file, and the code that converts (``render_code``: the versions
  of MkDocs, Python-Markdown, Pygments and the extensions' packages). A hit restores what
  ``Page.render`` sets.
- ``SearchEntryCache``, Material's search entries of a page: its HTML, URL, title, table of
  contents and the front matter the index reads (``search``, ``tags``, ``title``), under the
  search plugin's config and Material's version.
- ``PageContentCache``, the plugin's own content step (MathML, a notebook page's shared
  CSS/JS): its HTML, where the page is, its anchors, the math font's coverage, the config
  file and the code of that step (``content_code``).

A step that logged a warning is not kept, so a reused page never hides one from
``--strict``; nor is a render made at DEBUG level, which keeps no links to check. The code
parts of the keys are taken once per process (the plugin keeps them), from the source as it
was when the build began, so a ``mkdocs serve`` session whose package is edited under it
never files what its old code made under the new code's key.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
import posixpath
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from attention_explained.sitebuild.keys import PACKAGE, ImportGraph, digest

# What MkDocs 1.6's ``Page.render`` sets on the page (besides ``links_to_anchors``, kept
# apart below). ``_title_from_render`` is private to MkDocs and has no public setter that
# keeps ``Page.title``'s order (front matter first, then the rendered H1): the page's
# ``title`` is a weak property, and assigning it would freeze the title for good. So it is
# restored by name, here only; tests/test_sitebuild_render_cache.py renders a real page and
# fails if ``render`` sets anything else or stops setting one of these.
RENDER_SETS = ("content", "toc", "_title_from_render", "present_anchor_ids")

# Besides MkDocs and Python-Markdown, what a page's HTML is made by: the top-level packages of
# the configured extensions, and Pygments (pymdownx.highlight colours code with it).
RENDER_LIBRARIES = ("mkdocs", "markdown", "pygments")
# The content step: build.py's page_content/typeset, and the modules they call.
CONTENT_STEP = "attention_explained.sitebuild._internal.build"
CONTENT_MODULES = (
    "attention_explained.sitebuild._internal.math",
    "attention_explained.sitebuild._internal.notebook_html",
)


def files_digest(files) -> str:
    """Which files the site has and where they are served: what link resolution reads."""
    return digest(*(f"{f.src_uri}\t{f.url}" for f in files))


def config_digest(config_file: Path) -> str:
    """The config file's bytes as a key (extensions and their options, the theme's language)."""
    return digest(config_file.read_bytes() if config_file.is_file() else b"")


def render_context(lang: str, files, config_file: Path, code: str = "") -> str:
    """What every page's HTML depends on besides its Markdown: the language, the site's
    files, the config file and ``code`` (:func:`render_code`)."""
    return f"{lang}:{files_digest(files)}:{config_digest(config_file)}:{code}"


def content_context(config_file: Path, code: str = "") -> str:
    """What every page's content step depends on besides the page: the config file (a
    notebook page's copy buttons take the words of the theme's language) and ``code``
    (:func:`content_code`)."""
    return f"{config_digest(config_file)}:{code}"


def render_code(graph: ImportGraph, extensions: Iterable) -> str:
    """The code that turns Markdown into HTML, as a key: the versions of MkDocs,
    Python-Markdown, Pygments and each configured extension's package, and the source of any
    extension that is a module of this package."""
    names = [e.split(":")[0] for e in extensions if isinstance(e, str)]
    ours = [n for n in names if n.split(".")[0] == PACKAGE and n in graph.modules]
    tops = {n.split(".")[0] for n in names} - {PACKAGE}
    return graph.key("render", entries=ours, extra_external=sorted(tops | set(RENDER_LIBRARIES)))


def content_code(graph: ImportGraph, options: dict) -> str:
    """The code of the plugin's content step, as a key: ``build.py`` (which runs it), the
    modules it calls and everything they import (with the versions of the libraries), the
    plugin's options (``math``) and Material's version (a notebook page's copy buttons take
    Material's words)."""
    settings = json.dumps(
        {k: v for k, v in options.items() if k != "cache_dir"}, sort_keys=True, default=str
    )
    return graph.key(
        "content",
        settings,
        graph.source_part(CONTENT_STEP),
        entries=CONTENT_MODULES,
        extra_external=("material", "mkdocs"),
    )


def search_context(search) -> str:
    """What Material's search entries depend on besides the page: its config and version."""
    options = json.dumps(dict(search.config), sort_keys=True, default=str)
    return f"mkdocs-material {_material_version()}\n{options}"


@functools.cache
def _material_version() -> str:  # the Material this process has loaded
    from importlib.metadata import version

    return version("mkdocs-material")


class _Warned(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = False

    def emit(self, record) -> None:
        self.seen = True


@contextmanager
def _watch_warnings():
    """Whether anything logged a warning meanwhile (MkDocs' loggers, or any other)."""
    handler = _Warned()
    loggers = (logging.getLogger(), logging.getLogger("mkdocs"))
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


class _Memory:
    """Entries by key, in memory; with ``path``, also a JSON file read when made and written
    by :meth:`save` with the entries the build used (a damaged or absent file: none)."""

    def __init__(self, path: Path | None = None):
        self.path = path
        self.entries: dict[str, Any] = {}
        self.used: set[str] = set()  # keys of this build's pages
        self.hits = 0
        if path is not None:
            from attention_explained.sitebuild._internal.storage import read_json

            stored = read_json(Path(path))  # None if absent or damaged (then pages are made)
            self.entries = self._decode(stored) if isinstance(stored, dict) else {}
        self._stored = set(self.entries)

    def _encode(self, rows: dict[str, Any]) -> dict:
        """The entries as the JSON file holds them."""
        return rows

    def _decode(self, stored: dict) -> dict[str, Any]:
        """The entries from the JSON file's value (a dict)."""
        return stored

    def begin(self) -> None:
        """A new build: what it uses decides what :meth:`save` keeps."""
        self.used = set()

    def save(self) -> None:
        """Keep this build's entries on disk (only if they differ from those stored)."""
        if self.path is None or self.used == self._stored:
            return
        from attention_explained.sitebuild._internal.storage import write_json

        rows = {key: self.entries[key] for key in sorted(self.used) if key in self.entries}
        write_json(Path(self.path), self._encode(rows), ensure_ascii=False)
        self._stored = set(rows)


class RenderCache(_Memory):
    """A page's Markdown → HTML, reused while the page and the site around it are unchanged."""

    def wrap(self, page, context: str) -> None:
        """Make ``page.render`` use the cache; ``context`` is :func:`render_context`'s.

        The key is taken when the page is rendered, from its Markdown as every plugin left it.
        (mkdocs-jupyter replaces ``render`` of notebook pages after this; those keep theirs.)
        """
        original = page.render

        def render(config, files) -> None:
            key = digest(context, page.file.src_uri, page.url, page.markdown or "")
            self.used.add(key)
            entry = self.entries.get(key)
            if entry is None:
                with _watch_warnings() as warned:
                    original(config, files)
                # Made again next time if it warned (so --strict sees the warning again), or
                # if MkDocs ran at DEBUG level, where render keeps no links_to_anchors (and a
                # later build would check no anchor of this page).
                if warned.seen or page.links_to_anchors is None:
                    self.used.discard(key)
                else:
                    self.entries[key] = _rendered(page)
                return
            self.hits += 1
            _restore(page, entry, files)

        page.render = render


def _rendered(page) -> dict:
    """What ``Page.render`` set (RENDER_SETS and ``links_to_anchors``), as JSON values."""
    links = page.links_to_anchors
    anchors = page.present_anchor_ids
    return {
        "content": page.content,
        "toc": _toc_tokens(page.toc),
        "_title_from_render": page._title_from_render,
        "present_anchor_ids": None if anchors is None else sorted(anchors),
        "links": None
        if links is None
        else {f.src_uri: dict(anchors) for f, anchors in links.items()},
    }


def _restore(page, entry: dict, files) -> None:
    from mkdocs.structure.toc import get_toc

    page.content = entry["content"]
    page.toc = get_toc(entry["toc"])  # as render makes it (the first item marked active)
    page._title_from_render = entry["_title_from_render"]
    anchors = entry["present_anchor_ids"]
    page.present_anchor_ids = None if anchors is None else set(anchors)
    if entry["links"] is not None:
        page.links_to_anchors = {
            target: dict(anchors)
            for uri, anchors in entry["links"].items()
            if (target := files.get_file_from_path(uri)) is not None
        }


def _toc_tokens(items) -> list[dict]:
    """A table of contents as the Markdown toc tokens ``mkdocs.structure.toc.get_toc`` reads
    (also what a page's search entries are keyed by)."""
    return [
        {"level": i.level, "id": i.id, "name": i.title, "children": _toc_tokens(i.children)}
        for i in items
    ]


class SearchEntryCache(_Memory):
    """Material's search entries of a page, reused while the page is unchanged."""

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
                json.dumps(_toc_tokens(page.toc), default=str),
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


class PageContentCache(_Memory):
    """An unchanged page's content step is not done again.

    A result is the page's HTML, the notebook pages it added to the build and the shared
    files (content-named) it links to, whoever added them: a hit restores all three."""

    MAX_ENTRIES = 2000  # a long serve session starts over rather than grow without end

    @staticmethod
    def key(page, html: str, font: str, anchors: list[str], context: str = "") -> str:
        """``font``: the math font's path (its name carries its coverage); ``anchors``:
        the page's table of contents ids; ``context``: :func:`content_context`."""
        return digest(page.file.src_uri, page.url, html, font, *anchors, context)

    # On disk each shared file is stored once (the notebook stylesheet, about 600 KB, is
    # linked by every notebook page): {"files": {name: text}, "entries": {key: [output,
    # pages, [names]]}}. Names are content-named, so one name is one text.
    def _encode(self, rows: dict[str, Any]) -> dict:
        files: dict[str, str] = {}
        entries = {}
        for key, (output, pages, linked) in rows.items():
            files.update(linked)
            entries[key] = [output, pages, sorted(linked)]
        return {"files": dict(sorted(files.items())), "entries": entries}

    def _decode(self, stored: dict) -> dict[str, Any]:
        files, entries = stored.get("files"), stored.get("entries")
        if not isinstance(files, dict) or not isinstance(entries, dict):
            return {}  # not this layout (an older one): the steps are done again
        decoded = {}
        for key, entry in entries.items():
            try:
                output, pages, names = entry
                linked = {name: files[name] for name in names}
            except (KeyError, TypeError, ValueError):  # written so by a bug: start over
                return {}
            if not (isinstance(output, str) and isinstance(pages, list)):
                return {}
            if not all(isinstance(page, str) for page in pages):
                return {}
            decoded[key] = [output, list(pages), linked]
        return decoded

    def content(
        self,
        key: str,
        make: Callable[[], str],
        notebook_pages: list[str],
        shared_files: dict[str, str],
    ) -> str:
        """``make()``'s result for ``key``, made once; ``notebook_pages`` and
        ``shared_files`` are the build's, which ``make`` extends and a hit restores."""
        self.used.add(key)
        if key not in self.entries:
            if len(self.entries) > self.MAX_ENTRIES:
                self.entries.clear()
            start = len(notebook_pages)
            with _watch_warnings() as warned:
                output = make()
            if warned.seen:  # done again next time, so --strict sees the warning again
                self.used.discard(key)
                return output
            linked = {
                name: text
                for name, text in shared_files.items()
                if posixpath.basename(name) in output
            }
            self.entries[key] = [output, notebook_pages[start:], linked]
            return output
        self.hits += 1
        output, pages, linked = self.entries[key]
        notebook_pages.extend(pages)
        for name, text in linked.items():
            shared_files.setdefault(name, text)
        return output
