"""The PDF edition of one language, printed by Chromium from the built site.

``python -m attention_explained.edition.pdf --site site --lang ko --out-dir site/pdf``

The built site is served on 127.0.0.1 under its path prefix; Chromium (Playwright, the
system browser, never a downloaded one) reads the navigation of the language's home page
for the order of the pages, takes each page's article, and lays them out in the home page's
document (so the theme's, the math's and the notebooks' stylesheets all apply) after a
cover and a table of contents. Figures are the light-theme variants only; math is the
build-time MathML with the site's math font. Text is set in fonts that come from pinned
wheels, never from the system: DejaVu Sans and DejaVu Sans Mono (matplotlib's) with
NanumGothic (koreanize-matplotlib's, as in the figures) for Hangul, through @font-face rules
whose files the browser gets from the wheels (:data:`FONT_FACES`). Before printing, every
character of every page is looked up in the fonts its CSS names; one that none of them
draws stops the edition with its page and code point (:func:`missing_glyphs`), so the PDF
never falls back to whatever the machine has, or to empty boxes. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import functools
import io
import sys
import unicodedata
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import urlsplit

from attention_explained.edition.browser import (
    OFFLINE_ARGS,
    find_chromium,
    launch,
    serve,
    site_prefix,
)
from attention_explained.languages import (
    LanguageError,
    i18n_languages,
    pick,
    prefixes,
    url_language,
)
from attention_explained.math_font import FONT_FAMILY, FONT_NAME, ITALIC
from attention_explained.settings import LANGS

# The cover's words, one entry per language of settings.LANGS.
TEXT = {
    "ko": {
        "subtitle": "트랜스포머 어텐션이 q·k를 √dₖ로 나누는 이유: 수식, 그림, 실험",
        "toc": "차례",
        "edition": "PDF판 · 사이트에서 만듦",
    },
    "en": {
        "subtitle": "Why Transformer attention divides q·k by √dₖ: math, figures, experiments",
        "toc": "Contents",
        "edition": "PDF edition · made from the site",
    },
}
# (CSS family, weight, style, package, file in the package): every font the edition uses.
FONT_FACES = (
    ("AE Sans", 400, "normal", "matplotlib", "mpl-data/fonts/ttf/DejaVuSans.ttf"),
    ("AE Sans", 700, "normal", "matplotlib", "mpl-data/fonts/ttf/DejaVuSans-Bold.ttf"),
    ("AE Sans", 400, "italic", "matplotlib", "mpl-data/fonts/ttf/DejaVuSans-Oblique.ttf"),
    ("AE Sans", 700, "italic", "matplotlib", "mpl-data/fonts/ttf/DejaVuSans-BoldOblique.ttf"),
    ("AE Mono", 400, "normal", "matplotlib", "mpl-data/fonts/ttf/DejaVuSansMono.ttf"),
    ("AE Mono", 700, "normal", "matplotlib", "mpl-data/fonts/ttf/DejaVuSansMono-Bold.ttf"),
    ("AE Hangul", 400, "normal", "koreanize_matplotlib", "fonts/NanumGothic.ttf"),
    ("AE Hangul", 700, "normal", "koreanize_matplotlib", "fonts/NanumGothicBold.ttf"),
)
DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "mkdocs.yml"
FONT_ROUTE = "__pdf-fonts/"  # under the served site; answered from the wheels, not the site
PRINT_CSS = """
@page { size: A4; margin: 18mm 16mm 20mm 16mm; }
html, body, .ae-pdf, .ae-pdf * { font-family: "AE Sans", "AE Hangul" !important; }
.ae-pdf code, .ae-pdf code *, .ae-pdf pre, .ae-pdf pre *, .ae-pdf kbd {
  font-family: "AE Mono", "AE Hangul" !important;
}
.ae-pdf math, .ae-pdf math * {
  font-family: "STIX Two Math AE", "AE Sans", "AE Hangul" !important;
}
body { background: #fff !important; }
.ae-pdf { padding: 0; }
.ae-pdf-cover {
  height: 240mm; display: flex; flex-direction: column; justify-content: center;
  break-after: page; text-align: center;
}
.ae-pdf-cover h1 { font-size: 2.2em; margin: 0 0 0.6em; color: #1a237e; font-weight: 700; }
.ae-pdf-cover p { font-size: 1.1em; color: #333; }
.ae-pdf-toc { break-after: page; }
.ae-pdf-toc ol { font-size: 1.05em; line-height: 2; }
.ae-pdf-toc a { color: inherit; text-decoration: none; }
.ae-pdf-chapter { break-before: page; }
.ae-pdf-chapter .headerlink, .ae-pdf-chapter .md-content__button,
.ae-pdf-chapter .md-clipboard, .ae-pdf-chapter .ae-explorer { display: none !important; }
.ae-pdf img { max-width: 100%; break-inside: avoid; }
.ae-pdf h1, .ae-pdf h2, .ae-pdf h3, .ae-pdf h4 { break-after: avoid-page; }
.ae-pdf div.arithmatex { overflow: visible !important; break-inside: avoid; }
.ae-pdf .highlight, .ae-pdf pre, .ae-pdf .jp-Cell { break-inside: avoid-page; }
.ae-pdf pre, .ae-pdf pre code { white-space: pre-wrap !important; word-break: break-all; }
/* An exercise is printed on one page with its folded answer: the question is not split and
   does not end a page, and an answer is not split either (the answers are printed open). */
.ae-pdf p:has(+ details) { break-inside: avoid-page; break-after: avoid-page; }
.ae-pdf details { break-inside: avoid-page; }
"""

# Runs in the home page: collects the pages of the primary navigation in order.
NAV_LINKS = """() => {
  const seen = new Set(), out = [];
  for (const a of document.querySelectorAll('nav.md-nav--primary a.md-nav__link[href]')) {
    const url = new URL(a.getAttribute('href'), location.href);
    url.hash = '';
    if (url.origin !== location.origin || seen.has(url.href)) continue;
    seen.add(url.href);
    out.push(url.href);
  }
  return out;
}"""

# Runs in each page: its article with absolute URLs, light figures only, and its stylesheets.
ARTICLE = """() => {
  const article = document.querySelector('article.md-content__inner');
  const copy = article.cloneNode(true);
  copy.querySelectorAll('img').forEach(img => {
    const src = img.getAttribute('src') || '';
    if (src.includes('#only-dark') || /\\.dark\\.svg/.test(src)) { img.remove(); return; }
    img.setAttribute('src', new URL(src, location.href).href);
    img.removeAttribute('loading');
  });
  copy.querySelectorAll('a[href]').forEach(a => a.setAttribute('href', a.href));
  copy.querySelectorAll('script').forEach(s => s.remove());
  // An exercise's answer box (answers.js) cannot be typed into on paper.
  copy.querySelectorAll('.ae-answer').forEach(box => box.remove());
  // Collapsed blocks (??? note) are printed open: paper cannot be clicked.
  copy.querySelectorAll('details').forEach(d => d.setAttribute('open', ''));
  // A display equation is tagged in the PDF as a figure whose alternate text is its TeX.
  copy.querySelectorAll('div.arithmatex').forEach(div => {
    const tex = [...div.querySelectorAll('math')].map(m => m.getAttribute('alttext')).join(' ');
    div.setAttribute('role', 'img');
    div.setAttribute('aria-label', tex);
  });
  copy.querySelectorAll('link[rel=preload]').forEach(l => l.remove());
  const sheets = [...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href);
  const title = (copy.querySelector('h1') || {}).textContent || document.title;
  return {html: copy.innerHTML, sheets, title: title.replace('¶', '').trim()};
}"""


# Runs in the assembled edition: per section, the text of each visible element by the
# font-family list its CSS gives it (what the browser will look the glyphs up in).
ITALIC_MARK = " /* italic */"
TEXT_BY_FONT = """(ITALIC) => [...document.querySelectorAll('.ae-pdf > section')].map(section => {
  const heading = section.querySelector('h1, h2');
  const title = heading ? heading.textContent.replace('¶', '').trim() : section.className;
  const text = {};
  const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !el.checkVisibility()) continue;
    // A one-letter <mi> is drawn in Mathematical Italic (x becomes U+1D465).
    const italic = el.localName === 'mi' && !el.hasAttribute('mathvariant')
      && [...node.textContent.trim()].length === 1;
    const family = getComputedStyle(el).fontFamily + (italic ? ITALIC : '');
    text[family] = (text[family] || '') + node.textContent;
  }
  return {title, text};
})"""


class PdfError(RuntimeError):
    """The PDF cannot be made; the message says why."""


def pdf_name(lang: str) -> str:
    """The file name of ``lang``'s edition (the home pages link it)."""
    return f"attention-explained-{lang}.pdf"


def site_languages(mkdocs_yml: Path) -> tuple[tuple[str, ...], str]:
    """(the site's languages, the default one) from its mkdocs.yml's i18n plugin; the
    package's (settings.LANGS, the first the default) without a mkdocs.yml."""
    if not mkdocs_yml.is_file():
        return LANGS, LANGS[0]
    try:
        return i18n_languages(mkdocs_yml)
    except LanguageError as exc:
        raise PdfError(str(exc)) from None


def font_file(package: str, relative: str) -> Path:
    """A font shipped inside an installed wheel, found without importing the package."""
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PdfError(f"{package} is not installed; the PDF takes its fonts from it")
    path = Path(spec.submodule_search_locations[0]) / relative
    if not path.is_file():
        raise PdfError(f"{path}: font missing from the {package} wheel")
    return path


def font_face_css(base: str) -> str:
    """@font-face rules for :data:`FONT_FACES`, their files under ``base + FONT_ROUTE``."""
    return "".join(
        f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style};'
        f' font-display: block; src: url("{base}{FONT_ROUTE}{Path(rel).name}")'
        ' format("truetype"); }\n'
        for family, weight, style, _package, rel in FONT_FACES
    )


