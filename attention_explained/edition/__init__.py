"""The PDF edition: each language's pages printed from the built site by a system Chromium.

``python -m attention_explained.edition.pdf --site site`` (``make pdf``) reads a site that
``make build`` wrote; it is not part of the build. ``browser.py`` finds and launches that
Chromium and serves the built site on 127.0.0.1; the browser tests and the phone and
serve-loop benchmarks drive the site through it too.

This package imports neither MkDocs nor ``attention_explained.sitebuild``, and the build
imports nothing from it (tests/test_sitebuild_layout.py). What both sides need lives outside
either: ``attention_explained.pdf_links`` (the home page's PDF links, hidden by the build
and revealed here) and ``attention_explained.math_font`` (the math font's names).
"""
