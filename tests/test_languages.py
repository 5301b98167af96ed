"""attention_explained/languages.py: the one lookup of a language, and its errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attention_explained import languages
from attention_explained.settings import LANGS


def test_a_missing_language_is_named_with_its_table():
    with pytest.raises(languages.LanguageError) as error:
        languages.pick({"ko": 1, "en": 2}, "de", "somewhere.py TABLE")
    message = str(error.value)
    assert "'de'" in message and "somewhere.py TABLE" in message and "ko, en" in message
    assert "Add a language" in message


def test_a_present_language_is_picked():
    assert languages.pick({"ko": 1, "en": 2}, "en", "t") == 2


def test_a_language_outside_settings_langs_is_named():
    languages.check_known(LANGS, "here")
    with pytest.raises(languages.LanguageError, match=r"mkdocs.yml has language\(s\) 'xx'"):
        languages.check_known((*LANGS, "xx"), "mkdocs.yml")


def test_prefixes_put_the_default_at_the_root():
    assert languages.prefixes(("de", "ko", "en"), "ko") == {"de": "de/", "ko": "", "en": "en/"}


@pytest.mark.parametrize(
    ("name", "lang"),
    [("index.md", "ko"), ("index.en.md", "en"), ("index.de.md", "de"), ("a.b.md", "ko")],
)
def test_a_sources_language_is_its_suffix(name, lang):
    assert languages.source_language(name, ("ko", "en", "de"), "ko") == lang


def language_tables() -> dict[str, object]:
    """Every table of the package keyed by language, by where it is."""
    from attention_explained.edition import pdf
    from attention_explained.figures import strings
    from attention_explained.figures.registry import FIGURE_IDS
    from attention_explained.sitebuild import reading
    from attention_explained.sitebuild._internal import share, template_words

    tables = {
        "sitebuild/reading.py TEXT_RATE": reading.TEXT_RATE,
        "sitebuild/reading.py LINE": reading.LINE,
        "sitebuild/reading.py RULE": reading.RULE,
        "sitebuild/reading.py LINE_PATTERN": reading.LINE_PATTERN,
        "sitebuild/_internal/share.py LOCALE": share.LOCALE,
        "sitebuild/_internal/template_words.py TEMPLATE_WORDS": template_words.TEMPLATE_WORDS,
        "edition/pdf.py TEXT": pdf.TEXT,
    }
    for key, entry in strings.SHARED.items():
        tables[f"figures/strings.py SHARED[{key!r}]"] = entry
    for figure_id in FIGURE_IDS:
        for key, entry in strings.figure_strings(figure_id).items():
            tables[f"figure {figure_id} STRINGS[{key!r}]"] = entry
    return tables


def test_every_table_keyed_by_language_has_every_language_of_settings_langs():
    """Adding a language to settings.LANGS lists every table that still lacks it."""
    wrong = {
        where: sorted(table)
        for where, table in language_tables().items()
        if sorted(table) != sorted(LANGS)
    }
    assert not wrong, f"tables whose languages are not settings.LANGS {LANGS}: {wrong}"


JAVASCRIPTS = Path(__file__).resolve().parents[1] / "docs" / "assets" / "javascripts"
# Each script's strings tables, keyed by language (explorer.js has one per widget).
JS_TABLES = {"a11y.js": ("LABELS", 1), "answers.js": ("TEXT", 1), "explorer.js": ("STRINGS", 2)}


def js_table_languages(path: Path, name: str) -> list[list[str]]:
    """The languages of each ``var <name> = { lang: {...}, ... }`` table in a script."""
    text = path.read_text(encoding="utf-8")
    tables = []
    pattern = rf"^(?P<indent> *)var {name} = \{{\n(?P<body>.*?)^(?P=indent)\}};?$"
    for match in re.finditer(pattern, text, re.M | re.S):
        inner = len(match["indent"]) + 2
        tables.append(re.findall(rf"^ {{{inner}}}([\w-]+): \{{", match["body"], re.M))
    return tables


@pytest.mark.parametrize("script", sorted(JS_TABLES))
def test_every_scripts_strings_have_every_language_of_settings_langs(script):
    name, count = JS_TABLES[script]
    tables = js_table_languages(JAVASCRIPTS / script, name)
    assert len(tables) == count, f"{script}: expected {count} {name} table(s), found {len(tables)}"
    for languages_found in tables:
        assert sorted(languages_found) == sorted(LANGS), f"{script} {name}: {languages_found}"


@pytest.mark.parametrize("script", sorted(JS_TABLES))
def test_a_script_names_a_missing_language_instead_of_falling_back(script):
    """No ``|| STRINGS.en``: a page in a language the table lacks throws, naming it."""
    name, _ = JS_TABLES[script]
    text = (JAVASCRIPTS / script).read_text(encoding="utf-8")
    assert not re.search(rf"{name}\[lang\]\s*\|\|", text), script
    assert not re.search(r"""\|\|\s*["'](ko|en)["']""", text), script
    assert f"{name} has no entry for language" in text, script
