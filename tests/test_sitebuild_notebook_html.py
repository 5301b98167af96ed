"""Notebook HTML made fit for the site (sitebuild/notebook_html.py): pure functions."""

from __future__ import annotations

import re

from attention_explained.sitebuild import notebook_html

# What mkdocs-jupyter's notebook template writes, as the page's HTML carries it.
TEMPLATE_BUTTON = '<clipboard-copy ,="" aria-label="Copy to Clipboard" for="cell-3">'


def attributes(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([^\s=<>]+)="([^"]*)"', tag))


def test_copy_buttons_lose_the_stray_comma_and_get_a_role_for_their_label():
    html = f"<div>{TEMPLATE_BUTTON}<span>x</span></clipboard-copy></div>"
    out = notebook_html.copy_buttons(html)
    (tag,) = re.findall(r"<clipboard-copy[^>]*>", out)
    attrs = attributes(tag)
    assert "," not in tag
    assert attrs["for"] == "cell-3" and attrs["aria-label"] == "Copy to Clipboard"
    assert attrs["role"] == "button" and attrs["tabindex"] == "0"
    assert out.replace(tag, TEMPLATE_BUTTON) == html  # nothing else changed


def test_copy_buttons_keep_a_role_the_page_already_gives():
    out = notebook_html.copy_buttons('<clipboard-copy role="link" for="c">')
    assert attributes(out)["role"] == "link"