# Font-editor (VTT) source tables that no renderer reads; NanumGothic ships an empty TSI3,
# which Chromium's font sanitizer rejects, so the face would not load at all.
EDITOR_TABLES = ("TSI0", "TSI1", "TSI2", "TSI3", "TSI5", "TSIV")


def font_bytes(path: Path) -> bytes:
    """The font file as the browser gets it: without the editor tables it would refuse."""
    from fontTools.ttLib import TTFont

    with TTFont(path) as font:
        present = [tag for tag in EDITOR_TABLES if tag in font]
        if not present:
            return path.read_bytes()
        for tag in present:
            del font[tag]
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()


FOOTER_TEXT = "0123456789 /"


def footer_template() -> str:
    """Page numbers, in AE Sans cut to digits: the footer cannot load the page's fonts, and
    a data: URL keeps it off the system's."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    family, _weight, _style, package, rel = FONT_FACES[0]
    options = subset.Options()
    options.hinting = False
    options.drop_tables = [*options.drop_tables, "FFTM"]  # FontForge's timestamps
    with TTFont(font_file(package, rel), recalcTimestamp=False) as font:
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=FOOTER_TEXT)
        subsetter.subset(font)
        out = io.BytesIO()
        font.save(out)
    data = base64.b64encode(out.getvalue()).decode()
    return (
        f'<style>@font-face {{ font-family: "{family} Footer";'
        f' src: url(data:font/ttf;base64,{data}) format("truetype"); }}</style>'
        f"<div style=\"font-family:'{family} Footer';font-size:8px;width:100%;"
        'text-align:center;color:#666">'
        '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
    )


@functools.cache
def _cmap(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


def family_coverage(site: Path) -> dict[str, frozenset[int]]:
    """CSS family → the code points every one of its faces draws (the edition's fonts and
    the site's math font)."""
    faces: dict[str, list[Path]] = {}
    for family, _weight, _style, package, rel in FONT_FACES:
        faces.setdefault(family, []).append(font_file(package, rel))
    served = site / "assets" / "math" / f"{FONT_NAME}.woff2"
    if served.is_file():
        faces[FONT_FAMILY] = [served]
    return {
        family: frozenset.intersection(*(_cmap(path) for path in paths))
        for family, paths in faces.items()
    }


def _families(css_value: str) -> list[str]:
    return [name.strip().strip('"').strip("'") for name in css_value.split(",")]


def _drawn_without_glyph(char: str) -> bool:
    """Characters a browser lays out without a glyph: spaces, controls, format marks."""
    return (
        char.isspace()
        or unicodedata.category(char) in ("Cc", "Cf")
        or ("\ufe00" <= char <= "\ufe0f")
    )


def missing_glyphs(
    sections: list[dict], coverage: dict[str, frozenset[int]]
) -> list[tuple[str, str, str]]:
    """(section title, characters, font-family) for text that none of its fonts draws.

    `sections` is what TEXT_BY_FONT returns; a family that is not one of the edition's own
    (a system font, a generic name) draws nothing here, since the machine may not have it.
    """
    problems = []
    for section in sections:
        for family, text in section["text"].items():
            if family.endswith(ITALIC_MARK):
                family = family.removesuffix(ITALIC_MARK)
                text = "".join(ITALIC.get(c, c) for c in text)
            drawn = frozenset().union(*(coverage.get(f, frozenset()) for f in _families(family)))
            missing = sorted(
                {c for c in text if not _drawn_without_glyph(c) and ord(c) not in drawn}
            )
            if missing:
                problems.append((section["title"], "".join(missing), family))
    return problems


def describe_missing(problems: list[tuple[str, str, str]]) -> str:
    lines = [
        f"  {title}: {' '.join(f'{c!r} U+{ord(c):04X}' for c in chars[:12])}"
        f"{' …' if len(chars) > 12 else ''} (font-family: {family})"
        for title, chars, family in problems[:20]
    ]
    return "text with no glyph in the embedded fonts:\n" + "\n".join(lines)


def _prefix(mkdocs_yml: Path) -> str:
    """The site's path prefix; "/" without a config or a site_url in it."""
    try:
        return site_prefix(mkdocs_yml) if mkdocs_yml.is_file() else "/"
    except ValueError:
        return "/"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def assemble(chapters: list[dict], lang: str, site_name: str) -> str:
    """The body of the edition: cover, table of contents, one chapter per page."""
    words = pick(TEXT, lang, "attention_explained/edition/pdf.py TEXT")
    toc = "".join(
        f'<li><a href="#ae-chapter-{i}">{_escape(c["title"])}</a></li>'
        for i, c in enumerate(chapters, 1)
    )
    body = [
        '<div class="ae-pdf md-typeset">',
        f'<section class="ae-pdf-cover"><h1>{_escape(site_name)}</h1>'
        f"<p>{_escape(words['subtitle'])}</p><p>{_escape(words['edition'])}</p></section>",
        f'<section class="ae-pdf-toc"><h2>{words["toc"]}</h2><ol>{toc}</ol></section>',
    ]
    for i, chapter in enumerate(chapters, 1):
        body.append(
            f'<section class="ae-pdf-chapter" id="ae-chapter-{i}">{chapter["html"]}</section>'
        )
    body.append("</div>")
    return "".join(body)


def build_pdf(site: Path, lang: str, out: Path, mkdocs_yml: Path | None = None) -> Path:
    """Print the `lang` edition of the built `site` to `out`; returns `out`.

    `mkdocs_yml` (default: the repository's) gives the site's path prefix and its languages
    (mkdocs-static-i18n's ``languages``): the edition takes only `lang`'s pages."""
    mkdocs_yml = mkdocs_yml or DEFAULT_CONFIG
    langs, default = site_languages(mkdocs_yml)
    if lang not in langs:
        raise PdfError(f"lang must be one of the site's languages {', '.join(langs)}, got {lang!r}")
    try:
        pick(TEXT, lang, "attention_explained/edition/pdf.py TEXT")
    except LanguageError as exc:
        raise PdfError(str(exc)) from None
    if not (site / "index.html").is_file():
        raise PdfError(f"{site}: no built site (run `make build` first)")
    if find_chromium() is None:
        raise PdfError("no Chromium found (CHROMIUM_PATH, chromium, /usr/bin/chromium)")

    prefix = _prefix(mkdocs_yml)
    home = prefixes(langs, default)[lang]
    out.parent.mkdir(parents=True, exist_ok=True)
    off_machine: list[str] = []
    coverage = family_coverage(site)
    fonts = {Path(rel).name: font_bytes(font_file(package, rel)) for *_, package, rel in FONT_FACES}
    with serve(site, prefix) as base, launch(tuple(OFFLINE_ARGS)) as browser:
        context = browser.new_context(color_scheme="light", service_workers="block")

        def font(route):
            body = fonts.get(urlsplit(route.request.url).path.rsplit("/", 1)[-1])
            if body is None:
                route.fulfill(status=404)
            else:
                route.fulfill(body=body, content_type="font/ttf")

        context.route(base + FONT_ROUTE + "*", font)

        def watch(request):
            host = urlsplit(request.url).hostname
            if request.url.startswith("http") and host != "127.0.0.1":
                off_machine.append(request.url)

        context.on("request", watch)
        page = context.new_page()
        page.goto(base + home, wait_until="networkidle")
        site_name = page.evaluate(
            "() => (document.querySelector('.md-header__topic .md-ellipsis') || {})"
            ".textContent || document.title"
        ).strip()
        urls = [u for u in page.evaluate(NAV_LINKS) if same_language(u, base, lang, langs, default)]
        if not urls:
            raise PdfError(f"no pages found in the navigation of {base + home}")
        chapters, sheets = [], []
        for url in urls:
            page.goto(url, wait_until="domcontentloaded")
            chapter = page.evaluate(ARTICLE)
            chapters.append(chapter)
            sheets += [s for s in chapter["sheets"] if s not in sheets]
        page.goto(base + home, wait_until="networkidle")
        page.evaluate(
            """([body, sheets, css]) => {
                for (const href of sheets) {
                  if (document.querySelector(`link[href="${href}"]`)) continue;
                  const link = document.createElement('link');
                  link.rel = 'stylesheet'; link.href = href;
                  document.head.appendChild(link);
                }
                const style = document.createElement('style');
                style.textContent = css;
                document.head.appendChild(style);
                document.body.setAttribute('data-md-color-scheme', 'default');
                document.body.innerHTML = body;
            }""",
            [assemble(chapters, lang, site_name), sheets, font_face_css(base) + PRINT_CSS],
        )
        page.wait_for_load_state("networkidle")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        broken = page.evaluate(
            "() => [...document.images].filter(i => !i.naturalWidth).map(i => i.src)"
        )
        if broken:
            raise PdfError(f"figures that did not load: {broken[:5]}")
        unloaded = page.evaluate(
            "() => [...document.fonts].filter(f => f.family.startsWith('AE ')"
            " && f.status === 'error').map(f => f.family)"
        )
        if unloaded:
            raise PdfError(f"fonts that did not load: {sorted(set(unloaded))}")
        problems = missing_glyphs(page.evaluate(TEXT_BY_FONT, ITALIC_MARK), coverage)
        if problems:
            raise PdfError(f"{pdf_name(lang)}: {describe_missing(problems)}")
        page.emulate_media(media="print")
        page.pdf(
            path=str(out),
            format="A4",
            print_background=True,
            display_header_footer=True,
            header_template="<span></span>",
            footer_template=footer_template(),
            margin={"top": "16mm", "bottom": "18mm", "left": "14mm", "right": "14mm"},
            outline=True,
            tagged=True,
        )
    if off_machine:
        raise PdfError(f"requests off 127.0.0.1 while printing: {off_machine[:5]}")
    return out


def same_language(url: str, base: str, lang: str, langs: Sequence[str], default: str) -> bool:
    """Whether `url` is a page of the site at `base` in `lang`, of the site's `langs` with
    `default` at the root (a public hook: tests/test_edition_pdf.py checks it alone)."""
    if not url.startswith(base):
        return False
    return url_language(url[len(base) :], langs, default) == lang


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print the PDF edition of the built site.")
    parser.add_argument("--site", type=Path, default=Path("site"), help="built site folder")
    parser.add_argument(
        "--lang", choices=(*LANGS, "all"), default="all", help="language (default: all)"
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=DEFAULT_CONFIG,
        help="the site's mkdocs.yml: its path prefix and languages (default: the repository's)",
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=None,
        help="where the PDFs go (default: <site>/pdf/, where the home pages link to them)",
    )
    args = parser.parse_args(argv)
    out_dir = args.out_dir or args.site / "pdf"
    try:
        langs, _default = site_languages(args.config)
    except PdfError as exc:
        parser.exit(1, f"pdf: {exc}\n")
    for lang in langs if args.lang == "all" else (args.lang,):
        try:
            path = build_pdf(args.site, lang, out_dir / pdf_name(lang), args.config)
        except PdfError as exc:
            parser.exit(1, f"pdf: {exc}\n")
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")
    if out_dir.resolve() == (args.site / "pdf").resolve():
        show_pdf_links(args.site)
    return 0


def show_pdf_links(site: Path) -> None:
    """The home pages' PDF links, hidden by the build while the PDFs did not exist
    (pdf_links.py), shown now that they do."""
    from attention_explained.pdf_links import MARK, reveal

    for page in sorted(site.glob("**/index.html")):
        text = page.read_text(encoding="utf-8")
        if MARK in text:
            page.write_text(reveal(text), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
