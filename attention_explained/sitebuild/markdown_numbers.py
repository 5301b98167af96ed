"""``{{ae:name}}`` filled while the Markdown is rendered: a Python-Markdown extension.

The numbers are made before the build (``python -m attention_explained assets build``,
:mod:`~attention_explained.sitebuild.assets`), which writes them with a manifest. This
extension reads the manifest and puts each number's text in place of its placeholder before
any other part of Markdown sees the page, so it works under any engine that runs Markdown
extensions, and a number may now stand inside math (``$n = {{ae:n}}$``) or a heading::

    import markdown
    html = markdown.markdown(text, extensions=[
        "attention_explained.sitebuild.markdown_numbers",  # or NumbersExtension(...)
    ], extension_configs={"attention_explained.sitebuild.markdown_numbers": {
        "manifest": ".cache/manifest.json", "lang": "en", "where": "saturation.en.md"}})

The MkDocs plugin fills its pages through the same function, :func:`fill_placeholders`, in
``on_page_markdown`` (``plugin.py``).

A number is written as its text, which must be plain: no character that Markdown or HTML
would read as syntax (:data:`SYNTAX`; every number the package prints is digits, signs,
``.``, ``%``, ``e``, dashes and spaces), so the page is what the number's text, escaped for
HTML, would give (``html.escape`` leaves plain text as it is).

On a Korean page a particle right after a placeholder ("{{ae:x}}이", "{{ae:x}}는") is written in
the form the number's reading takes (``_internal/particles.py``): the author cannot know how
a number made at build time ends.

An unknown name, a malformed placeholder or a number that is not plain raises
:class:`~attention_explained.sitebuild._internal.markdown.MarkdownError`, naming the page
(``where``),
the line and the name. No MkDocs import.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor

from attention_explained.sitebuild._internal import particles
from attention_explained.sitebuild._internal.markdown import PLACEHOLDER, MarkdownError

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "NumbersExtension",
    "fill_placeholders",
    "load_numbers",
    "makeExtension",
]

SYNTAX = re.compile(r"[\\`*_{}\[\]<>&\"'#|~^$!]")  # Markdown, HTML or TeX would read these
PRIORITY = 1000  # before every other preprocessor: the page as its author wrote it


def number_text(name: str, text: str) -> str:
    """What stands in the Markdown for number ``name`` printed as ``text``; a
    MarkdownError if ``text`` has a character Markdown or HTML would read as syntax."""
    found = SYNTAX.search(text)
    if found:
        raise MarkdownError(
            f"number {{{{ae:{name}}}}} prints as {text!r}, whose {found.group(0)!r} Markdown "
            "would read as syntax; print it without it (content/printing.py)"
        )
    return text


# a placeholder, and on a Korean page the particle right after it (_internal/particles.py)
WITH_PARTICLE = re.compile(PLACEHOLDER.pattern + particles.PATTERN)


def fill_placeholders(
    markdown: str, numbers: Mapping[str, str], where: str, lang: str | None = None
) -> str:
    """``markdown`` with every ``{{ae:name}}`` replaced by ``numbers[name]``'s text; on a
    Korean page (``lang`` "ko"), a particle right after it in the form the number takes
    ("{{ae:x}}가" is "0.821이" or "0.82가").

    Raises :class:`MarkdownError` naming ``where``, the line and the name of an unknown
    number, of a number with a particle after it whose reading has no rule, and on a
    malformed placeholder."""

    def line(match: re.Match) -> int:
        return markdown.count("\n", 0, match.start()) + 1

    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name not in numbers:
            raise MarkdownError(
                f"unknown number {{{{ae:{name}}}}} in {where}, line {line(match)}; "
                "list the names with `python -m attention_explained numbers`"
            )
        text = number_text(name, str(numbers[name]))
        particle = match.groupdict().get("particle")
        if not particle:
            return text
        try:
            return text + particles.particle_after(text, particle)
        except particles.ParticleError as exc:
            raise MarkdownError(
                f"number {{{{ae:{name}}}}} in {where}, line {line(match)}, has the particle "
                f"{particle!r} after it, but {exc}; reword the sentence"
            ) from exc

    if "{{" not in markdown or "ae:" not in markdown:
        return markdown
    filled = (WITH_PARTICLE if lang == "ko" else PLACEHOLDER).sub(replace, markdown)
    leftover = re.search(r"\{\{\s*ae:", filled)
    if leftover:
        line = filled.count("\n", 0, leftover.start()) + 1
        raise MarkdownError(f"malformed {{{{ae:...}}}} placeholder in {where}, line {line}")
    return filled


def load_numbers(manifest: str | Path, lang: str) -> dict[str, str]:
    """The numbers of language ``lang`` that the asset step's manifest names; a
    MarkdownError naming the manifest if it is missing or has no such language."""
    path = Path(manifest)
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MarkdownError(
            f"cannot read the assets manifest {path} ({exc}); "
            "run `python -m attention_explained assets build` first"
        ) from exc
    languages = recorded.get("languages", {})
    if lang not in languages:
        raise MarkdownError(
            f"the assets manifest {path} has no language {lang!r} "
            f"(it has: {', '.join(sorted(languages))})"
        )
    numbers_file = path.parent / languages[lang]["numbers"]
    try:
        return json.loads(numbers_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MarkdownError(
            f"cannot read the numbers {numbers_file} that {path} names ({exc}); "
            "run `python -m attention_explained assets build` again"
        ) from exc


class NumbersPreprocessor(Preprocessor):
    """Fills the page's ``{{ae:…}}`` before Markdown parses it."""

    def __init__(self, md, numbers: Mapping[str, str], where: str, lang: str | None = None):
        super().__init__(md)
        self.numbers, self.where, self.lang = numbers, where, lang

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        filled = fill_placeholders(text, self.numbers, self.where, self.lang)
        return lines if filled == text else filled.split("\n")


class NumbersExtension(Extension):
    """``{{ae:name}}`` → the number, from the manifest of ``python -m attention_explained
    assets build`` (or from ``numbers``, a name → text mapping, when given)."""

    def __init__(self, **kwargs):
        self.config = {
            "manifest": [".cache/manifest.json", "the assets manifest (assets build writes it)"],
            "lang": [
                "en",
                "the page's language: its numbers are the manifest's for it (and on a Korean "
                "page a particle after a number takes the number's form)",
            ],
            "where": ["the Markdown", "the page's name, for error messages"],
            "numbers": [{}, "name → printed text; if given, the manifest is not read"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md) -> None:
        numbers = self.getConfig("numbers") or load_numbers(
            self.getConfig("manifest"), self.getConfig("lang")
        )
        preprocessor = NumbersPreprocessor(
            md, numbers, self.getConfig("where"), self.getConfig("lang")
        )
        md.preprocessors.register(preprocessor, "attention_explained_numbers", PRIORITY)


def makeExtension(**kwargs) -> NumbersExtension:
    return NumbersExtension(**kwargs)
