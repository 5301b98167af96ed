"""The MkDocs plugin: one handler per event, each delegating to the modules beside it.

Thin by design: it decides *when* (once per build, not once per language) and *where*
(files outside docs/, found through the cache); ``markdown``, ``claims``, ``keys``,
``cache``, ``worker``, ``notebooks`` and ``notebook_html`` decide *what*.
"""

from __future__ import annotations

import html
import json
import logging
import os
import posixpath
import signal
import time
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files

from attention_explained.sitebuild import markdown as md
from attention_explained.sitebuild.cache import AssetCache
from attention_explained.sitebuild.keys import PACKAGE_DIR, ImportGraph, digest, memo_path

log = logging.getLogger("mkdocs.plugins.attention_explained")

# nbconvert's NbConvertApp instantiates every installed exporter when it is imported, to ask
# each whether the user's Jupyter config enables it: ~0.4 s of every build, for a list that
# mkdocs-jupyter never reads. This switch (nbconvert's own) keeps the list without that. The
# plugin is listed before mkdocs-jupyter in mkdocs.yml, so it is set before nbconvert loads.
os.environ.setdefault("NBCONVERT_DISABLE_CONFIG_EXPORTERS", "1")
LANGS = ("ko", "en")  # the languages figures are drawn in (figures.registry.LANGS)
THEMES = (("light", ""), ("dark", ".dark"))  # theme → file suffix on the site


class BoundedInt(c.BaseConfigOption[int]):
    """An integer option with an accepted range that the error message states."""

    def __init__(self, low: int, high: int, default: int):
        super().__init__()
        self.low, self.high, self.default = low, high, default

    def run_validation(self, value: object) -> int:
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not (self.low <= value <= self.high)
        ):
            raise c.ValidationError(
                f"expected an integer in [{self.low}, {self.high}], got {value!r}"
            )
        return value


class PluginConfig(base.Config):
    """The ``attention-explained`` options in mkdocs.yml."""

    cache_dir = c.Type(str, default=".cache")
    """Folder for figures, numbers, executed notebooks and compiled templates, relative to
    mkdocs.yml. Must be outside ``docs_dir``: generated files never go into docs/."""

    figures = c.Type(bool, default=True)
    """Draw the figures (``figures/<id>.svg`` in a page) and serve them with the site."""

    mathjax = c.Type(bool, default=False)
    """Serve MathJax 3 from the site, under ``assets/mathjax/`` (no CDN). Off: ``mathml``
    typesets at build time instead."""

    mathml = c.Type(bool, default=True)
    """Typeset math at build time as MathML Core (``math.py``), drawn by the browser with a
    math font served from the site and cut to the characters the pages use."""

    notebooks = c.ListOfItems(c.Type(str), default=["notebooks/*.md"])
    """Globs, relative to docs/, of jupytext notebooks to execute before mkdocs-jupyter
    renders them."""

    notebook_timeout = BoundedInt(10, 3600, default=300)
    """Seconds one notebook cell may run, in [10, 3600]."""

    term_sheet = c.Type(str, default="CONTRIBUTING.md")
    """The Korean term sheet (``## Korean term sheet``), relative to mkdocs.yml: search adds
    its terms for the variants readers type. A site without that file gets no synonyms."""

    jobs = BoundedInt(1, 64, default=2)
    """Processes drawing figures in parallel, in [1, 64]."""


class _PendingFile(File):
    """A generated file that MkDocs must not copy: the plugin copies it once it exists.

    Figures and the numbers may still be in the making while the pages are rendered; their
    files are copied in ``on_post_build``, after waiting for them.
    """

    def copy_file(self, dirty: bool = False) -> None:
        pass

    def copy_now(self) -> None:
        super().copy_file(False)


