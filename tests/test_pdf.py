"""The PDF edition of each language, printed from the strict build with the system Chromium.

The editions are printed by a Chromium that sees one system font, DejaVu Sans (a fontconfig
of its own): like a fresh machine with no CJK font, even where one is installed (this one has
fonts-noto-cjk for screenshots). Checked with pypdf (the structure and the fonts) and PDFium
(the text, tests/pdf_support.py): a sane page count, the cover and the table
of contents on their pages, Korean text extractable from the Korean edition (so its glyphs are
embedded with a Unicode map) in NanumGothic, every embedded font one of the edition's own
(never a system font), every light-theme figure of the site's pages tagged as a Figure with
its alt text, no dark figure, every display equation of the site's pages there as a formula,
the home page's link to each edition resolving, and every exercise answer there in full (the
folded answers print open).
"""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from html import unescape
from pathlib import Path

import pdf_support
import pytest
from site_build import LANGS, localized, parse

pypdf = pytest.importorskip("pypdf") if os.environ.get("CI") != "true" else __import__("pypdf")

from attention_explained.edition import pdf  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]
HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.fixture(scope="module")
def one_system_font(tmp_path_factory):
    """A fontconfig whose only font is DejaVu Sans (what Debian's fontconfig always pulls in)."""
    root = tmp_path_factory.mktemp("fontconfig")
    (root / "fonts").mkdir()
    dejavu = pdf.font_file("matplotlib", "mpl-data/fonts/ttf/DejaVuSans.ttf")
    (root / "fonts" / dejavu.name).symlink_to(dejavu)
    conf = root / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f"<dir>{root / 'fonts'}</dir><cachedir>{root / 'cache'}</cachedir></fontconfig>\n",
        encoding="utf-8",
    )
    return conf


@pytest.fixture(scope="module")
def printed_site(built_site, tmp_path_factory) -> Path:
    """A copy of the built site (hard links: nothing in it is rewritten) for the editions to
    be printed into, as `make pdf` prints into site/pdf/: the shared build stays as built,
    for the tests that read it meanwhile (test_site_reproducible.py compares its bytes)."""
    root = tmp_path_factory.mktemp("printed") / "site"
    shutil.copytree(built_site.root, root, copy_function=os.link)
    return root


@pytest.fixture(scope="module")
def editions(printed_site, one_system_font):
    if pdf.find_chromium() is None:
        message = "the PDF test needs a system Chromium (CHROMIUM_PATH or /usr/bin/chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    out = {}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("FONTCONFIG_FILE", str(one_system_font))  # Chromium inherits it
        for lang in LANGS:
            out[lang] = pdf.build_pdf(printed_site, lang, printed_site / "pdf" / pdf.pdf_name(lang))
    return out


@pytest.fixture(scope="module")
def page_texts(editions) -> dict[str, list[str]]:
    """Each edition's text, page by page, extracted once (tests/pdf_support.py; three
    tests read it)."""
    return {lang: pdf_support.page_texts(path) for lang, path in editions.items()}


def embedded_fonts(reader) -> set[str]:
    """PostScript names of the fonts embedded in a PDF, without the subset tag (ABCDEF+)."""
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font")
        for font in (fonts.get_object() if fonts else {}).values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+", 1)[-1])
    return names


def edition_font_names(built_site) -> set[str]:
    """PostScript names of the edition's own fonts (the wheels') and the site's math font."""
    from fontTools.ttLib import TTFont

    from attention_explained.math_font import FONT_NAME

    paths = [pdf.font_file(package, rel) for *_, package, rel in pdf.FONT_FACES]
    paths.append(built_site.root / "assets" / "math" / f"{FONT_NAME}.woff2")
    names = set()
    for path in paths:
        with TTFont(path) as font:
            names.add(font["name"].getDebugName(6))
    return names


def site_pages(built_site, lang):
    return [p for p in built_site.pages() if built_site.page_lang(p) == lang]


