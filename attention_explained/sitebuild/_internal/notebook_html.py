"""What mkdocs-jupyter renders, made fit for the site: pure functions on a page's HTML.

mkdocs-jupyter inlines JupyterLab's CSS in every page (~600 KB), a MathJax 2 config with an
empty src, and a Mermaid loader from a CDN. The site serves MathJax 3 itself and has no
Mermaid, so those go; the CSS and the copy-button script become shared, content-addressed
files under ``assets/notebooks/``. Headings get the ids the page's table of contents uses.
"""

from __future__ import annotations

import html as html_lib
import logging
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from attention_explained.sitebuild.keys import digest

log = logging.getLogger("mkdocs.plugins.attention_explained")

STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)
COMMENT = re.compile(r"<!-- (?:MathJax|End of|Load mathjax)[^>]*-->")
HEADING = re.compile(r'<h([1-6]) id="([^"]*)"')
COPY_BUTTON = re.compile(r"<clipboard-copy\b(?P<attrs>[^>]*)>")
COPIED_NOTICE = re.compile(r'<span class="notice" hidden(?:="")?>[^<]*</span>')
ATTRIBUTE = re.compile(r'(?P<name>[^\s=]+)(?:="(?P<value>[^"]*)")?')
SHARED_DIR = "assets/notebooks"


@dataclass
class SharedAssets:
    """Site-root files that notebook pages link to: ``{site-relative path: text}``."""

    files: dict[str, str] = field(default_factory=dict)

    def add(self, ext: str, text: str) -> str:
        name = f"{SHARED_DIR}/notebook-{digest(text)[:12]}.{ext}"
        self.files.setdefault(name, text)
        return name


def split_inline_assets(html: str) -> tuple[str, list[str], list[str]]:
    """(html without inline CSS/JS and CDN loaders, the CSS blocks, the inline scripts kept)."""
    styles = STYLE.findall(html)
    scripts: list[str] = []

    def keep_inline(match: re.Match) -> str:
        attrs = match["attrs"]
        if "src=" not in attrs and "type=" not in attrs:
            scripts.append(match["body"])  # the clipboard helper and its listener
        return ""

    html = COMMENT.sub("", SCRIPT.sub(keep_inline, STYLE.sub("", html)))
    return html, styles, scripts


def link_shared(html: str, page_url: str, shared: SharedAssets) -> str:
    """Move the page's inline CSS/JS into ``shared`` and link them relative to the page."""
    html, styles, scripts = split_inline_assets(html)
    css = shared.add("css", "\n".join(styles))
    js = shared.add("js", "\n;\n".join(scripts))
    here = page_url if page_url.endswith("/") or not page_url else posixpath.dirname(page_url)
    css_href = posixpath.relpath(css, here or ".")
    js_href = posixpath.relpath(js, here or ".")
    return f'<link rel="stylesheet" href="{css_href}">\n{html}\n<script src="{js_href}"></script>'


def copy_buttons(html: str, label: str, copied: str) -> str:
    """Notebook copy buttons as valid HTML in the page's language: no stray attribute, a
    role for their label, and Material's own words for its copy button.

    mkdocs-jupyter's template writes ``<clipboard-copy for="…", aria-label="Copy to
    Clipboard">`` and a hidden "Copied!" notice, in English on every page; the comma
    becomes an attribute named ``,``, and ``aria-label`` is not allowed on a custom element
    without a role. The element gives itself role="button" and tabindex="0" when its script
    runs; the page now says so from the start, so the label is valid without the script
    too. ``label`` and ``copied`` are the page language's (:func:`copy_words`); the notice
    stays out of the search index (``data-search-exclude``, Material's), which otherwise
    starts every code cell's entry with it.
    """

    def fix(match: re.Match) -> str:
        attrs = {
            m["name"]: m["value"] or ""
            for m in ATTRIBUTE.finditer(match["attrs"])
            if re.fullmatch(r"[A-Za-z][\w:.-]*", m["name"])
        }
        attrs = {"role": "button", "tabindex": "0", **attrs, "aria-label": html_lib.escape(label)}
        text = " ".join(f'{name}="{value}"' for name, value in attrs.items())
        return f"<clipboard-copy {text}>"

    notice = (
        f'<span class="notice" hidden="" data-search-exclude="">{html_lib.escape(copied)}</span>'
    )
    return COPIED_NOTICE.sub(lambda _: notice, COPY_BUTTON.sub(fix, html))


def copy_words(env, config) -> tuple[str, str]:
    """Material's label for its code copy button and its "copied" notice, in the language
    of ``config``'s theme (``clipboard.copy``, ``clipboard.copied``; English if Material
    has no translation). ``env``: the theme's Jinja environment, so that a site's own
    override of Material's translations counts too."""
    template = env.from_string(
        '{% import "partials/language.html" as lang with context %}'
        '{{ lang.t("clipboard.copy") }}\n{{ lang.t("clipboard.copied") }}'
    )
    label, copied = html_lib.unescape(template.render(config=config)).strip().split("\n")
    return label.strip(), copied.strip()


def toc_ids(toc: Iterable) -> list[str]:
    """Every anchor of a MkDocs table of contents, depth first."""
    wanted: list[str] = []

    def walk(items):
        for item in items:
            wanted.append(item.id)
            walk(item.children)

    walk(toc)
    return wanted


def align_heading_ids(html: str, wanted: list[str], where: str = "") -> str:
    """Give notebook headings the ids that the page's table of contents links to.

    mkdocs-jupyter builds the TOC with Markdown's slugs (Korean headings become "_1"…),
    while nbconvert writes its own ids, so the TOC's links would point nowhere.
    """
    found = HEADING.findall(html)
    if len(found) != len(wanted):
        log.warning(
            "attention-explained: %s has %d headings but %d TOC entries",
            where,
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
