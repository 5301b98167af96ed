"""The site's languages, looked up in one way everywhere.

``settings.LANGS`` lists the languages the package speaks (every figure is drawn, and every
page written, in each); mkdocs.yml's i18n plugin (mkdocs-static-i18n) lists the languages a
site builds, with its ``default`` flag. The default language's pages are at the site's root,
each other language's under ``<lang>/``; a page's source is ``name.md`` in the default
language and ``name.<lang>.md`` in another (i18n's ``suffix`` structure).

Whatever the package says or does per language (a table keyed by language) is read through
:func:`pick`, so a language missing from a table fails with an error that names the language
and the table, never silently in Korean or English. How to add a language: CONTRIBUTING.md,
"Add a language".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from attention_explained.settings import LANGS

T = TypeVar("T")
HOW = "see 'Add a language' in CONTRIBUTING.md"


class LanguageError(ValueError):
    """A language that a table, a page or a site does not have (the message names it)."""


def pick(table: Mapping[str, T], lang: str, name: str) -> T:
    """``table[lang]``, or a :class:`LanguageError` naming the language and ``name`` (where
    the table is, e.g. ``"sitebuild/_internal/share.py LOCALE"``)."""
    try:
        return table[lang]
    except KeyError:
        raise LanguageError(
            f"{name} has no entry for language {lang!r} (it has {', '.join(table) or 'none'}); "
            f"add one: {HOW}"
        ) from None


def check_known(langs: Iterable[str], where: str) -> None:
    """Every one of ``langs`` is in ``settings.LANGS``, or a :class:`LanguageError` naming
    the ones that are not and ``where`` they come from."""
    unknown = [lang for lang in langs if lang not in LANGS]
    if unknown:
        raise LanguageError(
            f"{where} has language(s) {', '.join(map(repr, unknown))} that "
            f"attention_explained/settings.py LANGS ({', '.join(LANGS)}) does not: the package "
            f"has no figures or words in them; {HOW}"
        )


def prefixes(langs: Iterable[str], default: str) -> dict[str, str]:
    """Where each language's pages are in a site: the default's at the root ("")
    and every other one's under ``<lang>/``."""
    return {lang: "" if lang == default else f"{lang}/" for lang in langs}


def url_language(path: str, langs: Sequence[str], default: str) -> str:
    """The language of a page from its site-relative path (``""``, ``"en/"``, ``"en/x/"``,
    ``"x/"``): its first folder if that is another language, else the default."""
    first = path.lstrip("/").split("/", 1)[0]
    return first if first in langs and first != default else default


def source_language(name: str, langs: Sequence[str], default: str) -> str:
    """The language of a page source from its file name: ``x.<lang>.md`` (a language of
    ``langs``) is ``lang``'s, any other ``x.md`` the default's."""
    parts = name.rsplit(".", 2)
    return parts[1] if len(parts) == 3 and parts[1] in langs else default


def i18n_languages(mkdocs_yml: Path) -> tuple[tuple[str, ...], str]:
    """(the languages the site builds, in mkdocs.yml's order; the default one): the
    ``languages`` of its ``i18n`` plugin entry with ``build`` (default true) and the one with
    ``default: true``, as mkdocs-static-i18n's config reads them (its ``build_languages`` and
    ``default_language``; tests/test_sitebuild_config.py compares the two). Read as plain
    YAML, so that nothing outside ``sitebuild/`` imports MkDocs; tags (``!ENV``, Python
    objects) stand for nothing here. A site without the plugin has one language, its theme's."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def tagged(loader, suffix, node):  # a tagged value: no language is in one
        return None

    Loader.add_multi_constructor("!", tagged)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", tagged)
    config = yaml.load(Path(mkdocs_yml).read_text(encoding="utf-8"), Loader=Loader) or {}
    options = None
    for entry in config.get("plugins") or ():
        if isinstance(entry, dict) and "i18n" in entry:
            options = entry["i18n"] or {}
        elif entry == "i18n":
            options = {}
    if options is None:
        lang = (config.get("theme") or {}).get("language") or "en"
        return (lang,), lang
    built = [
        entry
        for entry in options.get("languages") or ()
        if entry.get("build", True) and entry.get("locale") not in (None, "null")
    ]
    defaults = [entry["locale"] for entry in built if entry.get("default", False)]
    if not defaults:
        raise LanguageError(
            f"{mkdocs_yml}: the i18n plugin has no language with 'default: true' and 'build: true'"
        )
    return tuple(entry["locale"] for entry in built), defaults[0]