def light_figures(built_site, lang) -> list[str]:
    """Alt texts of the light figure variants in the pages of `lang`."""
    alts = []
    for page in site_pages(built_site, lang):
        for tag, attrs in parse(page).tags:
            src = attrs.get("src", "")
            if tag == "img" and "/figures/" in "/" + src and ".dark.svg" not in src:
                alts.append(attrs.get("alt", ""))
    return alts


def display_equations(built_site, lang) -> list[str]:
    """The TeX of each display equation in the pages of `lang` (from its MathML alttext)."""
    found = []
    for page in site_pages(built_site, lang):
        html = page.read_text(encoding="utf-8")
        for block in re.findall(r'<div class="arithmatex">(.*?)</div>\s*(?=<|$)', html, re.S):
            alts = re.findall(r'<math alttext="([^"]*)"', block)
            found.append(unescape(" ".join(alts)))
    return found


def structure(reader) -> list[tuple[str, str]]:
    """(tag, alt text) of every structure element of a tagged PDF."""
    found = []

    def walk(node):
        node = node.get_object()
        if isinstance(node, pypdf.generic.ArrayObject):
            for child in node:
                walk(child)
            return
        if not isinstance(node, pypdf.generic.DictionaryObject):
            return
        if "/S" in node:
            found.append((str(node["/S"]), str(node.get("/Alt", ""))))
        if "/K" in node:
            walk(node["/K"])

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_edition(built_site, editions, page_texts, lang):
    reader = pypdf.PdfReader(str(editions[lang]))
    pages = len(reader.pages)
    chapters = len(site_pages(built_site, lang))
    assert chapters + 2 <= pages <= 12 * chapters, f"{pages} pages for {chapters} site pages"

    cover, toc = page_texts[lang][0], page_texts[lang][1]
    home_title = re.search(
        r"<title>([^<]*)</title>",
        (built_site.root / localized("", lang) / "index.html").read_text(encoding="utf-8"),
    ).group(1)
    # The site name, ignoring whitespace (the cover breaks its lines where it must).
    site_name = home_title.split(" - ")[-1]
    assert re.sub(r"\s+", "", site_name) in re.sub(r"\s+", "", cover), cover[:200]
    assert ("차례" if lang == "ko" else "Contents") in toc, toc[:200]
    assert len(re.findall(r"^\s*\d+\.", toc, re.M)) >= chapters - 1 or toc.count("\n") >= chapters

    text = "".join(page_texts[lang])
    hangul = len(HANGUL.findall(text))
    fonts = embedded_fonts(reader)
    foreign = fonts - edition_font_names(built_site)
    assert not foreign, f"fonts not the edition's own (a system fallback?): {sorted(foreign)}"
    if lang == "ko":
        assert hangul > 5000, f"only {hangul} Hangul syllables extracted"
        assert "어텐션" in text and "소프트맥스" in text
        assert {"NanumGothic", "NanumGothicBold"} <= fonts, sorted(fonts)
    else:
        assert "attention" in text.lower() and "softmax" in text.lower()

    tags = structure(reader)
    figures = [alt for tag, alt in tags if tag == "/Figure"]
    expected = light_figures(built_site, lang)
    missing = [alt for alt in expected if alt not in figures]
    assert not missing, f"figures missing from the PDF: {missing[:5]}"
    assert len(figures) >= len(expected)

    # Each display equation is tagged as a figure whose alternate text is its TeX.
    equations = display_equations(built_site, lang)
    assert len(equations) >= 20
    missing = [tex for tex in equations if tex not in figures]
    assert not missing, f"{len(missing)} display equations missing from the PDF: {missing[:3]}"


def test_home_pages_link_to_the_editions(printed_site, editions):
    for home in (printed_site / localized("", lang) / "index.html" for lang in LANGS):
        links = [a.get("href", "") for tag, a in parse(home).tags if tag == "a"]
        pdfs = [h for h in links if h.endswith(".pdf")]
        assert pdfs, f"{home}: no link to a PDF edition"
        for href in pdfs:
            assert (home.parent / href).resolve().is_file(), f"{home}: {href} does not resolve"


