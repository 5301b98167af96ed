"""Everything that exists only to build the site: MkDocs event handlers, Markdown rewriting,
cache keys and layout, the asset step (figures, numbers, notebook execution) and notebook HTML.

Nothing outside this package imports MkDocs.
"""
