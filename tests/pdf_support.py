"""Reading the PDF editions' text: PDFium (the pypdfium2 wheel), page by page.

pypdf, which the PDF tests use for the structure tree and the fonts, extracts text by parsing
every content stream in Python: about 10 s an edition, most of it the figures' vector paths.
PDFium does it in about 0.4 s, and joins words without pypdf's spaces at every font change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# PDFium marks a hyphen that ends a line as U+FFFE (it may be a word break). Every such hyphen
# in our editions is a real one the line broke after ("dot-product", "QK-norm"), the text the
# tests compare with the site's HTML: give it back.
LINE_END_HYPHEN = "\ufffe"


def page_texts(path: Path) -> list[str]:
    """The text of each page of the PDF at ``path`` (in CI a missing pypdfium2 fails)."""
    if os.environ.get("CI") == "true":
        import pypdfium2 as pdfium
    else:
        pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(str(path))
    try:
        texts = []
        for page in document:
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range().replace(LINE_END_HYPHEN, "-"))
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()
