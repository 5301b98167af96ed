"""The ``attention-explained`` options in mkdocs.yml, and what the plugin reads of the rest.

``PluginConfig`` is typed and checks itself (``validate``), as mkdocs-static-i18n's config
does: a bad value fails the build with an error that names the option and what it accepts.
The checks that need MkDocs' own settings (``docs_dir``) are plain functions below, called
from ``on_config`` and tested without a build.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig

from attention_explained.sitebuild._internal.notebooks import NOTEBOOK_GLOBS, NOTEBOOK_TIMEOUT

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "OptionError",
    "PluginConfig",
    "cache_dir",
    "i18n_building",
    "languages",
    "search_plugin",
    "site_languages",
    "term_sheet",
]

MATH = ("mathml", "mathjax")  # the values of the ``math`` option; the first is the default


class BoundedInt(c.BaseConfigOption[int]):
    """An integer option with an accepted range that the error message states."""

    def __init__(self, low: int, high: int, default: int):
        super().__init__()
        self.low, self.high, self.default = low, high, default

    def run_validation(self, value: object) -> int:
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not (self.low <= value <= self.high)
        ):
            raise c.ValidationError(
                f"expected an integer in [{self.low}, {self.high}], got {value!r}"
            )
        return value


class OneOf(c.Choice):
    """A choice whose error lists the accepted values (MkDocs' names them as a tuple)."""

    def run_validation(self, value: object):
        if value not in self.choices:
            accepted = " | ".join(self.choices)
            raise c.ValidationError(f"expected one of {accepted}, got {value!r}")
        return value


REPLACED_BY_MATH = (
    "'{}' was replaced by one option, 'math: " + " | ".join(MATH) + "' (default: " + MATH[0] + ")"
)


class PluginConfig(base.Config):
    """The ``attention-explained`` options in mkdocs.yml."""

    cache_dir = c.Type(str, default=".cache")
    """Folder for figures, numbers, executed notebooks and compiled templates, relative to
    mkdocs.yml. Must be outside ``docs_dir``: generated files never go into docs/."""

    figures = c.Type(bool, default=True)
    """Draw the figures (``figures/<id>.svg`` in a page) and serve them with the site."""

    math = OneOf(MATH, default=MATH[0])
    """How formulas reach the reader. ``mathml``: typeset at build time as MathML Core
    (``math.py``), drawn by the browser with a math font served from the site and cut to the
    characters the pages use. ``mathjax``: serve MathJax 3 from the site under
    ``assets/mathjax/`` (no CDN) and let it typeset in the browser."""

    mathjax = c.Deprecated(removed=True, message=REPLACED_BY_MATH)
    mathml = c.Deprecated(removed=True, message=REPLACED_BY_MATH)

    notebooks = c.ListOfItems(c.Type(str), default=list(NOTEBOOK_GLOBS))
    """Globs, relative to docs/, of jupytext notebooks to execute before mkdocs-jupyter
    renders them (the asset step's ``--notebooks``, same default)."""

    notebook_timeout = BoundedInt(10, 3600, default=NOTEBOOK_TIMEOUT)
    """Seconds one notebook cell may run, in [10, 3600]."""

    term_sheet = c.Type(str, default="CONTRIBUTING.md")
    """The Korean term sheet (``## Korean term sheet``), relative to mkdocs.yml: search adds
    its terms for the variants readers type. A site without that file gets no synonyms."""

    jobs = BoundedInt(1, 64, default=2)
    """Processes drawing figures in parallel, in [1, 64]."""

    def validate(self):
        failed, warnings = super().validate()
        if not failed:
            for glob in self.notebooks:
                if Path(glob).is_absolute() or ".." in Path(glob).parts:
                    message = f"expected globs relative to docs/, got {glob!r}"
                    failed.append(("notebooks", c.ValidationError(message)))
        return failed, warnings


class OptionError(ValueError):
    """An option that does not fit the rest of mkdocs.yml (the message names it)."""


def cache_dir(options: PluginConfig, config: MkDocsConfig) -> Path:
    """The cache folder, absolute; refused inside docs/ (generated files never go there)."""
    root = Path(config.config_file_path or ".").resolve().parent
    folder = (root / options.cache_dir).resolve()
    docs_dir = Path(config.docs_dir).resolve()
    if folder == docs_dir or docs_dir in folder.parents:
        raise OptionError(f"cache_dir {folder} must be outside docs/")
    return folder


def term_sheet(options: PluginConfig, config: MkDocsConfig) -> Path:
    """The term sheet's path, relative to mkdocs.yml."""
    return Path(config.config_file_path or "mkdocs.yml").parent / options.term_sheet


def languages(config: MkDocsConfig) -> tuple[str, str]:
    """(language being built, default language); both the theme's without mkdocs-static-i18n."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        lang = config.theme.get("language") or "en"
        return lang, lang
    # Before i18n's own on_config has run, the build is the default language's.
    return i18n.current_language or i18n.default_language, i18n.default_language


def site_languages(config: MkDocsConfig) -> tuple[tuple[str, ...], str]:
    """(every language the site builds, in mkdocs.yml's order; the default one):
    mkdocs-static-i18n's ``languages`` with ``build: true``; the theme's alone without it."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        lang = config.theme.get("language") or "en"
        return (lang,), lang
    return tuple(lang for lang in i18n.build_languages if lang != "null"), i18n.default_language


def i18n_building(config: MkDocsConfig) -> bool:
    """True inside mkdocs-static-i18n's nested build of a non-default language."""
    i18n = config.plugins.get("i18n")
    return bool(i18n is not None and getattr(i18n, "building", False))


def search_plugin(config: MkDocsConfig):
    """Material's search plugin (or MkDocs' own), None when the site has no search."""
    return config.plugins.get("material/search") or config.plugins.get("search")
