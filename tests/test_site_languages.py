"""A third language, added as CONTRIBUTING.md's "Add a language" says, builds and stays apart.

tests/fixture_languages is a Korean/English site with a stub German: two pages in each
language, German added to mkdocs.yml's i18n languages. The package copy that builds it has
German in settings.LANGS and in every table keyed by language that a site without figures
reads (:data:`ADDITIONS`; figures are off, since the stub has no figure strings). Checked:
every page is built in its own language; each language's search keeps exactly its own pages;
a site language that settings.LANGS lacks fails the build with its name; and each PDF
edition (Chromium) holds its own language's pages only, although the Korean home's navigation
also links the German home.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_support import page_texts
from site_build import FIXTURE_LANGUAGES, REPO, build, copy_package, make_site

from attention_explained.languages import url_language
from attention_explained.sitebuild.search import in_language

pytestmark = pytest.mark.site

LANGS = ("ko", "en", "de")
# What "Add a language" asks of the package for German, appended to the copy's modules.
ADDITIONS = {
    "settings.py": 'LANGS = (*LANGS, "de")\n',
    "sitebuild/reading.py": (
        'TEXT_RATE["de"] = TEXT_RATE["en"]\n'
        'LINE["de"] = \'[Lesezeit]({glossary}#reading-time "{rule}"): {minutes} Min.\'\n'
        'RULE["de"] = "Haupttext ohne eingeklappte Blöcke und Code: 200 Wörter pro Minute"\n'
        'LINE_PATTERN["de"] = re.compile(r"Lesezeit</a>:\\s*(\\d+) Min\\.")\n'
    ),
    "sitebuild/_internal/share.py": 'LOCALE["de"] = "de_DE"\n',
    "sitebuild/_internal/template_words.py": (
        'TEMPLATE_WORDS["de"] = {"download_notebook": "Notebook (.ipynb) herunterladen",'
        ' "open_in_colab": "In Colab öffnen"}\n'
    ),
    "edition/pdf.py": (
        'TEXT["de"] = {"subtitle": "Warum Attention durch √dₖ teilt", "toc": "Inhalt",'
        ' "edition": "PDF-Ausgabe · aus der Website"}\n'
    ),
}
# Each page's title, by language: what must be in its language's edition and in no other.
TITLES = {
    "ko": ("고정 사이트", "두 번째 페이지"),
    "en": ("Fixture site", "Second page"),
    "de": ("Testseite", "Zweite Seite"),
}


def with_third_language(package: Path) -> Path:
    main = '\nif __name__ == "__main__":'  # the additions go before a script's main() runs
    for module, text in ADDITIONS.items():
        path = package / "attention_explained" / module
        source = path.read_text(encoding="utf-8")
        head, sep, tail = source.partition(main)
        path.write_text(f"{head}\n{text}{sep}{tail}", encoding="utf-8")
    return package


@pytest.fixture(scope="module")
def site3(tmp_path_factory) -> Path:
    package = with_third_language(copy_package(tmp_path_factory.mktemp("pkg3")))
    root = make_site(
        tmp_path_factory.mktemp("three"), tmp_path_factory.mktemp("cache3"), FIXTURE_LANGUAGES
    )
    # The Korean home's navigation also links the German home, as a language menu in the
    # navigation would: the Korean edition must still leave it out.
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = text.replace("  - second.md\n", "  - second.md\n  - Deutsch: de/\n")
    config.write_text(text + "validation:\n  nav:\n    not_found: info  # de/ is a link\n")
    result = build(root, pythonpath=package)
    assert result.returncode == 0, result.stderr[-4000:]
    return root, package


def site_pages(site: Path) -> dict[str, Path]:
    """Site-relative page folder ("", "second/", "de/second/", …) → its index.html."""
    pages = {}
    for page in (site / "site").rglob("index.html"):
        rel = page.parent.relative_to(site / "site").as_posix()
        if "assets" not in rel and "search" not in rel:
            pages["" if rel == "." else rel + "/"] = page
    return pages


def test_every_page_is_built_in_its_own_language(site3):
    site, _ = site3
    langs: dict[str, list[str]] = {}
    for where, page in site_pages(site).items():
        lang = url_language(where, LANGS, "ko")
        text = page.read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in text, where
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", text, re.S)
        assert heading, where
        title = re.sub(r"<[^>]+>", "", heading.group(1)).replace("¶", "").strip()
        assert title in TITLES[lang], (where, title)
        langs.setdefault(lang, []).append(where)
    assert sorted(langs) == sorted(LANGS)
    assert sorted(langs["de"]) == ["de/", "de/second/"]


def test_each_languages_search_keeps_exactly_its_own_pages(site3):
    site, _ = site3
    index = json.loads((site / "site/search/search_index.json").read_text(encoding="utf-8"))
    locations = [doc["location"] for doc in index["docs"]]
    assert any(loc.startswith("de/") for loc in locations), "no German page in the index"
    for lang in LANGS:
        data = json.loads((site / "site/search" / f"{lang}.json").read_text(encoding="utf-8"))
        kept = {loc for loc in locations if in_language(data, loc)}
        own = {loc for loc in locations if url_language(loc, LANGS, "ko") == lang}
        assert kept == own, (lang, sorted(kept ^ own)[:6])
        assert own, lang


def test_a_site_language_outside_settings_langs_fails_the_build_naming_it(tmp_path):
    root = make_site(tmp_path / "site", tmp_path / "cache", FIXTURE_LANGUAGES)
    result = build(root, pythonpath=REPO)  # this checkout's package: no German
    assert result.returncode != 0
    assert "'de'" in result.stderr and "settings.py LANGS" in result.stderr, result.stderr[-2000:]


@pytest.mark.browser
def test_each_pdf_edition_holds_its_own_languages_pages_only(site3, tmp_path):
    from attention_explained.edition import pdf

    if pdf.find_chromium() is None:
        message = "the PDF test needs a system Chromium (CHROMIUM_PATH or /usr/bin/chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    site, package = site3
    for lang in ("ko", "de"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "attention_explained.edition.pdf",
                "--site",
                "site",
                "--lang",
                lang,
                "--config",
                "mkdocs.yml",
                "--out-dir",
                str(tmp_path),
            ],
            cwd=site,
            env=dict(os.environ, PYTHONPATH=str(package)),
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        text = "".join(page_texts(tmp_path / pdf.pdf_name(lang)))
        squashed = "".join(text.split())
        for other, titles in TITLES.items():
            for title in titles:
                found = "".join(title.split()) in squashed
                assert found == (other == lang), (lang, title, found)
