"""The content linters: the site's text read as data, with no build.

- :mod:`.prose`: hedges, bare links, late glosses and comparison sentences in a page's text.

They stand apart from the math and from the build: nothing here imports MkDocs, and nothing
in ``sitebuild/`` imports this package. What both need stays in ``sitebuild/`` and is
imported from there (a page's main text, ``sitebuild.reading``).
"""