def exercises_section(html: str) -> str:
    """A page's exercises section: from its heading to the next <h2> or the footnotes."""
    at = html.find('id="exercises"')
    if at < 0:
        return ""
    section = html[at:]
    end = re.search(r'<h2|<div class="footnote"', section[1:])
    return section[: end.start() + 1] if end else section


def exercise_answers(html: str) -> list[str]:
    """The longest stretch of plain text (no math) of each folded answer in a page's exercises."""
    section = exercises_section(html)
    answers = []
    for block in re.findall(r'<details class="success">(.*?)</details>', section, re.S):
        block = re.sub(r"<summary>.*?</summary>", "", block, flags=re.S)
        block = re.sub(r"<math.*?</math>", "\0", block, flags=re.S)
        runs = [
            " ".join(run.split()) for run in unescape(re.sub(r"<[^>]+>", "", block)).split("\0")
        ]
        answers.append(max(runs, key=len))
    return answers


def flat(text: str) -> str:
    """NFKC (the PDF's ﬁ/ﬀ ligatures) without whitespace (the PDF's line breaks)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def test_exercise_answers_are_read_from_the_folds():
    html = (
        '<h2 id="exercises">Exercises</h2><p>1. Q</p><details class="success">'
        "<summary>Solution</summary><p>Short <math><mi>x</mi></math> the longer plain part"
        '</p></details><h2 id="next">Next</h2><details class="success"><summary>S</summary>'
        "<p>not an exercise</p></details>"
    )
    assert exercise_answers(html) == ["the longer plain part"]
    assert exercise_answers("<p>no exercises</p>") == []


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_prints_every_exercise_answer(built_site, page_texts, lang):
    """The folds print open: each answer's text is in the PDF, on every teaching page."""
    text = flat("".join(page_texts[lang]))
    pages_with_exercises, missing = 0, []
    for page in site_pages(built_site, lang):
        answers = exercise_answers(page.read_text(encoding="utf-8"))
        pages_with_exercises += bool(answers)
        missing += [f"{page.parent.name}: {a[:60]}" for a in answers if flat(a) not in text]
    assert pages_with_exercises >= 7, f"only {pages_with_exercises} pages have exercises"
    assert not missing, "exercise answers not in the PDF:\n" + "\n".join(missing)


def exercise_questions_and_answers(html: str) -> list[tuple[str, str]]:
    """(question, answer): the longest plain-text stretch of each exercise paragraph and of
    the folded answer right after it."""
    section = exercises_section(html)

    def longest_plain(block: str) -> str:
        block = re.sub(r"<summary>.*?</summary>", "", block, flags=re.S)
        block = re.sub(r"<math.*?</math>", "\0", block, flags=re.S)
        runs = unescape(re.sub(r"<[^>]+>", "", block)).split("\0")
        return max((" ".join(run.split()) for run in runs), key=len)

    # (an answer box's placeholder, sitebuild/_internal/answers.py, may end the question: the PDF
    # leaves it out)
    found = re.findall(
        r"<p>((?:(?!</p>).)*)</p>\s*<details class=\"success\">(.*?)</details>",
        section,
        re.S,
    )
    return [(longest_plain(question), longest_plain(answer)) for question, answer in found]


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_prints_each_exercise_on_the_page_of_its_answer(built_site, page_texts, lang):
    """A reader of the paper edition finds the answer under its question, not overleaf."""
    pages = [flat(text) for text in page_texts[lang]]
    checked, split = 0, []
    for page in site_pages(built_site, lang):
        for question, answer in exercise_questions_and_answers(page.read_text(encoding="utf-8")):
            on = [i + 1 for i, text in enumerate(pages) if flat(question) in text]
            answer_on = [i + 1 for i, text in enumerate(pages) if flat(answer) in text]
            checked += 1
            if not on or not answer_on or on[-1] != answer_on[0]:
                split.append(f"{page.parent.name}: {question[:50]!r} p.{on} answer p.{answer_on}")
    assert checked >= 20, f"only {checked} exercises found"
    assert not split, "exercises printed apart from their answers:\n" + "\n".join(split)
