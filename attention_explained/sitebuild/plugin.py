"""The MkDocs plugin: one handler per event, each a few lines calling the modules beside it.

Thin by design: it decides *when* (once per build, not once per language) and *where*
(files outside docs/, found through the cache). ``config`` holds the options, ``build`` the
state one build shares and its steps; ``markdown``, ``claims``, ``math``, ``search``,
``keys``, ``cache`` and ``notebook_html`` decide *what*. The figures, numbers, verdicts and
executed notebooks are made before, by the asset step (``assets.py``).
"""

from __future__ import annotations

import functools
import logging
import os
import posixpath
import signal
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files

from attention_explained.languages import LanguageError, check_known, prefixes
from attention_explained.sitebuild import config as options
from attention_explained.sitebuild._internal.build import Build, reuse_report, template_cache
from attention_explained.sitebuild._internal.render_cache import (
    PageContentCache,
    RenderCache,
    SearchEntryCache,
    content_code,
    content_context,
    render_code,
    render_context,
    search_context,
)
from attention_explained.sitebuild.keys import PACKAGE_DIR

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "AttentionExplainedPlugin",
]

log = logging.getLogger("mkdocs.plugins.attention_explained")

# nbconvert's NbConvertApp instantiates every installed exporter when it is imported, to ask
# each whether the user's Jupyter config enables it: ~0.4 s of every build, for a list that
# mkdocs-jupyter never reads. This switch (nbconvert's own) keeps the list without that. The
# plugin is listed before mkdocs-jupyter in mkdocs.yml, so it is set before nbconvert loads.
os.environ.setdefault("NBCONVERT_DISABLE_CONFIG_EXPORTERS", "1")


