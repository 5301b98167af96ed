"""Site-specific HTML fix-ups that are about the theme, not about the package.

Material fetches ``sitemap.xml`` relative to every ``<link rel="alternate" hreflang>``;
mkdocs-static-i18n points those links at individual pages, so each page made two 404
requests (mkdocs-material#6582). The header's language switcher already links each page to
its translation, so the alternate links are dropped.
"""

import re

ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')


def on_post_page(output: str, page, config) -> str:
    return ALTERNATE.sub("", output)
