"""The content linters: the site's text read as data, with no build.

- :mod:`.text`: where text lives (pages, notebooks, figure strings, mkdocs.yml, scripts,
  template overrides, the PDF cover) and how each place is read, as numbered lines;
- :mod:`.terms`: the Korean term sheet (CONTRIBUTING.md) and the notation rules, line by line;
- :mod:`.prose`: hedges, bare links, late glosses and comparison sentences in a page's text.
- :mod:`.pages`: every check over the real site, as ``path:line: message`` problems (the
  tests call the same functions).

They stand apart from the math and from the build: nothing here imports MkDocs, and nothing
in ``sitebuild/`` imports this package. What both need stays in ``sitebuild/`` and is
imported from there (the term sheet's reader ``sitebuild.terms``, Kiwi's analyser in
``sitebuild.search``, a page's main text in ``sitebuild.reading``).
"""
