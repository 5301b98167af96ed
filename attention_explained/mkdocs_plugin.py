"""MkDocs plugin: build-time figures, numbers and notebooks from the package, i18n-safe.

Thin by design: it decides *when* (once per build, not once per language) and *where*
(files outside docs/, found through the cache); the package decides *what*.
"""

from __future__ import annotations

import logging
import posixpath
import re
import time
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files

from attention_explained.figures.registry import FIGURE_IDS, LANGS
from attention_explained.figures.strings import alt_text

log = logging.getLogger("mkdocs.plugins.attention_explained")

PLACEHOLDER = re.compile(r"\{\{\s*ae:([^}\s]*)\s*\}\}")
FIGURE_LINE = re.compile(r"!\[([^\]]*)\]\(figures/([^)\s#]+)\.svg\)")
NOTEBOOK_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
NOTEBOOK_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)
NOTEBOOK_COMMENT = re.compile(r"<!-- (?:MathJax|End of)[^>]*-->")
PACKAGE_DIR = Path(__file__).resolve().parent


class BoundedInt(c.BaseConfigOption[int]):
    """An integer option with an accepted range that the error message states."""

    def __init__(self, low: int, high: int, default: int):
        super().__init__()
        self.low, self.high, self.default = low, high, default

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise c.ValidationError(
                f"expected an integer in [{self.low}, {self.high}], got {value!r}"
            )
        if not self.low <= value <= self.high:
            raise c.ValidationError(
                f"expected an integer in [{self.low}, {self.high}], got {value}"
            )
        return value


class PluginConfig(base.Config):
    cache_dir = c.Type(str, default=".cache")
    figures = c.Type(bool, default=True)
    mathjax = c.Type(bool, default=True)  # serve MathJax 3 from the site, under assets/mathjax/
    notebooks = c.ListOfItems(c.Type(str), default=["notebooks/*.md"])
    notebook_timeout = BoundedInt(10, 3600, default=300)
    jobs = BoundedInt(1, 64, default=2)  # processes drawing figures in parallel


