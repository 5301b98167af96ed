"""The built site, read as files: both languages, links, images, alt text, privacy, weight."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from site_build import LANGS, localized, parse, source_pages

from attention_explained.sitebuild._internal.budgets import FIGURE_BYTES as FIGURE_BUDGET
from attention_explained.sitebuild._internal.budgets import PAGE_BYTES as PAGE_BUDGET

pytestmark = pytest.mark.site

HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Attributes through which a page *loads* something (an <a href> only links to it).
LOADING = {
    "script": "src",
    "link": "href",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
}


def test_every_page_exists_in_both_languages(built_site):
    pages = source_pages()
    assert len(pages) >= 10, pages
    for page in pages:
        for lang in LANGS:
            assert (built_site.root / localized(page, lang) / "index.html").is_file(), (page, lang)


def test_html_lang_matches_and_korean_pages_are_korean(built_site):
    for page in built_site.pages():
        lang = built_site.page_lang(page)
        html = page.read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in html, page
        text = "".join(parse(page).text)
        article = text  # nav is shared, so measure the share of Hangul in the whole text
        hangul = len(HANGUL.findall(article))
        if lang == "ko":
            assert hangul > 200, f"{page}: a Korean page with little Korean"
        elif page.parent.name != "glossary":  # the glossary pairs Korean and English terms
            # the language switcher says "한국어"; nothing else on an English page is Korean
            assert hangul <= 12, f"{page}: Korean text on an English page"


def test_every_placeholder_was_expanded(built_site):
    for page in built_site.pages():
        html = page.read_text(encoding="utf-8")
        assert "{{ae:" not in html and "{{ ae:" not in html, page


SITE_PREFIX = "/" + re.search(
    r'site_url: !ENV \[SITE_URL, "https?://[^/]+/([^"]*)"\]',
    (Path(__file__).resolve().parents[1] / "mkdocs.yml").read_text(encoding="utf-8"),
).group(1)


def _targets(page: Path, root: Path):
    for tag, attrs in parse(page).tags:
        for attr in ("href", "src"):
            url = attrs.get(attr)
            if not url or (tag == "link" and attrs.get("rel") == "canonical"):
                continue
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith(("mailto:", "data:", "javascript:")):
                continue
            yield tag, url, parts


def test_internal_links_anchors_and_images_resolve(built_site):
    root, problems, checked = built_site.root, [], 0
    ids_cache: dict[Path, set[str]] = {}
    for page in built_site.pages():
        for tag, url, parts in _targets(page, root):
            path = unquote(parts.path)
            if path.startswith("/"):  # absolute links (language switcher) carry site_url's path
                assert path.startswith(SITE_PREFIX), f"{page}: {url} is outside {SITE_PREFIX}"
                target = root / path.removeprefix(SITE_PREFIX)
            else:
                target = (page.parent / path).resolve() if path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                # The PDF editions are printed from the built site afterwards (make pdf, the
                # Pages workflow); tests/test_pdf.py prints them and checks these links.
                if tag == "a" and re.fullmatch(r"(\.\./)*pdf/attention-explained-\w\w\.pdf", url):
                    continue
                problems.append(f"{page.relative_to(root)}: <{tag}> {url} is missing")
                continue
            if parts.fragment and tag == "a" and target.suffix == ".html":
                fragment = unquote(parts.fragment)
                if fragment in ("only-light", "only-dark", "__skip"):
                    continue
                ids = ids_cache.setdefault(target, parse(target).ids)
                if fragment not in ids:
                    problems.append(f"{page.relative_to(root)}: anchor {url} not found")
            checked += 1
    assert not problems, "\n".join(problems[:30])
    assert checked > 500


def test_every_image_has_alt_text_in_the_page_language(built_site):
    figures = 0
    for page in built_site.pages():
        lang = built_site.page_lang(page)
        for tag, attrs in parse(page).tags:
            if tag != "img":
                continue
            alt = attrs.get("alt", "").strip()
            assert alt, f"{page}: <img src={attrs.get('src')}> has no alt text"
            if "figures/" in attrs.get("src", ""):
                figures += 1
                assert bool(HANGUL.search(alt)) == (lang == "ko"), (page, alt[:60])
    assert figures >= 2 * 2 * 7, "every figure, in both themes and both languages"


def test_nothing_is_loaded_from_another_host(built_site):
    offenders = []
    for page in built_site.root.rglob("*.html"):
        for tag, attrs in parse(page).tags:
            url = attrs.get(LOADING.get(tag, ""), "")
            if tag == "link" and attrs.get("rel") in ("canonical", "alternate"):
                continue
            if urlsplit(url).netloc or url.startswith("//"):
                offenders.append(f"{page.relative_to(built_site.root)}: <{tag}> {url}")
    for sheet in built_site.root.rglob("*.css"):
        css = sheet.read_text(encoding="utf-8", errors="replace")
        for url in re.findall(r"(?:url\(|@import\s+)['\"]?((?:https?:)?//[^'\")\s]+)", css):
            offenders.append(f"{sheet.relative_to(built_site.root)}: {url}")
    assert not offenders, "\n".join(offenders[:30])


def test_no_google_fonts_or_cdn_anywhere_in_html_and_css(built_site):
    pattern = re.compile(
        r"fonts\.googleapis|fonts\.gstatic|cdn\.jsdelivr|cdnjs\.cloudflare|unpkg\.com"
    )
    for path in [*built_site.root.rglob("*.html"), *built_site.root.rglob("*.css")]:
        assert not pattern.search(path.read_text(encoding="utf-8", errors="replace")), path


def test_page_and_figure_weight_budget(built_site, capsys):
    pages = {p: p.stat().st_size for p in built_site.pages()}
    figures = {p: p.stat().st_size for p in built_site.root.rglob("figures/*.svg")}
    largest_page = max(pages, key=pages.get)
    largest_figure = max(figures, key=figures.get)
    with capsys.disabled():
        print(
            f"\nlargest page {largest_page.relative_to(built_site.root)}: {pages[largest_page]} B;"
            f" largest figure {largest_figure.relative_to(built_site.root)}: "
            f"{figures[largest_figure]} B"
        )
    assert pages[largest_page] <= PAGE_BUDGET
    assert figures[largest_figure] <= FIGURE_BUDGET


def test_notebook_pages_show_executed_output_and_no_traceback(built_site):
    notebooks = [
        p for p in built_site.pages() if "notebooks" in p.relative_to(built_site.root).parts
    ]
    assert len(notebooks) >= 4, "two notebooks in each language"
    for page in notebooks:
        html = page.read_text(encoding="utf-8")
        assert html.count("jp-OutputArea-output") >= 2, f"{page}: no executed output"
        assert "Traceback" not in html and "jp-OutputArea-error" not in html, page
        downloads = list(page.parent.glob("*.ipynb"))
        assert downloads, f"{page}: no .ipynb to download"


def material_words(lang: str) -> tuple[str, str]:
    """Material's words for its own code copy button, from its translation file."""
    import material

    languages = Path(material.__file__).parent / "templates" / "partials" / "languages"
    text = (languages / f"{lang}.html").read_text(encoding="utf-8")
    return tuple(
        re.search(rf'"clipboard\.{key}": "([^"]*)"', text)[1] for key in ("copy", "copied")
    )


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_copy_buttons_speak_the_page_language(built_site, lang):
    """mkdocs-jupyter labels its copy buttons in English; each page says what Material's own
    copy button says in that page's language."""
    label, copied = material_words(lang)
    notebooks = [
        p
        for p in built_site.pages()
        if "notebooks" in p.relative_to(built_site.root).parts and built_site.page_lang(p) == lang
    ]
    assert len(notebooks) >= 2, "two notebooks in each language"
    for page in notebooks:
        tags = parse(page).tags
        buttons = [attrs for tag, attrs in tags if tag == "clipboard-copy"]
        notices = [attrs for tag, attrs in tags if "notice" in attrs.get("class", "").split()]
        assert buttons and len(notices) == len(buttons), page
        assert {b.get("aria-label") for b in buttons} == {label}, page
        html = page.read_text(encoding="utf-8")
        assert html.count(f">{copied}</span>") == len(buttons), page
        assert "Copy to Clipboard" not in html and "Copied!" not in html, page


