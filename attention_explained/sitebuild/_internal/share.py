"""What a shared link and a search engine read: the card (Open Graph, Twitter), JSON-LD,
each page's real ``lastmod`` from git, and ``llms.txt`` per language. Pure functions; the
plugin calls them (``on_page_markdown``, ``on_post_build``) and ``overrides/main.html``
writes the tags.

- **The card's image** is the page's first figure (its light variant, in the page's
  language), else the site's default figure. It is an SVG: the figures exist only as SVG,
  and a raster copy would need a second drawing of every figure (tests/test_site_share.py
  checks every card names a figure the site serves).
- **lastmod** is the date (UTC) of the last commit that touched the page's source, read in
  one ``git log`` over ``docs/``. A shallow clone (CI checks out one commit) has only that
  commit, so every page gets its date; a page git does not know yet gets the build's date
  (``SOURCE_DATE_EPOCH``, the commit's). Same commit, same sitemap.
- **llms.txt** (https://llmstxt.org/): the language's site name, its description, and one
  line per page (title, URL, description), in navigation order. Written at build time by
  this module; mkdocs-llmstxt 0.5.1 was not tried with mkdocs-static-i18n (it would be a new
  dependency, and whether it writes one file per language is not checked).
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

LOCALE = {"ko": "ko_KR", "en": "en_US"}
LICENSE = "https://creativecommons.org/licenses/by/4.0/"


def commit_dates(repo_dir: Path, docs: str = "docs") -> dict[str, str]:
    """``{path under docs/: "YYYY-MM-DD"}``: the UTC date of the newest commit touching each
    file, from one ``git log``; empty outside a git checkout."""
    try:
        result = subprocess.run(
            [
                "git",
                "log",
                "--format=%x00%cd",
                "--date=format-local:%Y-%m-%d",
                "--name-only",
                "--no-renames",
                "--",
                docs,
            ],
            cwd=repo_dir,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "TZ": "UTC"},
        )
    except OSError:  # no git on this machine
        return {}
    if result.returncode != 0:
        return {}
    dates: dict[str, str] = {}
    prefix = docs.rstrip("/") + "/"
    for block in result.stdout.split("\0")[1:]:
        date, *names = block.strip().splitlines()
        for name in names:
            if name.startswith(prefix):
                dates.setdefault(name[len(prefix) :], date)
    return dates


def build_date(env: Mapping[str, str] = os.environ) -> str:
    """The build's date (UTC): ``SOURCE_DATE_EPOCH``'s (the commit's, build_date.py), else today."""
    epoch = env.get("SOURCE_DATE_EPOCH")
    moment = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
        if epoch and epoch.isdigit()
        else datetime.datetime.now(datetime.UTC)
    )
    return moment.strftime("%Y-%m-%d")


def notebook_description(path: Path) -> str | None:
    """The ``description`` a notebook keeps in its metadata (jupytext's ``jupyter:`` front
    matter: at the top level jupytext would make it a cell)."""
    try:
        metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    except (OSError, ValueError):
        return None
    found = metadata.get("description")
    return found if isinstance(found, str) else None


def card_figure(page_figures: Iterable[str], known: Iterable[str], default: str) -> str:
    """The figure a page's card shows: its first one the site has, else ``default``."""
    known = set(known)
    return next((f for f in page_figures if f in known), default)


def figure_url(site_url: str, lang: str, default_lang: str, figure_id: str) -> str:
    """Where the preview PNG of ``figure_id`` (its light variant, render.card_name) is served
    in ``lang``, as an absolute URL: no card renderer (Open Graph, X, KakaoTalk) shows SVG."""
    prefix = "" if lang == default_lang else f"{lang}/"
    return f"{site_url.rstrip('/')}/{prefix}figures/{figure_id}.png"


def json_ld(
    *,
    title: str,
    description: str,
    url: str,
    lang: str,
    site_name: str,
    site_url: str,
    image: str,
    modified: str,
    author: str,
) -> str:
    """The page as schema.org ``TechArticle`` and ``LearningResource``, ready for a
    ``<script type="application/ld+json">`` (``</`` escaped)."""
    data = {
        "@context": "https://schema.org",
        "@type": ["TechArticle", "LearningResource"],
        "headline": title,
        "name": title,
        "description": description,
        "url": url,
        "inLanguage": lang,
        "image": image,
        "dateModified": modified,
        "license": LICENSE,
        "author": {"@type": "Organization", "name": author},
        "isPartOf": {"@type": "WebSite", "name": site_name, "url": site_url},
        "isAccessibleForFree": True,
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def llms_txt(site_name: str, description: str, pages: Iterable[tuple[str, str, str]]) -> str:
    """``llms.txt`` for one language: ``pages`` are (title, absolute URL, description)."""
    lines = [f"# {site_name}", "", f"> {description}", "", "## Pages", ""]
    lines += [f"- [{title}]({url}): {text}" for title, url, text in pages]
    return "\n".join(lines) + "\n"
