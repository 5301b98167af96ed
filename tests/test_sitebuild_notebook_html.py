"""Notebook HTML made fit for the site (sitebuild/_internal/notebook_html.py): pure functions."""

from __future__ import annotations

import re

import pytest
from site_build import LANGS

from attention_explained.sitebuild._internal import notebook_html

# What mkdocs-jupyter's notebook template writes, as the page's HTML carries it.
TEMPLATE_BUTTON = '<clipboard-copy ,="" aria-label="Copy to Clipboard" for="cell-3">'


def attributes(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([^\s=<>]+)="([^"]*)"', tag))


TEMPLATE_NOTICE = '<span class="notice" hidden="">Copied!</span>'


def test_copy_buttons_lose_the_stray_comma_and_get_a_role_for_their_label():
    html = f"<div>{TEMPLATE_BUTTON}<span>x</span></clipboard-copy></div>"
    out = notebook_html.copy_buttons(html, "Copy to Clipboard", "Copied!")
    (tag,) = re.findall(r"<clipboard-copy[^>]*>", out)
    attrs = attributes(tag)
    assert "," not in tag
    assert attrs["for"] == "cell-3" and attrs["aria-label"] == "Copy to Clipboard"
    assert attrs["role"] == "button" and attrs["tabindex"] == "0"
    assert out.replace(tag, TEMPLATE_BUTTON) == html  # nothing else changed


def test_copy_buttons_keep_a_role_the_page_already_gives():
    out = notebook_html.copy_buttons('<clipboard-copy role="link" for="c">', "Copy", "Done")
    assert attributes(out)["role"] == "link"


def test_copy_buttons_speak_the_words_they_are_given():
    html = f"<div>{TEMPLATE_BUTTON}<div>{TEMPLATE_NOTICE}<svg></svg></div></clipboard-copy></div>"
    out = notebook_html.copy_buttons(html, "클립보드로 복사", 'Copied "x" & <y>')
    (tag,) = re.findall(r"<clipboard-copy[^>]*>", out)
    assert attributes(tag)["aria-label"] == "클립보드로 복사"
    assert "Copy to Clipboard" not in out and "Copied!" not in out
    (notice,) = re.findall(r'<span class="notice"[^>]*>[^<]*</span>', out)
    assert notice.endswith(">Copied &quot;x&quot; &amp; &lt;y&gt;</span>"), "escaped"
    notice_attrs = attributes(notice)
    assert "hidden" in notice_attrs, "shown only once the code is copied"
    assert "data-search-exclude" in notice_attrs, "Material's search leaves it out"


@pytest.mark.parametrize("language", LANGS)
def test_copy_words_are_materials_own_for_the_theme_language(language, tmp_path):
    """The words Material's translation file gives its copy button, read here from the file."""
    from pathlib import Path

    import material
    from mkdocs.config.defaults import MkDocsConfig

    translations = Path(material.__file__).parent / "templates/partials/languages"
    text = (translations / f"{language}.html").read_text(encoding="utf-8")
    wanted = tuple(
        re.search(rf'"clipboard\.{key}": "([^"]*)"', text)[1] for key in ("copy", "copied")
    )
    config = MkDocsConfig()
    theme = {"name": "material", "language": language}
    config.load_dict({"site_name": "x", "docs_dir": str(tmp_path), "theme": theme})
    errors, _ = config.validate()
    assert not errors, errors
    assert notebook_html.copy_words(config.theme.get_env(), config) == wanted