class _Build:
    """What one ``mkdocs build`` (every language of it) shares."""

    def __init__(self, cache: AssetCache, stale: list[str], data_stale: bool):
        self.cache, self.stale, self.data_stale = cache, stale, data_stale
        self.clock = time.perf_counter()
        self.job = None
        self.runner = None
        self.numbers: dict[str, str] | None = None
        self.verdicts: dict | None = None
        self.pending: list[_PendingFile] = []
        self.site_dir = Path("site")
        self.render_context = ""
        from attention_explained.sitebuild.notebook_html import SharedAssets

        self.shared = SharedAssets()
        self.commit: str | None = None  # the commit "Open in Colab" installs
        self.math_font: tuple[Path, Path, set[int]] | None = None  # font, its CSS, code points
        self.notebook_pages: list[str] = []  # their HTML: the shared CSS keeps what they use
        self.number_names: dict[str, str] = {}  # token → {{ae:name}}, every page's
        self.unfilled: list[tuple[str, str]] = []  # (written HTML, page): numbers come later
        self.claims: list[tuple[str, list[str]]] = []  # (page, claim names it marks)
        self.alt_claims: list[tuple[str, str]] = []  # (page, figure id whose alt text states)


class AttentionExplainedPlugin(BasePlugin[PluginConfig]):
    """Build-time figures, numbers and notebooks from the package, i18n-safe.

    Event order and priorities. mkdocs-static-i18n runs its ``on_config``, ``on_files``,
    ``on_nav`` and ``on_post_build`` at priority -100, and builds every other language
    *inside* its own ``on_post_build`` of the default language, replaying the events with
    ``i18n.building`` set. So:

    - ``on_startup``: present so that MkDocs keeps this object across ``mkdocs serve``
      rebuilds, which keeps one warm worker (TensorFlow and matplotlib imported) alive.
    - ``on_config`` (0): once per build (not per language), compute the cache keys and send
      whatever is stale to the worker; start executing stale notebooks. Per language, point
      mkdocs-jupyter's HTML cache at that language's folder.
    - ``on_files`` (-200): after i18n rebuilt the language's Files, add the cached figures,
      numbers and MathJax as generated files.
    - ``on_pre_page`` (100): while serving, let the page reuse its HTML from the last rebuild
      if its Markdown is unchanged; before mkdocs-jupyter reads a notebook, wait for its
      execution.
    - ``on_page_markdown`` (0): turn ``{{ae:…}}`` into tokens, take the claim markers out
      (their verdicts are checked once the numbers exist), rewrite figure lines. Pages wait
      neither for the numbers nor for the figures, so both languages are rendered while the
      worker still trains.
    - ``on_page_content`` (0): typeset the math; refuse a number inside math or a heading;
      move a notebook page's inline CSS/JS into shared files.
    - ``on_env`` (0): keep compiled templates in the cache between builds.
    - ``on_page_context`` (100, before Material's search indexes the page): while serving,
      let unchanged pages reuse their search entries; the Colab button's URL.
    - ``on_post_page`` (-50): put the numbers in the page's HTML if they exist by now;
      otherwise the written file gets them in ``on_post_build``.
    - ``on_post_build`` (-200): after i18n's, so its outermost call comes after the LAST
      language (the nested ones return at once). First what needs only the pages: the
      search lexicon and the notebook pages' shared CSS/JS; then wait for the worker, copy
      the figures, check every claim, and put the numbers in the pages written before they
      existed and in the search index; close the worker (unless serving) and the kernel.
    - ``on_shutdown``: stop the warm worker when ``mkdocs serve`` ends.

    To add a build step, put its logic in a module beside this one as pure functions and
    call it from the handler of its event here (a few lines).
    """

    def __init__(self):
        super().__init__()
        self.serving = False
        self.warm = None  # the worker kept across serve rebuilds
        self._one_shot = None  # the worker of one `mkdocs build`
        self.render_cache = None  # pages' HTML kept across serve rebuilds
        self.search_entries = None  # pages' search entries, kept across builds on disk
        self.page_contents: dict[str, tuple] | None = None  # serve: on_page_content's results
        self.kiwi_warm = False  # serve: Kiwi loaded in the background after the first build
        self.build: _Build | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        if self.serving:
            from attention_explained.sitebuild.render_cache import RenderCache

            self.render_cache = RenderCache()
            self.page_contents = {}
            # `kill <pid>` ends serve through its finally: on_shutdown stops the worker.
            signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)

    def on_shutdown(self) -> None:
        if self.warm is not None:
            self.warm.close()
            self.warm = None

    # -- once per build: start everything stale, in parallel --------------------------------
    def on_config(self, config: MkDocsConfig):
        lang, _ = _languages(config)
        root = Path(config.config_file_path or ".").resolve().parent
        cache_dir = (root / self.config.cache_dir).resolve()
        docs_dir = Path(config.docs_dir).resolve()
        if cache_dir == docs_dir or docs_dir in cache_dir.parents:
            raise PluginError(f"attention-explained: cache_dir {cache_dir} must be outside docs/")
        if not _i18n_building(config):
            self.build = self._start_build(cache_dir, docs_dir)
            self.build.site_dir = Path(config.site_dir)  # the root, before i18n nests ``en/``
        _separate_notebook_html_cache(config, self.build.cache.notebook_html_dir(lang))
        return config

    def _start_build(self, cache_dir: Path, docs_dir: Path) -> _Build:
        graph = ImportGraph(memo=memo_path(cache_dir))
        cache = AssetCache(cache_dir, graph)
        if self.search_entries is None:  # serve keeps its memory; a build reads the disk
            from attention_explained.sitebuild.render_cache import SearchEntryCache

            self.search_entries = SearchEntryCache(cache.root / "search" / "entries.json")
        self.search_entries.begin()
        stale = cache.stale_figures() if self.config.figures else []
        build = _Build(cache, stale, cache.data_stale())
        if stale or build.data_stale:
            build.job = self._worker(cache_dir).submit(cache, stale, build.data_stale)
            if not self.serving:
                self._one_shot.finish_input()
        sources = sorted(
            p for pattern in self.config.notebooks for p in docs_dir.glob(pattern) if p.is_file()
        )
        if sources:
            from attention_explained.sitebuild.notebooks import NotebookRunner

            build.runner = NotebookRunner(
                sources, cache_dir, timeout=self.config.notebook_timeout, graph=graph
            )
            build.runner.on_stage = _log_stage
            build.runner.start()
        if self.config.mathml:
            build.math_font = _prepare_math_font(cache.root, docs_dir)
        return build

    def _worker(self, cache_dir: Path):
        from attention_explained.sitebuild.worker import Worker

        if not self.serving:
            self._one_shot = Worker(cache_dir, jobs=self.config.jobs)
            self._one_shot.on_stage = _log_stage
            return self._one_shot
        if self.warm is None or not self.warm.alive():
            self.warm = Worker(cache_dir, jobs=self.config.jobs)
            self.warm.on_stage = _log_stage
        return self.warm

    # -- per language: the generated files --------------------------------------------------
    @event_priority(-200)  # after mkdocs-static-i18n (-100), which rebuilds every File
    def on_files(self, files: Files, config: MkDocsConfig):
        build = self.build
        lang, default = _languages(config)
        prefix = "" if lang == default else f"{lang}/"

        def add(name: str, path: Path, *, pending: bool = True) -> None:
            """Serve ``path`` at ``<prefix><name>``; the src_uri carries the language so that
            i18n's lookup of ``figures/<id>.svg`` from a page finds this language's file."""
            stem, dot, ext = name.rpartition(".")
            kind = _PendingFile if pending else File
            file = kind.generated(config, f"{stem}.{lang}{dot}{ext}", abs_src_path=str(path))
            file.dest_uri = f"{prefix}{name}"
            file.url = file.dest_uri
            file.abs_dest_path = str(Path(config.site_dir) / file.dest_uri)
            files.append(file)
            if pending:
                build.pending.append(file)

        if self.config.figures:
            figure_lang = lang if lang in LANGS else "en"
            for figure_id in build.cache.figure_ids:
                for theme, suffix in THEMES:
                    path = build.cache.figure_path(figure_id, figure_lang, theme)
                    add(f"figures/{figure_id}{suffix}.svg", path)
        # The explorer page checks its JavaScript against these values from the package.
        add("assets/explorer/reference.json", build.cache.explorer_path)
        if self.config.mathjax:
            from attention_explained.sitebuild.mathjax import mathjax_files

            for rel, path in mathjax_files():
                add(f"assets/mathjax/{rel}", path, pending=False)
        if build.math_font is not None and not prefix:  # every language links the root copy
            font, css, _ = build.math_font
            add(f"assets/math/{font.name}", font, pending=False)
            add("assets/math/math.css", css, pending=False)
        if build.runner is not None:
            for file in files.documentation_pages():
                source = Path(file.abs_src_path or "")
                if source in build.runner.keys:
                    file.abs_src_path = str(build.runner.output_path(source))
        if self.render_cache is not None:
            from attention_explained.sitebuild.render_cache import files_digest

            config_file = Path(config.config_file_path or "")
            text = config_file.read_bytes() if config_file.is_file() else b""
            build.render_context = f"{lang}:{files_digest(files)}:{digest(text)}"
        return files

    # -- notebooks must be executed before mkdocs-jupyter renders them ------------------------
    @event_priority(100)
    def on_pre_page(self, page, config: MkDocsConfig, files: Files):
        if self.render_cache is not None:
            self.render_cache.wrap(page, self.build.render_context)
        runner = self.build.runner
        if runner is not None and page.file.abs_src_path:
            source = runner.source_for(Path(page.file.abs_src_path))
            if source is not None:
                from attention_explained.sitebuild.notebooks import NotebookError

                try:
                    runner.wait(source)
                except NotebookError as exc:
                    raise PluginError(f"attention-explained: {exc}") from exc
        return page

    # -- numbers, claims and figure lines in the Markdown -------------------------------------
    def on_page_markdown(self, markdown: str, page, config: MkDocsConfig, files: Files):
        where = page.file.src_uri
        try:
            if md.has_numbers(markdown):
                markdown, names = md.mark_numbers(markdown, where)
                self.build.number_names.update(names)
            if "claim:" in markdown:
                from attention_explained.sitebuild.claims import take_claims

                markdown, names = take_claims(markdown)
                self.build.claims.append((where, names))
            if "figures/" in markdown:
                lang, _ = _languages(config)
                markdown = self._figures(markdown, lang, where)
        except ValueError as exc:  # MarkdownError
            raise PluginError(f"attention-explained: {exc}") from exc
        return markdown

    def _figures(self, markdown: str, lang: str, where: str) -> str:
        """Note the claims a package alt text states, then rewrite the figure lines."""
        graph = self.build.cache.graph
        alt_claims = graph.alt_claims()
        for figure_id in md.figures_without_alt(markdown):
            if alt_claims.get(figure_id):
                self.build.alt_claims.append((where, figure_id))
        figure_lang = lang if lang in LANGS else "en"
        return md.rewrite_figures(
            markdown,
            self.build.cache.figure_ids,
            lambda figure_id: graph.alt_text(figure_id, figure_lang),
            where,
        )

    def _data_ready(self) -> bool:
        """The numbers and verdicts are in the cache (raises if making them failed)."""
        job = self.build.job
        if job is not None and "data" in job.ready:
            if not job.ready["data"].is_set():
                return False
            try:
                job.wait_data()
            except RuntimeError as exc:
                raise PluginError(f"attention-explained: {exc}") from exc
        if self.build.numbers is None:
            self.build.numbers = self.build.cache.load_numbers()
            self.build.verdicts = self.build.cache.load_claims()
        return True

    def _use_numbers(self) -> None:
        """Load the numbers, check every claim against them, fill the pages written before."""
        self._data_ready()
        self._check_claims()
        self._fill_written()

    def _check_claims(self) -> None:
        """Every claim a page marks or a figure's alt text states must hold (verdicts exist)."""
        from attention_explained.sitebuild.claims import ClaimError, check_claim_names
        from attention_explained.sitebuild.figure_claims import check_alt_claims

        alt_claims = self.build.cache.graph.alt_claims()
        try:
            for where, names in self.build.claims:
                check_claim_names(names, self.build.verdicts, where)
            for where, figure_id in self.build.alt_claims:
                check_alt_claims(figure_id, self.build.verdicts, where, alt_claims)
        except ClaimError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    def _fill(self, text: str, where: str, escape=None) -> str:
        try:
            return md.fill_numbers(
                text,
                self.build.number_names,
                self.build.numbers,
                where,
                escape=escape or html.escape,
            )
        except ValueError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    def _fill_written(self) -> None:
        """Numbers into the pages written before they existed, and into the search indexes."""
        while self.build.unfilled:
            path, where = self.build.unfilled.pop()
            target = Path(path)
            target.write_text(self._fill(target.read_text("utf-8"), where), encoding="utf-8")
        for index in sorted(self.build.site_dir.glob("**/search/search_index.json")):
            text = index.read_text("utf-8")
            if md.TOKEN.search(text):
                filled = self._fill(text, str(index), md.json_string)
                index.write_text(filled, encoding="utf-8")

    # -- notebook pages: shared CSS/JS instead of 600 KB inline --------------------------------
    def on_page_content(self, html: str, page, config: MkDocsConfig, files: Files):
        if self.page_contents is None:
            return self._page_content(html, page)
        # Serve: an unchanged page's HTML is not typeset or split again. The result depends
        # on the HTML, where the page is, its anchors and the math font's coverage.
        from attention_explained.sitebuild.notebook_html import toc_ids

        font = str(self.build.math_font[0]) if self.build.math_font else ""
        key = digest(page.file.src_uri, page.url, html, font, *toc_ids(page.toc))
        if key not in self.page_contents:
            if len(self.page_contents) > 2000:  # a long session: start over rather than grow
                self.page_contents.clear()
            start = len(self.build.notebook_pages)
            output = self._page_content(html, page)
            linked = {  # the shared files this page links to (content-named), whoever added them
                name: text
                for name, text in self.build.shared.files.items()
                if posixpath.basename(name) in output
            }
            self.page_contents[key] = (output, self.build.notebook_pages[start:], linked)
            return output
        output, notebook_pages, linked = self.page_contents[key]
        self.build.notebook_pages.extend(notebook_pages)
        for name, text in linked.items():
            self.build.shared.files.setdefault(name, text)
        return output

    def _page_content(self, html: str, page) -> str:
        if not (page.file.abs_src_path or "").endswith(".ipynb"):
            return self._typeset(html, page)
        from attention_explained.sitebuild import notebook_html

        html = notebook_html.align_heading_ids(
            html, notebook_html.toc_ids(page.toc), page.file.src_uri
        )
        html = self._typeset(html, page)
        self.build.notebook_pages.append(html)
        return notebook_html.link_shared(html, page.url, self.build.shared)

    def _typeset(self, html: str, page) -> str:
        """TeX → MathML at build time; a formula the font cannot draw stops the build."""
        if md.TOKEN.search(html):
            misplaced = md.misplaced_numbers(html)
            if misplaced:
                raise PluginError(
                    f"attention-explained: {page.file.src_uri}: {misplaced[0]} "
                    "(write the {{ae:…}} number outside $…$ and outside headings)"
                )
        if self.build.math_font is None:
            return html
        from attention_explained.sitebuild import math

        try:
            html, count = math.typeset_html(html, page.file.src_uri)
        except math.MathError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc
        font, _, covered = self.build.math_font
        missing = math.uncovered(math.math_characters(html), covered)
        if missing:
            raise PluginError(
                f"attention-explained: {page.file.src_uri}: the math font lacks {missing}"
            )
        if count:  # fetch the font while the page is parsed, not after its first layout
            # The copy at the site root, which math.css (extra_css) names in every language.
            here = page.url if page.url.endswith("/") else posixpath.dirname(page.url)
            href = posixpath.relpath(f"assets/math/{font.name}", here or ".")
            preload = f'<link rel="preload" href="{href}" as="font" type="font/woff2" crossorigin>'
            html = f"{preload}\n{html}"
        return html

    def on_env(self, env, config: MkDocsConfig, files: Files):
        # Compiled theme templates survive between builds (jinja2 checks each template's
        # source checksum), so a warm build does not recompile Material for each language.
        from jinja2 import FileSystemBytecodeCache

        jinja_dir = self.build.cache.jinja_dir
        jinja_dir.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(jinja_dir))
        return env

    def on_serve(self, server, config: MkDocsConfig, builder):
        server.watch(str(PACKAGE_DIR))  # editing a figure redraws just that figure
        return server

    # -- per language, and after the last one -------------------------------------------------
    @event_priority(-200)  # after mkdocs-static-i18n's, which builds the other languages
    def on_post_build(self, config: MkDocsConfig):
        if _i18n_building(config):
            return  # the outermost call, after the last language, does it all
        build = self.build
        try:
            # What needs only the rendered pages first, while the worker may still draw.
            self._write_search_data(config)
            self._write_shared_notebook_files()
            # New numbers: the claims and the pages now, while the last figures are drawn.
            numbers_first = build.job is not None and build.job.settled("data")
            if numbers_first:
                self._use_numbers()
            if build.job is not None:
                try:
                    build.job.wait()  # every failure of the job, figures' and numbers'
                except RuntimeError as exc:
                    raise PluginError(f"attention-explained: {exc}") from exc
            while build.pending:  # every language's
                build.pending.pop().copy_now()
            if not numbers_first:
                self._use_numbers()
        finally:
            self._finish(build)
        cached = len(build.cache.figure_ids) - len(build.stale) if self.config.figures else 0
        executed = len(build.runner.executed) if build.runner else 0
        reused = f"; search entries reused {self.search_entries.hits}"
        if self.render_cache is not None:
            reused = f"; pages reused {self.render_cache.hits}{reused}"
            self.render_cache.hits = 0
        self.search_entries.hits = 0
        log.info(
            "attention-explained: figures rendered %d, from cache %d; "
            "notebooks executed %d%s; %.1f s",
            len(build.stale),
            cached,
            executed,
            reused,
            time.perf_counter() - build.clock,
        )

    def _write_shared_notebook_files(self) -> None:
        """The notebook pages' CSS/JS, every language's, at the site root."""
        from attention_explained.sitebuild.css import pruned_css

        for name, text in self.build.shared.files.items():
            if name.endswith(".css"):  # JupyterLab's whole stylesheet: keep what can match
                text = pruned_css(text, self.build.notebook_pages, self.build.cache.root / "css")
            target = self.build.site_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def _write_search_data(self, config: MkDocsConfig) -> None:
        """``search/<lang>.json`` for the search worker wrapper (``search.py``): the Korean
        stems and endings that Kiwi finds in the Korean pages, and the term sheet's synonyms."""
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if search is None:
            return
        from attention_explained.sitebuild.search import write_search_data
        from attention_explained.sitebuild.terms import load_term_sheet

        _, default = _languages(config)
        prefixes = {lang: "" if lang == default else f"{lang}/" for lang in LANGS}
        others = tuple(prefix for prefix in prefixes.values() if prefix)
        sheet = Path(config.config_file_path or "mkdocs.yml").parent / self.config.term_sheet
        entries = getattr(search.search_index, "entries", [])
        texts = [  # numbers are no words to stem: their tokens go, whether or not they exist
            md.TOKEN.sub("", f"{e['title']}\n{e['text']}")
            for e in entries
            if not e.get("location", "").startswith(others)  # the default language's pages
        ]
        if self.serving and not self.kiwi_warm:  # the next edit finds Kiwi loaded
            from attention_explained.sitebuild.search import warm_up

            warm_up(texts)
            self.kiwi_warm = True
        write_search_data(
            self.build.site_dir,
            self.build.cache.root / "search",
            prefixes,
            default,
            texts,
            load_term_sheet(sheet) if sheet.is_file() else [],
            search.config.separator or r"[\s\-]+",
        )

    # -- Open in Colab (colab.py): the button's URL, and the install cell in the .ipynb -----
    @event_priority(100)  # before Material's search indexes the page (0)
    def on_page_context(self, context, page, config: MkDocsConfig, nav):
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if getattr(search, "search_index", None) is not None:
            self.search_entries.wrap(search.search_index, _search_context(search))
        if getattr(page, "nb_url", None) and config.repo_url:
            from attention_explained.sitebuild.colab import colab_url

            ipynb = posixpath.basename(page.file.abs_src_path)
            page.meta["colab_url"] = colab_url(config.repo_url, page.url + ipynb)
        return context

    @event_priority(-50)  # after mkdocs-jupyter copied the executed .ipynb into the site
    def on_post_page(self, output: str, page, config: MkDocsConfig):
        if md.TOKEN.search(output):
            if self._data_ready():
                output = self._fill(output, page.file.src_uri)
            else:  # written with tokens; on_post_build fills it
                self.build.unfilled.append((page.file.abs_dest_path, page.file.src_uri))
        if page.meta.get("colab_url"):
            from attention_explained.sitebuild.colab import add_install_cell, build_commit

            if self.build.commit is None:
                self.build.commit = build_commit(repo_dir=Path(config.config_file_path).parent)
            target = Path(page.file.abs_dest_path).parent / Path(page.file.abs_src_path).name
            add_install_cell(target, config.repo_url, self.build.commit)
        return output

    def _finish(self, build: _Build) -> None:
        self.search_entries.save()
        if build.math_font is not None:
            from attention_explained.sitebuild import math

            math.save_conversions(_conversions_path(build.cache.root))
        if build.runner is not None:
            build.runner.close()
        if not self.serving and self._one_shot is not None:
            self._one_shot.close()
            self._one_shot = None


