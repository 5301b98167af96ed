"""One ``mkdocs build`` (every language of it): what it shares, and its steps.

The plugin (``plugin.py``) decides *when* each step runs; this module holds the state one
build shares across its languages (``Build``) and the steps themselves, each calling the
topic modules beside it: ``markdown`` and ``claims`` (numbers, claim markers, figure lines),
``math`` (MathML, the math font), ``notebook_html`` and ``css`` (notebook pages' shared
files), ``search`` (the search data), ``colab``; the figures, numbers, verdicts and executed
notebooks come finished from the asset step (``assets.py``). Every failure is a
``PluginError`` that names the culprit.
"""

from __future__ import annotations

import json
import logging
import subprocess
import threading
import time
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from attention_explained.languages import LanguageError, pick, prefixes
from attention_explained.settings import LANGS
from attention_explained.sitebuild._internal import markdown as md
from attention_explained.sitebuild._internal.cache import AssetCache
from attention_explained.sitebuild._internal.storage import WorkingCopy
from attention_explained.sitebuild.config import PluginConfig
from attention_explained.sitebuild.keys import ImportGraph, memo_path

log = logging.getLogger("mkdocs.plugins.attention_explained")

THEMES = (("light", ""), ("dark", ".dark"))  # theme → file suffix on the site


# A page without a figure of its own shows this one in its card (share.py).
DEFAULT_CARD = "saturation-heatmaps"
# The longest a rebuild waits for the asset watcher's run (a cold one with every notebook
# takes about a minute here) before it runs the asset step itself, which takes the lock.
WATCHER_TIMEOUT = 900  # seconds


def log_stage(name: str, seconds: float) -> None:
    log.info("attention-explained: stage %s %.2f s", name, seconds)


def figure_language(lang: str) -> str:
    """The language a page in ``lang`` shows its figures in: its own, which must be one of
    settings.LANGS (the figures are drawn in those only); else a PluginError naming it."""
    if lang not in LANGS:
        raise PluginError(
            f"attention-explained: no figures are drawn in {lang!r}: it is not in "
            f"attention_explained/settings.py LANGS ({', '.join(LANGS)}); see 'Add a language' "
            "in CONTRIBUTING.md"
        )
    return lang