@pytest.mark.parametrize("lang", LANGS)
def test_math_is_typeset_at_build_time(built_site, lang):
    """Every formula is MathML in the HTML; no page loads MathJax or keeps TeX delimiters."""
    for page in built_site.pages():
        if built_site.page_lang(page) != lang:
            continue
        html = page.read_text(encoding="utf-8")
        where = page.relative_to(built_site.root)
        assert not re.search(r"<script[^>]*mathjax", html, re.I), f"{where} still loads MathJax"
        for block in re.findall(r'<(?:span|div) class="arithmatex">(.*?)</(?:span|div)>', html):
            assert block.startswith(("<math", '<div class="ae-aligned">')), (where, block[:80])
        text = re.sub(r"<(pre|code)\b.*?</\1>", "", html, flags=re.S)
        assert "\\(" not in text and "\\[" not in text, f"{where}: TeX delimiters left"
    page = built_site.root / localized("scaled-dot-product/", lang) / "index.html"
    assert page.read_text(encoding="utf-8").count("<math ") >= 10


def test_explorer_script_loads_only_on_the_explorer_page(built_site):
    for page in built_site.pages():
        html = page.read_text(encoding="utf-8")
        on_explorer = page.parent.name == "explorer"
        assert ("explorer.js" in html) == on_explorer, page.relative_to(built_site.root)