def _search_context(search) -> str:
    """What Material's search entries depend on besides the page: its config and version."""
    from importlib.metadata import version

    options = json.dumps(dict(search.config), sort_keys=True, default=str)
    return f"mkdocs-material {version('mkdocs-material')}\n{options}"


def _raise_keyboard_interrupt(signum, frame):
    raise KeyboardInterrupt


def _log_stage(name: str, seconds: float) -> None:
    log.info("attention-explained: stage %s %.2f s", name, seconds)


def _languages(config: MkDocsConfig) -> tuple[str, str]:
    """(language being built, default language); both the theme's without mkdocs-static-i18n."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        lang = config.theme.get("language") or "en"
        return lang, lang
    # Before i18n's own on_config has run, the build is the default language's.
    return i18n.current_language or i18n.default_language, i18n.default_language


def _i18n_building(config: MkDocsConfig) -> bool:
    """True inside mkdocs-static-i18n's nested build of a non-default language."""
    i18n = config.plugins.get("i18n")
    return bool(i18n is not None and getattr(i18n, "building", False))


def _prepare_math_font(cache_root: Path, docs_dir: Path) -> tuple[Path, Path, set[int]]:
    """The math font cut to what the site's formulas draw, and its stylesheet (cached)."""
    from attention_explained.sitebuild import math

    source = math.font_source()
    math.load_conversions(_conversions_path(cache_root))
    chars = math.characters_for(sorted(docs_dir.rglob("*.md")))
    folder = cache_root / "math-font" / math.font_cache_key(source, chars)
    font, css = folder / f"{math.FONT_NAME}.woff2", folder / "math.css"
    if not font.is_file():
        math.subset_math_font(source, font, chars)
    css.write_text(math.font_css(f"{math.FONT_NAME}.woff2"), encoding="utf-8")
    return font, css, {ord(c) for c in chars}


def _conversions_path(cache_root: Path) -> Path:
    """Where TeX → MathML conversions are kept between builds (one file per converter)."""
    from attention_explained.sitebuild import math

    return cache_root / "math-font" / f"mathml-{math.conversions_key()}.json"


def _separate_notebook_html_cache(config: MkDocsConfig, folder: Path) -> None:
    """Give mkdocs-jupyter's rendered-HTML cache one folder per language.

    Its post-build step deletes every entry the current build did not use, and with i18n
    each language is a separate build, so a shared folder lost the other language's pages
    every time (mkdocs-jupyter 0.26).
    """
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None and jupyter.config.get("cache"):
        jupyter.config["cache_dir"] = str(folder)