class Build:
    """What one ``mkdocs build`` (every language of it) shares."""

    def __init__(self, cache: AssetCache, computed: dict | None = None):
        self.cache = cache
        self.computed = computed or {}  # what the asset step this build ran made (none: fresh)
        self.clock = time.perf_counter()
        self.executed: dict[Path, Path] = {}  # notebook source → executed by the asset step
        self.numbers: dict[str, str] = {}
        self.verdicts: dict = {}
        self.site_dir = Path("site")
        self.render_context = ""  # render_cache.render_context, per language (on_files)
        self.content_context = ""  # render_cache.content_context (on_files)
        from attention_explained.sitebuild._internal.notebook_html import SharedAssets

        self.shared = SharedAssets()
        self.commit: str | None = None  # the commit "Open in Colab" installs
        self.notebook_html: dict[str, WorkingCopy] = {}  # lang → mkdocs-jupyter's private cache
        self.math_font = None  # math.MathFont: the font, its CSS, its code points
        self.notebook_pages: list[str] = []  # their HTML: the shared CSS keeps what they use
        self.copy_words: dict[str, tuple[str, str]] = {}  # theme language → copy button's words
        self.claims: list[tuple[str, list[str]]] = []  # (page, claim names it marks)
        self.alt_claims: list[tuple[str, str]] = []  # (page, figure id whose alt text states)
        self.answers: list = []  # answers.Answer: exercises whose box checks a typed answer
        self.dates: dict[str, str] | None = None  # page source → date of its last commit
        self.llms: dict[str, dict] = {}  # lang → llms.txt's name, description and pages
        self.default_lang = LANGS[0]
        self.figures = True  # the ``figures`` option: without figures, pages get no card
        self.filled: dict[str, list] = {}  # page source → its numbers, by section (search.py)
        self.filled_urls: dict[str, list] = {}  # page URL → the same

    # -- on_config: the finished assets --------------------------------------------------
    @classmethod
    def start(
        cls, options: PluginConfig, cache_dir: Path, docs_dir: Path, config_dir: Path
    ) -> Build:
        """Compute the cache keys; if the asset step's manifest is not fresh for them (an
        edit while serving, a bare ``mkdocs build``), run the asset step first, in its own
        process; then read the finished numbers, verdicts and executed notebooks. Cut the
        math font."""
        from attention_explained.sitebuild.assets import (
            expected_notebooks,
            manifest_fresh,
            manifest_path,
            read_manifest,
            wait_for_watcher,
        )

        def assets_now():
            """The cache as the sources are now (keys read again), its notebooks, fresh?"""
            cache = AssetCache(cache_dir, ImportGraph(memo=memo_path(cache_dir)))
            notebooks = expected_notebooks(cache, docs_dir, options.notebooks)
            fresh = manifest_fresh(cache, figures=options.figures, notebooks=notebooks)
            return cache, notebooks, fresh

        cache, notebooks, fresh = assets_now()
        computed = None
        # under `make serve`: the watcher's run of this edit, warm, instead of a cold one here
        if not fresh and wait_for_watcher(cache.root, timeout=WATCHER_TIMEOUT):
            cache, notebooks, fresh = assets_now()
            if fresh:  # what the watcher's run made, for this build's summary line
                log.info("attention-explained: waited for the asset watcher's run")
                computed = (read_manifest(cache.root) or {}).get("computed")
        if not fresh:  # no watcher, or its run failed: this one shows the error
            run_asset_step(options, cache.root, docs_dir, config_dir)
            cache, notebooks, fresh = assets_now()  # what the step saw, read again
            if not fresh:
                raise PluginError(
                    "attention-explained: the asset step finished, but its manifest "
                    f"({manifest_path(cache.root)}) does not match this build's sources: "
                    "did they change while it ran? Build again."
                )
            computed = (read_manifest(cache.root) or {}).get("computed")
        elif computed is None:
            log.info("attention-explained: assets from %s", manifest_path(cache.root))
        build = cls(cache, computed)
        build.figures = options.figures
        build.load_data()  # numbers and verdicts: pages are filled as they are rendered
        # mkdocs-jupyter reads each notebook from the asset step's executed copy
        build.executed = {docs_dir.resolve() / src: path for src, path in notebooks.items()}
        if options.math == "mathml":
            from attention_explained.sitebuild._internal import math

            build.math_font = math.prepare_font(cache.root, docs_dir)
        return build

    # -- on_files: the generated files of one language -----------------------------------
    def add_generated_files(
        self, files: Files, config: MkDocsConfig, options: PluginConfig, lang: str, prefix: str
    ) -> None:
        """The cached figures, numbers and MathJax or math font, served under ``prefix``."""

        def add(name: str, path: Path) -> None:
            """Serve ``path`` at ``<prefix><name>``; the src_uri carries the language so that
            i18n's lookup of ``figures/<id>.svg`` from a page finds this language's file."""
            stem, dot, ext = name.rpartition(".")
            file = File.generated(config, f"{stem}.{lang}{dot}{ext}", abs_src_path=str(path))
            file.dest_uri = f"{prefix}{name}"
            file.url = file.dest_uri
            file.abs_dest_path = str(Path(config.site_dir) / file.dest_uri)
            files.append(file)

        if options.figures:
            for figure_id in self.cache.figure_ids:
                layouts = (("wide", ""), ("narrow", ".narrow"))
                for layout, infix in (
                    layouts if self.cache.graph.has_narrow(figure_id) else [layouts[0]]
                ):
                    for theme, suffix in THEMES:
                        path = self.cache.figure_path(
                            figure_id, figure_language(lang), theme, layout=layout
                        )
                        add(f"figures/{figure_id}{infix}{suffix}.svg", path)
                # a shared link's preview: PNG, since no card renderer shows SVG
                add(
                    f"figures/{figure_id}.png",
                    self.cache.card_path(figure_id, figure_language(lang)),
                )
        # The explorer page checks its JavaScript against these values from the package.
        add("assets/explorer/reference.json", self.cache.explorer_path)
        if options.math == "mathjax":
            from attention_explained.sitebuild._internal.mathjax import mathjax_files

            for rel, path in mathjax_files():
                add(f"assets/mathjax/{rel}", path)
        if self.math_font is not None and not prefix:  # every language links the root copy
            font, css, _ = self.math_font
            add(f"assets/math/{font.name}", font)
            add("assets/math/math.css", css)

    def use_executed_notebooks(self, files: Files) -> None:
        """mkdocs-jupyter reads each notebook page from its executed copy in the cache."""
        for file in files.documentation_pages():
            source = Path(file.abs_src_path or "").resolve()
            if source in self.executed:
                file.abs_src_path = str(self.executed[source])

    # -- on_page_markdown: numbers, claims and figure lines --------------------------------
    def page_markdown(self, markdown: str, where: str, lang: str) -> str:
        """Numbers filled in (the Markdown extension's code, ``markdown_numbers.py``), claim
        markers taken out (checked in ``on_post_build``), answer boxes placed, figure lines
        rewritten."""
        try:
            if md.has_numbers(markdown):
                from attention_explained.sitebuild.markdown_numbers import fill_placeholders
                from attention_explained.sitebuild.search import section_numbers

                self.filled[where] = section_numbers(markdown, self.numbers)
                markdown = fill_placeholders(markdown, self.numbers, where, lang)
            if "claim:" in markdown:
                from attention_explained.sitebuild._internal.claims import take_claims

                markdown, names = take_claims(markdown)
                self.claims.append((where, names))
            if "answer:" in markdown:
                from attention_explained.sitebuild._internal.answers import take_answers

                markdown, answers = take_answers(markdown, where, self.numbers)
                self.answers.extend(answers)
            if "figures/" in markdown:
                markdown = self.figure_lines(markdown, lang, where)
        except ValueError as exc:  # MarkdownError, AnswerError
            raise PluginError(f"attention-explained: {exc}") from exc
        return markdown

    def figure_lines(self, markdown: str, lang: str, where: str) -> str:
        """Note the claims a package alt text states, then rewrite the figure lines."""
        graph = self.cache.graph
        alt_claims = graph.alt_claims()
        for figure_id in md.figures_without_alt(markdown):
            if alt_claims.get(figure_id):
                self.alt_claims.append((where, figure_id))
        return md.rewrite_figures(
            markdown, self.cache.figure_ids, lambda figure_id: self.alt_text(figure_id, lang), where
        )

    def alt_text(self, figure_id: str, lang: str) -> str:
        """``figure_id``'s alt text in ``lang``; a PluginError names a missing one."""
        figure_lang = figure_language(lang)
        try:
            return self.cache.graph.alt_text(figure_id, figure_lang)
        except KeyError:
            module = self.cache.graph.figure_entry(figure_id)
            raise PluginError(
                f"attention-explained: figure {figure_id!r} has no alt text in {figure_lang!r}"
                f" (STRINGS['alt'] in {module}); see 'Add a language' in CONTRIBUTING.md"
            ) from None

    # -- on_page_content: phones' figures, math, and notebook pages' shared CSS/JS ---------
    def narrow_figures(self, html: str) -> str:
        """Each figure with a narrow variant in a ``<picture>`` that shows it on phones."""
        if "figures/" not in html:
            return html
        graph = self.cache.graph
        return md.narrow_sources(html, [i for i in self.cache.figure_ids if graph.has_narrow(i)])

    # -- on_page_content: math, and notebook pages' shared CSS/JS --------------------------
    def page_content(self, html: str, page, config: MkDocsConfig) -> str:
        """Typeset the math; a notebook page also gets its headings' ids aligned with its
        table of contents, its copy buttons labelled in its language, and its inline CSS/JS
        moved into shared files."""
        if not (page.file.abs_src_path or "").endswith(".ipynb"):
            return self.typeset(html, page)
        from attention_explained.sitebuild._internal import notebook_html

        html = notebook_html.align_heading_ids(
            html, notebook_html.toc_ids(page.toc), page.file.src_uri
        )
        language = config.theme["language"]
        if language not in self.copy_words:  # Material's words, once per language
            words = notebook_html.copy_words(config.theme.get_env(), config)
            self.copy_words[language] = words
        html = notebook_html.copy_buttons(html, *self.copy_words[language])
        html = self.typeset(html, page)
        self.notebook_pages.append(html)
        return notebook_html.link_shared(html, page.url, self.shared)

    def typeset(self, html: str, page) -> str:
        """TeX → MathML at build time; a formula the font cannot draw stops the build."""
        if self.math_font is None:
            return html
        from attention_explained.sitebuild._internal import math

        try:
            return math.typeset_page(html, page.file.src_uri, page.url, self.math_font)
        except math.MathError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    # -- on_post_page --------------------------------------------------------------------
    def page_output(self, output: str, page, config: MkDocsConfig) -> str:
        """Links to a PDF edition this build lacks hidden; the Colab install cell in the
        page's executed .ipynb."""
        if ".pdf" in output:  # links to a PDF edition that this build does not have
            from attention_explained.pdf_links import hide_missing

            site_root = self.site_dir
            output = hide_missing(output, page.url, lambda path: (site_root / path).is_file())
        if page.meta.get("colab_url"):
            from attention_explained.sitebuild._internal.colab import add_install_cell, build_commit

            if self.commit is None:
                self.commit = build_commit(repo_dir=Path(config.config_file_path).parent)
            # mkdocs-jupyter copied the executed notebook there (include_source); the copy
            # is replaced whole, made from the cache entry, which is only ever read.
            source = Path(page.file.abs_src_path)
            target = Path(page.file.abs_dest_path).parent / source.name
            add_install_cell(target, config.repo_url, self.commit, source=source)
        return output

    # -- on_post_build: after the last language -------------------------------------------
    def complete(self) -> None:
        """Every claim a page marks or a figure's alt text states holds (the verdicts came
        with the assets); every answer marker names a number a reader can type."""
        self.check_claims()
        self.check_answers()

    def load_data(self) -> None:
        """Read the finished numbers and verdicts from the cache."""
        from attention_explained.sitebuild._internal.claims import ClaimError

        self.numbers = self.cache.load_numbers()
        try:
            self.verdicts = self.cache.load_claims()
        except ClaimError as exc:  # a check raised: named, without a traceback
            raise PluginError(f"attention-explained: {exc}") from exc

    def check_claims(self) -> None:
        """Every claim a page marks or a figure's alt text states must hold (verdicts exist)."""
        from attention_explained.sitebuild._internal.claims import ClaimError, check_claim_names
        from attention_explained.sitebuild._internal.figure_claims import check_alt_claims

        alt_claims = self.cache.graph.alt_claims()
        try:
            for where, names in self.claims:
                check_claim_names(names, self.verdicts, where)
            for where, figure_id in self.alt_claims:
                check_alt_claims(figure_id, self.verdicts, where, alt_claims)
        except ClaimError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    def check_answers(self) -> None:
        """Every answer marker names a number that prints as one value (numbers exist)."""
        from attention_explained.sitebuild._internal.answers import AnswerError, check_answers

        try:
            check_answers(self.answers, self.numbers)
        except AnswerError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    # -- on_page_context: what a shared link and a search engine read ----------------------
    def lastmod(self, file, config: MkDocsConfig) -> str:
        """The date of the last commit that touched ``file``'s source (share.commit_dates),
        else the build's. Read by the page and by overrides/sitemap.xml: i18n writes the
        sitemap with the other language's pages as its own File objects, which never pass
        through on_page_context."""
        from attention_explained.sitebuild._internal import share

        if self.dates is None:
            self.dates = share.commit_dates(Path(config.config_file_path or ".").parent)
        return self.dates.get(file.src_uri) or share.build_date()

    def share_page(self, page, config: MkDocsConfig, nav) -> None:
        """The page's card image, JSON-LD and sitemap date (share.py), and its llms.txt line."""
        from attention_explained.sitebuild._internal import share
        from attention_explained.sitebuild.config import languages, site_languages

        lang, default = languages(config)
        langs, _ = site_languages(config)
        self.default_lang = default
        page.update_date = self.lastmod(page.file, config)
        if page.file.src_uri in self.filled:  # the search lexicon leaves the numbers out
            self.filled_urls[page.url] = self.filled[page.file.src_uri]
        known = self.cache.figure_ids
        figure = share.card_figure(page.meta.get("ae_figures", ()), known, DEFAULT_CARD)
        site_url = config.site_url or ""
        image = share.figure_url(site_url, lang, default, figure)
        if not page.meta.get("description") and (page.file.abs_src_path or "").endswith(".ipynb"):
            # a notebook page's is in its jupytext metadata (mkdocs-jupyter keeps no meta)
            found = share.notebook_description(Path(page.file.abs_src_path))
            if found:
                page.meta["description"] = found
        description = page.meta.get("description") or config.site_description or ""
        home = page.url in ("", f"{lang}/")
        title = config.site_name if home else page.title
        try:
            locale = pick(
                share.LOCALE, lang, "attention_explained/sitebuild/_internal/share.py LOCALE"
            )
            alternates = [
                pick(share.LOCALE, other, "attention_explained/sitebuild/_internal/share.py LOCALE")
                for other in langs
                if other != lang
            ]
        except LanguageError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc
        if self.figures:  # the card's image is a figure
            page.meta["ae_card"] = {
                "image": image,
                "image_alt": self.alt_text(figure, lang),
                "locale": locale,
                "alternates": alternates,
                "type": "website" if home else "article",
            }
        page.meta["ae_json_ld"] = share.json_ld(
            title=title,
            description=description,
            url=page.canonical_url or site_url,
            lang=lang,
            site_name=config.site_name,
            site_url=site_url,
            image=image,
            modified=page.update_date,
            author=config.site_author or config.site_name,
        )
        order = [p.file.src_uri for p in nav.pages] if nav else []
        where = order.index(page.file.src_uri) if page.file.src_uri in order else len(order)
        entry = self.llms.setdefault(
            lang, {"name": config.site_name, "description": config.site_description, "pages": []}
        )
        entry["pages"].append((where, title, page.canonical_url or "", description))

    def template_words(self, page, config: MkDocsConfig) -> None:
        """The words overrides/main.html shows on ``page``, in its language."""
        from attention_explained.sitebuild._internal.template_words import TEMPLATE_WORDS
        from attention_explained.sitebuild.config import languages

        lang, _ = languages(config)
        try:
            words = pick(
                TEMPLATE_WORDS,
                lang,
                "attention_explained/sitebuild/_internal/template_words.py TEMPLATE_WORDS",
            )
        except LanguageError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc
        page.meta["ae_words"] = words

    def write_llms_txt(self) -> None:
        """``llms.txt`` for each language, at the language's root (share.py)."""
        from attention_explained.sitebuild._internal import share

        for lang, entry in self.llms.items():
            pages = [(title, url, text) for _, title, url, text in sorted(entry["pages"])]
            text = share.llms_txt(entry["name"], entry["description"], pages)
            root = self.site_dir if lang == self.default_lang else self.site_dir / lang
            root.mkdir(parents=True, exist_ok=True)
            (root / "llms.txt").write_text(text, encoding="utf-8")

    def write_shared_notebook_files(self) -> None:
        """The notebook pages' CSS/JS, every language's, at the site root."""
        from attention_explained.sitebuild._internal.css import pruned_css

        for name, text in self.shared.files.items():
            if name.endswith(".css"):  # JupyterLab's whole stylesheet: keep what can match
                text = pruned_css(text, self.notebook_pages, self.cache.root / "css")
            target = self.site_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def write_search_data(
        self,
        search,
        langs: tuple[str, ...],
        default: str,
        sheet: Path,
        *,
        warm_up_kiwi: bool = False,
    ) -> None:
        """``search/<lang>.json`` for the search worker wrapper (``search.py``): the Korean
        stems and endings that Kiwi finds in the Korean pages, and the term sheet's synonyms.
        ``warm_up_kiwi`` (serve): load Kiwi in the background, so the next edit finds it."""
        from attention_explained.sitebuild import search as search_data
        from attention_explained.sitebuild.terms import load_term_sheet

        where = prefixes(langs, default)
        entries = getattr(search.search_index, "entries", [])
        texts = search_data.default_language_texts(entries, where, self.filled_urls)
        if warm_up_kiwi:
            search_data.warm_up(texts)
        search_data.write_search_data(
            self.site_dir,
            self.cache.root / "search",
            where,
            default,
            texts,
            load_term_sheet(sheet) if sheet.is_file() else [],
            search.config.separator or r"[\s\-]+",
        )

    def private_notebook_html_cache(self, config: MkDocsConfig, lang: str) -> None:
        """Point mkdocs-jupyter's rendered-HTML cache at a private copy of ``lang``'s pages.

        One folder per language: its post-build step deletes every page the current build
        did not use, and with i18n each language is a separate build, so a shared folder
        lost the other language's pages every time. A private copy (storage.WorkingCopy):
        it writes its pages in place, which two builds at once must not share; close()
        installs them, each atomically, once every language is rendered.
        """
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is None or not jupyter.config.get("cache"):
            return
        if lang not in self.notebook_html:
            self.notebook_html[lang] = WorkingCopy(self.cache.notebook_html_dir(lang))
        jupyter.config["cache_dir"] = str(self.notebook_html[lang].folder)

    def close(self) -> None:
        """Keep the math conversions for the next build; install the pages mkdocs-jupyter
        rendered (every language's is done by now)."""
        while self.notebook_html:
            _, pages = self.notebook_html.popitem()
            pages.install()
        if self.math_font is not None:
            from attention_explained.sitebuild._internal import math

            math.save_conversions(math.conversions_path(self.cache.root))

    def summary(self, figures: bool, reused: str) -> str:
        """The build's last log line: what its asset step made, what came from the cache."""
        rendered = len(self.computed.get("figures", ())) if figures else 0
        cached = len(self.cache.figure_ids) - rendered if figures else 0
        executed = len(self.computed.get("notebooks", ()))
        return (
            f"attention-explained: figures rendered {rendered}, from cache {cached}; "
            f"notebooks executed {executed}{reused}; {time.perf_counter() - self.clock:.1f} s"
        )