class AttentionExplainedPlugin(BasePlugin[PluginConfig]):
    def __init__(self):
        super().__init__()
        self._started = False
        self._shared: dict[str, str] = {}  # site-root assets shared by every language

    # -- once per build: start everything stale, in parallel ---------------------------------
    def on_config(self, config: MkDocsConfig):
        self._separate_notebook_html_cache(config)
        if self._started:  # i18n replays on_config for every language
            return config
        from attention_explained.assets import AssetCache

        self._started, self._clock = True, time.perf_counter()
        root = Path(config.config_file_path or ".").resolve().parent
        cache_dir = (root / self.config.cache_dir).resolve()
        docs_dir = Path(config.docs_dir).resolve()
        if cache_dir == docs_dir or docs_dir in cache_dir.parents:
            raise PluginError(f"attention-explained: cache_dir {cache_dir} must be outside docs/")
        self.cache = AssetCache(cache_dir)
        stale = self.cache.stale_figures() if self.config.figures else []
        self.rendered = stale
        self.worker = self.cache.start(stale, self.cache.data_stale(), self.config.jobs)
        self._numbers: dict[str, str] | None = None
        self._worker_checked = False
        sources = sorted(
            p for pattern in self.config.notebooks for p in docs_dir.glob(pattern) if p.is_file()
        )
        self.runner = None
        if sources:
            from attention_explained.notebooks import NotebookRunner

            self.runner = NotebookRunner(sources, cache_dir, timeout=self.config.notebook_timeout)
            self.runner.start()
        self._docs_dir = docs_dir
        return config

    def _separate_notebook_html_cache(self, config: MkDocsConfig) -> None:
        """Give mkdocs-jupyter's rendered-HTML cache one folder per language.

        Its post-build step deletes every entry the current build did not use, and with
        i18n each language is a separate build, so a shared folder lost the other
        language's pages every time (mkdocs-jupyter 0.26).
        """
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is None or not jupyter.config.get("cache"):
            return
        lang, _ = _languages(config)
        root = Path(config.config_file_path or ".").resolve().parent
        jupyter.config["cache_dir"] = str(root / self.config.cache_dir / "notebook-html" / lang)

    def _wait_worker(self) -> None:
        if self._worker_checked:
            return
        self._worker_checked = True
        if self.worker is None:
            return
        code, output = self.worker.wait()
        if code != 0:
            raise PluginError(f"attention-explained: building the assets failed:\n{output.strip()}")

    # -- figures: add the cached variants of the current language as files ------------------
    @event_priority(-200)  # after mkdocs-static-i18n (-100), which rebuilds every File
    def on_files(self, files: Files, config: MkDocsConfig):
        lang, default = _languages(config)
        prefix = "" if lang == default else f"{lang}/"

        def add(name: str, path: Path) -> None:
            """Serve ``path`` at ``<prefix><name>``; the src_uri carries the language so that
            i18n's lookup of ``figures/<id>.svg`` from a page finds this language's file."""
            stem, dot, ext = name.rpartition(".")
            file = File.generated(config, f"{stem}.{lang}{dot}{ext}", abs_src_path=str(path))
            file.dest_uri = f"{prefix}{name}"
            file.url = file.dest_uri
            file.abs_dest_path = str(Path(config.site_dir) / file.dest_uri)
            files.append(file)

        if self.config.figures:
            figure_lang = lang if lang in LANGS else "en"
            for figure_id in FIGURE_IDS:
                for theme, suffix in (("light", ""), ("dark", ".dark")):
                    path = self.cache.figure_path(figure_id, figure_lang, theme)
                    add(f"figures/{figure_id}{suffix}.svg", path)
        # The explorer page checks its JavaScript against these values from the package.
        add("assets/explorer/reference.json", self.cache.explorer_path)
        if self.config.mathjax:
            for rel, path in _mathjax_files():
                add(f"assets/mathjax/{rel}", path)
        if self.runner is not None:
            for file in files.documentation_pages():
                source = Path(file.abs_src_path or "")
                if source in self.runner.keys:
                    file.abs_src_path = str(self.runner.output_path(source))
        return files

    # -- numbers and figure lines in the Markdown --------------------------------------------
    def on_page_markdown(self, markdown: str, page, config: MkDocsConfig, files: Files):
        if "{{" in markdown and "ae:" in markdown:
            markdown = self._expand_numbers(markdown, page.file.src_uri)
        if "claim:" in markdown:
            markdown = self._check_claims(markdown, page.file.src_uri)
        lang, _ = _languages(config)
        return FIGURE_LINE.sub(
            lambda m: self._figure_markdown(m, lang, page.file.src_uri), markdown
        )

    def _expand_numbers(self, markdown: str, where: str) -> str:
        if self._numbers is None:
            failed = self.worker.wait_data() if self.worker is not None else None
            if failed is not None:
                self._wait_worker()  # raises with the worker's output
            self._numbers = self.cache.load_numbers()
        numbers = self._numbers

        def replace(match: re.Match) -> str:
            name = match.group(1)
            if name not in numbers:
                raise PluginError(
                    f"attention-explained: unknown number {{{{ae:{name}}}}} in {where}; "
                    "list the names with `python -m attention_explained numbers`"
                )
            return numbers[name]

        expanded = PLACEHOLDER.sub(replace, markdown)
        if "{{ae:" in expanded.replace(" ", ""):
            raise PluginError(
                f"attention-explained: malformed {{{{ae:...}}}} placeholder in {where}"
            )
        return expanded

    def _check_claims(self, markdown: str, where: str) -> str:
        from attention_explained.sitebuild.claims import ClaimError, check_claims

        if self._numbers is None:
            self._expand_numbers("", where)  # waits for the numbers and their verdicts
        if getattr(self, "_verdicts", None) is None:
            self._verdicts = self.cache.load_claims()
        try:
            return check_claims(markdown, self._verdicts, where)
        except ClaimError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    def _check_alt_claims(self, figure_id: str, where: str) -> None:
        from attention_explained.figures.strings import ALT_CLAIMS
        from attention_explained.sitebuild.claims import ClaimError
        from attention_explained.sitebuild.figure_claims import check_alt_claims

        if not ALT_CLAIMS.get(figure_id):
            return
        if getattr(self, "_verdicts", None) is None:
            self._check_claims("", where)  # waits for the numbers and loads the verdicts
        try:
            check_alt_claims(figure_id, self._verdicts, where)
        except ClaimError as exc:
            raise PluginError(f"attention-explained: {exc}") from exc

    def _figure_markdown(self, match: re.Match, lang: str, where: str) -> str:
        alt, figure_id = match.group(1), match.group(2)
        if figure_id not in FIGURE_IDS:
            raise PluginError(
                f"attention-explained: unknown figure 'figures/{figure_id}.svg' in {where}; "
                f"valid ids: {', '.join(FIGURE_IDS)}"
            )
        if not alt:  # the package's alt text: check the measured results it states
            self._check_alt_claims(figure_id, where)
        alt = alt or alt_text(figure_id, lang if lang in LANGS else "en")
        alt = alt.replace("[", "(").replace("]", ")")
        return (
            f"![{alt}](figures/{figure_id}.svg#only-light){{ loading=lazy }}"
            f"![{alt}](figures/{figure_id}.dark.svg#only-dark){{ loading=lazy }}"
        )

    # -- notebooks must be executed before mkdocs-jupyter renders them -----------------------
    @event_priority(100)
    def on_pre_page(self, page, config: MkDocsConfig, files: Files):
        if self.runner is not None and page.file.abs_src_path:
            for source in self.runner.sources:
                if str(self.runner.output_path(source)) == page.file.abs_src_path:
                    from attention_explained.notebooks import NotebookError

                    try:
                        self.runner.wait(source)
                    except NotebookError as exc:
                        raise PluginError(f"attention-explained: {exc}") from exc
        return page

    def on_page_content(self, html: str, page, config: MkDocsConfig, files: Files):
        """Move a notebook page's inlined CSS/JS (~600 KB) into shared files, drop CDN loaders.

        mkdocs-jupyter inlines JupyterLab's CSS in every page, a MathJax 2 config with an
        empty src, and a Mermaid loader from a CDN. The site serves MathJax 3 itself and
        has no Mermaid, so those go; the CSS and the copy-button script become two shared,
        content-addressed files under assets/notebooks/.
        """
        if not (page.file.abs_src_path or "").endswith(".ipynb"):
            return html
        styles = NOTEBOOK_STYLE.findall(html)
        scripts: list[str] = []

        def keep_inline(match: re.Match) -> str:
            attrs = match["attrs"]
            if "src=" not in attrs and "type=" not in attrs:
                scripts.append(match["body"])  # the clipboard helper and its listener
            return ""

        html = NOTEBOOK_COMMENT.sub(
            "", NOTEBOOK_SCRIPT.sub(keep_inline, NOTEBOOK_STYLE.sub("", html))
        )
        html = _align_heading_ids(html, page)
        css = self._shared_asset("css", "\n".join(styles))
        js = self._shared_asset("js", "\n;\n".join(scripts))
        here = posixpath.dirname(page.url.rstrip("/")) if not page.url.endswith("/") else page.url
        css_href = posixpath.relpath(css, here or ".")
        js_href = posixpath.relpath(js, here or ".")
        return (
            f'<link rel="stylesheet" href="{css_href}">\n{html}\n<script src="{js_href}"></script>'
        )

    def _shared_asset(self, ext: str, text: str) -> str:
        from attention_explained.assets import _hash

        name = f"assets/notebooks/notebook-{_hash(text)[:12]}.{ext}"
        self._shared.setdefault(name, text)
        return name

    def on_env(self, env, config: MkDocsConfig, files: Files):
        # Compiled theme templates survive between builds (jinja2 checks each template's
        # source checksum), so a warm build does not recompile Material for each language.
        from jinja2 import FileSystemBytecodeCache

        jinja_cache = self.cache.root / "jinja"
        jinja_cache.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(jinja_cache))
        self._wait_worker()  # figures must exist before MkDocs copies static files
        return env

    def on_serve(self, server, config: MkDocsConfig, builder):
        server.watch(str(PACKAGE_DIR))  # editing a figure re-renders just that figure
        return server

    def on_post_build(self, config: MkDocsConfig):
        if getattr(self, "_reported", False):
            return
        self._reported = True
        self._write_search_data(config)
        self._wait_worker()
        for name, text in self._shared.items():
            target = Path(config.site_dir) / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        cached = len(FIGURE_IDS) - len(self.rendered) if self.config.figures else 0
        executed = len(self.runner.executed) if self.runner else 0
        if self.runner:
            self.runner.close()
        log.info(
            "attention-explained: figures rendered %d, from cache %d; "
            "notebooks executed %d; %.1f s",
            len(self.rendered),
            cached,
            executed,
            time.perf_counter() - self._clock,
        )

    # -- Open in Colab (sitebuild/colab.py): the button's URL, the install cell ---------------
    def on_page_context(self, context, page, config: MkDocsConfig, nav):
        if getattr(page, "nb_url", None) and config.repo_url:
            from attention_explained.sitebuild.colab import colab_url

            ipynb = posixpath.basename(page.file.abs_src_path)
            page.meta["colab_url"] = colab_url(config.repo_url, page.url + ipynb)
        return context

    @event_priority(-50)  # after mkdocs-jupyter copied the executed .ipynb into the site
    def on_post_page(self, output: str, page, config: MkDocsConfig):
        if page.meta.get("colab_url"):
            from attention_explained.sitebuild.colab import add_install_cell, build_commit

            if not hasattr(self, "_commit"):
                self._commit = build_commit(repo_dir=Path(config.config_file_path).parent)
            target = Path(page.file.abs_dest_path).parent / Path(page.file.abs_src_path).name
            add_install_cell(target, config.repo_url, self._commit)
        return output

    def _write_search_data(self, config: MkDocsConfig) -> None:
        """search/<lang>.json for the search worker wrapper (sitebuild/search.py). The first
        post-build is the default language's, so the search plugin holds its entries."""
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if search is None:
            return
        from attention_explained.sitebuild.search import write_search_data
        from attention_explained.sitebuild.terms import load_term_sheet

        _, default = _languages(config)
        prefixes = {lang: "" if lang == default else f"{lang}/" for lang in LANGS}
        entries = getattr(search.search_index, "entries", [])
        texts = [f"{e['title']}\n{e['text']}" for e in entries]
        separator = search.config.separator or r"[\s\-]+"
        write_search_data(
            Path(config.site_dir),
            self.cache.root / "search",
            prefixes,
            "ko",
            texts,
            load_term_sheet(),
            separator,
        )


