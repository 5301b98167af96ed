"""The README's list of OS packages is what .ci/run installs, and no font package is in it."""

from __future__ import annotations

import re

from site_build import REPO


def readme_packages() -> set[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("The tests need") :]
    table = section[: section.index("\n\n", section.index("| ---"))]
    return set(re.findall(r"^\| `([a-z0-9.+-]+)` \|", table, re.M))


def ci_packages() -> set[str]:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    return set(re.findall(r"need\+=\(([a-z0-9.+-]+)\)", script))


def test_ci_installs_exactly_the_os_packages_the_readme_lists():
    listed, installed = readme_packages(), ci_packages()
    assert listed, "no OS package table in the README"
    assert listed == installed, (
        f"README lists {sorted(listed)}, .ci/run installs {sorted(installed)}"
    )
    # The product embeds its fonts; a font package here would hide a missing one.
    assert not [p for p in installed if p.startswith(("fonts-", "ttf-"))], installed