def reuse_report(search_entries, render_cache) -> str:
    """What the page memories gave this build; their counts start from zero again."""
    reused = f"; pages reused {render_cache.hits}; search entries reused {search_entries.hits}"
    render_cache.hits = search_entries.hits = 0
    return reused


def template_cache(folder: Path):
    """Compiled theme templates kept between builds (jinja2 checks each template's source
    checksum), so a warm build does not recompile Material for each language."""
    from jinja2 import FileSystemBytecodeCache

    folder.mkdir(parents=True, exist_ok=True)
    return FileSystemBytecodeCache(str(folder))


def run_asset_step(options: PluginConfig, cache_root: Path, docs_dir: Path, cwd: Path) -> None:
    """``python -m attention_explained assets build`` for this build's options, in its own
    process (TensorFlow stays out of MkDocs, and a serve rebuild runs the package as it is
    on disk now); its stage lines go to the log, its progress to the log at info. A
    PluginError carries its error output, which names the figure or notebook that failed."""
    import sys

    from attention_explained.sitebuild._internal.compute import EVENT, die_with_parent
    from attention_explained.sitebuild.assets import asset_step_command

    command = asset_step_command(
        cache_root,
        docs_dir=docs_dir,
        notebooks=options.notebooks,
        notebook_timeout=options.notebook_timeout,
        jobs=options.jobs,
        figures=options.figures,
    )
    log.info("attention-explained: assets are stale; running the asset step first")
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # if MkDocs dies (serve stopped mid-rebuild), the step and its drawing processes end
        preexec_fn=die_with_parent if sys.platform == "linux" else None,
    )
    # Each line is logged as it comes, so the log's times are the stages' own (the bench's
    # timeline reads them); progress (stdout) in a thread, stages and errors (stderr) here.
    progress = threading.Thread(target=_log_progress, args=(process.stdout,), daemon=True)
    progress.start()
    errors = []
    for line in process.stderr:
        line = line.rstrip("\n")
        if not line.startswith(EVENT):
            errors.append(line)
            continue
        event = json.loads(line[len(EVENT) :])
        if event.get("event") == "stage":
            log_stage(event["name"], event["seconds"])
    returncode = process.wait()
    progress.join()
    if returncode != 0:
        text = "\n".join(errors)
        raise PluginError(f"attention-explained: the asset step failed:\n{text[-8000:]}")
    log_stage("asset-step", time.perf_counter() - start)


def _log_progress(stream) -> None:
    for line in stream:
        log.info("attention-explained: %s", line.rstrip("\n"))