class AttentionExplainedPlugin(BasePlugin[options.PluginConfig]):
    """Build-time figures, numbers and notebooks from the package, i18n-safe.

    The MkDocs side only reads finished assets. ``python -m attention_explained assets
    build`` (``assets.py``, no MkDocs) makes the figures, the numbers, the claims' verdicts
    and the executed notebooks, and writes a manifest. When the manifest records this
    build's keys and every asset is whole, ``on_config`` reads the numbers and verdicts and
    each page's ``{{ae:…}}`` is filled in ``on_page_markdown`` by the code of the Markdown
    extension (``markdown_numbers.fill_placeholders``), so a number may stand inside math or
    a heading and nothing written is patched afterwards. When it does not (``mkdocs serve``
    after an edit to the package, a bare ``mkdocs build``), ``on_config`` first runs the asset
    step itself, as a subprocess (``build.run_asset_step``: TensorFlow stays out of the MkDocs
    process, and each run imports the package as it is on disk), and waits for it; nothing
    is rendered before every asset is finished.

    Event order and priorities. mkdocs-static-i18n runs its ``on_config``, ``on_files``,
    ``on_nav`` and ``on_post_build`` at priority -100, and builds every other language
    *inside* its own ``on_post_build`` of the default language, replaying the events with
    ``i18n.building`` set. So:

    - ``on_startup``: present so that MkDocs keeps this object across ``mkdocs serve``
      rebuilds, which keeps the page memories (pages' HTML, content, search entries) and
      the code keys they were filed under.
    - ``on_config`` (0): once per build (not per language), compute the cache keys; run the
      asset step if its manifest is not fresh; read the numbers and verdicts; read the page
      memories from the cache (once per process). Per language, point mkdocs-jupyter's HTML
      cache at a private copy of that language's pages.
    - ``on_files`` (-200): after i18n rebuilt the language's Files, add the cached figures,
      numbers and MathJax as generated files; point each notebook page at its executed copy.
    - ``on_pre_page`` (100): let the page reuse its HTML from an earlier build if its
      Markdown and everything else rendering reads are unchanged.
    - ``on_page_markdown`` (0): put the page's reading time under its title (from its
      source, ``reading.py``); fill ``{{ae:…}}``, take the claim markers out (their verdicts
      are checked in ``on_post_build``), place the answer boxes, rewrite figure lines.
    - ``on_page_content`` (0): typeset the math; label a notebook page's copy buttons in its
      language (Material's words) and move its inline CSS/JS into shared files.
    - ``on_env`` (0): keep compiled templates in the cache between builds.
    - ``on_page_context`` (100, before Material's search indexes the page): let unchanged
      pages reuse their search entries; the Colab button's URL.
    - ``on_post_page`` (-50): hide links to a PDF edition this build lacks; add the Colab
      install cell to the executed ``.ipynb`` mkdocs-jupyter copied into the site.
    - ``on_post_build`` (-200): after i18n's, so its outermost call comes after the LAST
      language (the nested ones return at once): the search lexicon, the notebook pages'
      shared CSS/JS, ``llms.txt``; check every claim and answer marker; install the pages
      mkdocs-jupyter rendered into the cache; keep the page memories for the next build (serve:
      after its first build only).

    To add a build step, put its logic in a module beside this one as pure functions (or a
    step of ``build.Build``) and call it from the handler of its event here (a few lines).
    """

    def __init__(self):
        super().__init__()
        self.serving = False
        # Page memories (render_cache.py), read from the cache once per process (and site) and
        # saved after each build (serve: its first): pages' HTML, Material's search entries,
        # on_page_content's results.
        self.memories_dir: Path | None = None
        self.render_cache: RenderCache | None = None
        self.search_entries: SearchEntryCache | None = None
        self.page_contents: PageContentCache | None = None
        self.code_keys: tuple[str, str] | None = None  # (render_code, content_code), once
        self.memories_saved = False
        self.kiwi_warm = False  # serve: Kiwi loaded in the background after the first build
        self.build: Build | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        if self.serving:
            # `kill <pid>` ends serve through its finally (an asset step running is killed).
            signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)

    # -- once per build: the finished assets (the asset step first, if they are stale) -----
    def on_config(self, config: MkDocsConfig):
        lang, _ = options.languages(config)
        try:
            cache_dir = options.cache_dir(self.config, config)
        except options.OptionError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc
        if not options.i18n_building(config):
            from attention_explained.sitebuild._internal.build_date import pin_build_date

            pin_build_date(Path(config.config_file_path or ".").resolve().parent)  # sitemap dates
            langs, _ = options.site_languages(config)
            try:  # the package draws figures and writes its words in settings.LANGS only
                check_known(langs, "mkdocs.yml's i18n plugin")
            except LanguageError as exc:
                raise PluginError(f"attention-explained: {exc}") from exc
            self.open_memories(cache_dir)
            docs_dir = Path(config.docs_dir).resolve()
            config_dir = Path(config.config_file_path or ".").resolve().parent
            self.build = Build.start(self.config, cache_dir, docs_dir, config_dir)
            if self.code_keys is None:  # the code this process runs (render_cache.py)
                graph = self.build.cache.graph
                self.code_keys = (
                    render_code(graph, config.markdown_extensions),
                    content_code(graph, dict(self.config)),
                )
            self.build.site_dir = Path(config.site_dir)  # the root, before i18n nests ``en/``
        self.build.private_notebook_html_cache(config, lang)
        return config

    # -- per language: the generated files --------------------------------------------------
    @event_priority(-200)  # after mkdocs-static-i18n (-100), which rebuilds every File
    def on_files(self, files: Files, config: MkDocsConfig):
        lang, default = options.languages(config)
        prefix = prefixes((lang,), default)[lang]
        self.build.add_generated_files(files, config, self.config, lang, prefix)
        self.build.use_executed_notebooks(files)
        config_file = Path(config.config_file_path or "")
        self.build.render_context = render_context(lang, files, config_file, self.code_keys[0])
        self.build.content_context = content_context(config_file, self.code_keys[1])
        return files

    # -- an unchanged page reuses its HTML ----------------------------------------------------
    @event_priority(100)
    def on_pre_page(self, page, config: MkDocsConfig, files: Files):
        self.render_cache.wrap(page, self.build.render_context)
        return page

    # -- numbers, claims and figure lines in the Markdown -------------------------------------
    def on_page_markdown(self, markdown: str, page, config: MkDocsConfig, files: Files):
        lang, _ = options.languages(config)
        where = page.file.src_uri
        from attention_explained.sitebuild._internal.markdown import figure_ids_in

        page.meta["ae_figures"] = figure_ids_in(markdown)  # the first is the page's card
        glossary_page = Path(config.docs_dir, "glossary.md")  # where the rule is stated
        if not where.startswith("notebooks/") and glossary_page.exists():  # reading.py
            from attention_explained.sitebuild.reading import with_reading_line

            glossary = posixpath.relpath("glossary.md", posixpath.dirname(where) or ".")
            try:
                markdown = with_reading_line(markdown, lang, glossary)
            except LanguageError as exc:
                raise PluginError(f"attention-explained: {where}: {exc}") from exc
        return self.build.page_markdown(markdown, where, lang)

    # -- math, and notebook pages: shared CSS/JS instead of 600 KB inline ----------------------
    def on_page_content(self, html: str, page, config: MkDocsConfig, files: Files):
        build = self.build
        html = build.narrow_figures(html)
        from attention_explained.sitebuild._internal.notebook_html import toc_ids

        font = str(build.math_font[0]) if build.math_font else ""
        key = self.page_contents.key(page, html, font, toc_ids(page.toc), build.content_context)
        make = functools.partial(build.page_content, html, page, config)
        return self.page_contents.content(key, make, build.notebook_pages, build.shared.files)

    def on_env(self, env, config: MkDocsConfig, files: Files):
        env.bytecode_cache = template_cache(self.build.cache.jinja_dir)
        env.globals["ae_lastmod"] = functools.partial(self.build.lastmod, config=config)
        return env

    def on_serve(self, server, config: MkDocsConfig, builder):
        # An edit to the package makes the assets stale: the rebuild's on_config runs the asset
        # step, which under `make serve` waits for the watcher's run (`assets watch`, the lock
        # in the cache) and finds it done. The manifest is not watched: every change that
        # rewrites it (the package, docs/) is watched already, and its own rewrite by that
        # rebuild would reload every tab a second time.
        server.watch(str(PACKAGE_DIR))
        return server

    # -- Open in Colab (colab.py): the button's URL, and the install cell in the .ipynb -----
    @event_priority(100)  # before Material's search indexes the page (0)
    def on_page_context(self, context, page, config: MkDocsConfig, nav):
        search = options.search_plugin(config)
        if getattr(search, "search_index", None) is not None:
            self.search_entries.wrap(search.search_index, search_context(search))
        self.build.share_page(page, config, nav)  # card, JSON-LD, lastmod, llms.txt line
        self.build.template_words(page, config)  # the buttons overrides/main.html adds
        if getattr(page, "nb_url", None) and config.repo_url:
            from attention_explained.sitebuild._internal.colab import colab_url

            ipynb = posixpath.basename(page.file.abs_src_path)
            page.meta["colab_url"] = colab_url(config.repo_url, page.url + ipynb)
        return context

    @event_priority(-50)  # after mkdocs-jupyter copied the executed .ipynb into the site
    def on_post_page(self, output: str, page, config: MkDocsConfig):
        return self.build.page_output(output, page, config)

    # -- per language, and after the last one -------------------------------------------------
    @event_priority(-200)  # after mkdocs-static-i18n's, which builds the other languages
    def on_post_build(self, config: MkDocsConfig):
        if options.i18n_building(config):
            return  # the outermost call, after the last language, does it all
        build = self.build
        try:
            search = options.search_plugin(config)
            if search is not None:
                langs, default = options.site_languages(config)
                sheet = options.term_sheet(self.config, config)
                warm_up = self.serving and not self.kiwi_warm  # the next edit finds Kiwi loaded
                build.write_search_data(search, langs, default, sheet, warm_up_kiwi=warm_up)
                self.kiwi_warm = self.kiwi_warm or warm_up
            build.write_shared_notebook_files()
            build.write_llms_txt()
            build.complete()
        finally:
            # Serve keeps its memories in memory after its first build: writing them again
            # (about 0.1 s) would slow every edit's rebuild.
            if not (self.serving and self.memories_saved):
                for memory in self.memories():
                    memory.save()
                self.memories_saved = True
            build.close()
        reused = reuse_report(self.search_entries, self.render_cache)
        log.info(build.summary(self.config.figures, reused))

    def memories(self) -> tuple:
        return (self.search_entries, self.render_cache, self.page_contents)

    def open_memories(self, cache_dir: Path) -> None:
        """Begin a build's page memories. Serve keeps its memories from build to build; a
        build reads them from ``cache_dir``. MkDocs keeps this object for every build in the
        process (it has ``on_startup``), so a build of another site (another cache) reads its
        own and takes its code keys again."""
        if self.memories_dir != cache_dir:
            self.memories_dir, self.code_keys, self.memories_saved = cache_dir, None, False
            self.search_entries = SearchEntryCache(cache_dir / "search" / "entries.json")
            self.render_cache = RenderCache(cache_dir / "pages" / "render.json")
            self.page_contents = PageContentCache(cache_dir / "pages" / "content.json")
        for memory in self.memories():
            memory.begin()


def _raise_keyboard_interrupt(signum, frame):
    raise KeyboardInterrupt
