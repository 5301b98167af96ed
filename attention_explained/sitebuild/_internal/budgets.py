"""The site's size budgets, in bytes: the built site's tests hold every page and figure to
them (tests/test_site.py) and `make bench` reports the largest of each against them."""

PAGE_BYTES = 150_000  # one page's HTML (index.html)
FIGURE_BYTES = 120_000  # one figure's SVG