# -- Korean particles after numbers --------------------------------------------------------
# How a number is read aloud, written out here apart from the build's rule
# (sitebuild/_internal/particles.py): each digit's syllable, an integer's trailing zeros as a
# place (십 백 천 만), and whether that syllable ends in a consonant (ㄹ told apart).
SYLLABLE = dict(zip("0123456789", "영일이삼사오육칠팔구", strict=True))
PLACE = ("십", "백", "천", "만")
NUMBER_PARTICLE = re.compile(
    r"(?<![\w./])(\d[\d,]*(?:\.\d+)?)(으로|이|가|은|는|을|를|과|와|로)(?![\uac00-\ud7a3])"
)


def last_syllable(number: str) -> str:
    digits = number.replace(",", "")
    zeros = len(digits) - len(digits.rstrip("0"))
    if "." not in digits and zeros and digits.strip("0"):
        return PLACE[min(zeros, 4) - 1]
    return SYLLABLE[digits[-1]]


def particle_fits(number: str, particle: str) -> bool:
    final = (ord(last_syllable(number)) - 0xAC00) % 28  # 0: no final consonant; 8: ㄹ
    if particle in ("이", "은", "을", "과"):
        return final != 0
    if particle in ("가", "는", "를", "와"):
        return final == 0
    return (final in (0, 8)) == (particle == "로")  # 로 after a vowel or ㄹ, else 으로


def test_the_reading_check_itself():
    assert particle_fits("0.821", "이") and not particle_fits("0.821", "가")
    assert particle_fits("30", "은") and particle_fits("1024", "는") and particle_fits("8", "로")
    assert particle_fits("6", "으로") and not particle_fits("0.50", "로")


def test_every_particle_after_a_number_on_a_korean_page_takes_the_numbers_form(built_site):
    """The build writes the particle after a number it fills in; this reads every number of
    the built Korean pages' text, filled in or typed, with the particle after it."""
    wrong = []
    for page in built_site.pages():
        if built_site.page_lang(page) != "ko":
            continue
        text = " ".join(parse(page).text)  # a text node apart: math, a table cell
        for match in NUMBER_PARTICLE.finditer(text):
            if not particle_fits(*match.groups()):
                wrong.append(
                    f"{built_site.page_path(page)}: …{text[match.start() - 20 : match.end() + 6]}…"
                )
    assert not wrong, "\n".join(wrong)
