"""The home page's PDF links appear only when the PDFs exist.

``make pdf`` prints the editions from a built site, so a build (and ``make serve``) has none:
its links would be dead. :func:`hide_missing` (the plugin, on every page) hides each paragraph
that links a PDF missing from the site, the ``#pdf`` heading and its table-of-contents entries,
marking each with ``hidden data-ae-pdf``; :func:`reveal` (the PDF edition, once the editions
are written) takes the marks off again. So the published site, built and then printed, shows
the links, and a local build shows neither dead links nor an empty section.

Both sides of the mark are here, outside ``sitebuild/``: the build and the PDF edition each
import this module and never each other.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

MARK = " hidden data-ae-pdf"
PARAGRAPH = re.compile(r"<p>(?:(?!</p>).)*?</p>", re.S)
PDF_LINK = re.compile(r'<a\b[^>]*\bhref="(?P<href>[^"#?]+\.pdf)"', re.S)
PDF_HEADING = re.compile(r'<h2 id="pdf"')
PDF_TOC_ITEM = re.compile(r'<li class="md-nav__item">(?=\s*<a href="#pdf")')


def site_path(page_url: str, href: str) -> str | None:
    """The site-relative path a page's relative link points at (None for another host)."""
    if "://" in href or href.startswith(("/", "mailto:")):
        return None
    return posixpath.normpath(posixpath.join(page_url or ".", href))


def hide_missing(html: str, page_url: str, exists: Callable[[str], bool]) -> str:
    """``html`` with every paragraph linking a PDF that ``exists`` denies hidden, and, if any
    was, the ``#pdf`` heading and its table-of-contents entries too."""
    hid = False

    def paragraph(match: re.Match) -> str:
        nonlocal hid
        text = match.group(0)
        for link in PDF_LINK.finditer(text):
            path = site_path(page_url, link["href"])
            if path is not None and not exists(path):
                hid = True
                return f"<p{MARK}>" + text[3:]
        return text

    html = PARAGRAPH.sub(paragraph, html)
    if hid:
        html = PDF_HEADING.sub(f'<h2 id="pdf"{MARK}', html)
        html = PDF_TOC_ITEM.sub(f'<li class="md-nav__item"{MARK}>', html)
    return html


def reveal(html: str) -> str:
    """``html`` with what :func:`hide_missing` hid shown again (the PDFs now exist)."""
    return html.replace(MARK, "")
