"""The build's private implementation: nothing outside ``attention_explained.sitebuild`` (and
the tests, whose seams these are) imports from here, and any of it may change without notice.

The promised interfaces are the modules beside this package, each with ``__all__`` pinned by
tests/test_api.py: ``plugin`` (the MkDocs plugin), ``config`` (its options), ``assets`` (the
asset step), ``markdown_numbers`` (the Markdown extension), and what the content linters and
the import-graph command share with the build: ``terms``, ``reading``, ``search``, ``keys``,
``claim_report``.
"""