def _languages(config: MkDocsConfig) -> tuple[str, str]:
    """(language being built, default language); both 'en' without mkdocs-static-i18n."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        lang = config.theme.get("language") or "en"
        return lang, lang
    # Before i18n's own on_config has run, the build is the default language's.
    return i18n.current_language or i18n.default_language, i18n.default_language


NOTEBOOK_HEADING = re.compile(r'<h([1-6]) id="([^"]*)"')


def _align_heading_ids(html: str, page) -> str:
    """Give notebook headings the ids that the page's table of contents links to.

    mkdocs-jupyter builds the TOC with Markdown's slugs (Korean headings become "_1"…),
    while nbconvert writes its own ids, so the TOC's links would point nowhere.
    """
    wanted = []

    def walk(items):
        for item in items:
            wanted.append(item.id)
            walk(item.children)

    walk(page.toc)
    found = NOTEBOOK_HEADING.findall(html)
    if len(found) != len(wanted):
        log.warning(
            "attention-explained: %s has %d headings but %d TOC entries",
            page.file.src_uri,
            len(found),
            len(wanted),
        )
        return html
    for (level, old), new in zip(found, wanted, strict=True):
        html = html.replace(f'<h{level} id="{old}"', f'<h{level} id="{new}"', 1)
        html = html.replace(
            f'class="anchor-link" href="#{old}"', f'class="anchor-link" href="#{new}"', 1
        )
    return html


def _mathjax_files() -> list[tuple[str, Path]]:
    """The parts of MathJax 3 the site loads: TeX→CHTML, its fonts, lazily loaded TeX extensions."""
    from importlib.resources import files as package_files

    root = Path(str(package_files("mathjax") / "static" / "mathjax" / "es5"))
    wanted = [root / "tex-chtml.js"]
    for folder in ("output/chtml/fonts/woff-v2", "input/tex/extensions"):
        wanted += sorted(p for p in (root / folder).rglob("*") if p.is_file())
    return [(p.relative_to(root).as_posix(), p) for p in wanted]
