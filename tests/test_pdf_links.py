"""The home page's PDF links (attention_explained/pdf_links.py): hidden by the build while
the PDFs are missing, revealed by the PDF edition once they are written."""

from __future__ import annotations

from attention_explained import pdf_links

HOME = """<li class="md-nav__item">
  <a href="#pdf" class="md-nav__link">PDF</a></li>
<li class="md-nav__item">
  <a href="#other" class="md-nav__link">Other</a></li>
<h2 id="other">Other</h2><p>See <a href="https://arxiv.org/pdf/1.pdf">a paper</a>.</p>
<h2 id="pdf">PDF<a class="headerlink" href="#pdf">&para;</a></h2>
<p>Get the <a href="../pdf/attention-explained-en.pdf" download>PDF</a>.</p>
"""


def test_links_to_missing_pdfs_are_hidden_with_their_heading_and_toc_entry():
    seen = []
    hidden = pdf_links.hide_missing(HOME, "en/", lambda p: seen.append(p) or False)
    assert seen == ["pdf/attention-explained-en.pdf"]  # resolved from the page, arXiv skipped
    assert hidden.count(pdf_links.MARK) == 3
    assert f"<p{pdf_links.MARK}>Get the" in hidden and f'<h2 id="pdf"{pdf_links.MARK}>' in hidden
    assert f'<li class="md-nav__item"{pdf_links.MARK}>\n  <a href="#pdf"' in hidden
    assert '<li class="md-nav__item">\n  <a href="#other"' in hidden
    assert pdf_links.reveal(hidden) == HOME


def test_links_to_existing_pdfs_stay():
    assert pdf_links.hide_missing(HOME, "en/", lambda p: True) == HOME
