"""Math typeset at build time: TeX → MathML Core, drawn by the browser itself.

The pages carry TeX as pymdownx.arithmatex (generic mode) leaves it: ``<span
class="arithmatex">\\(…\\)</span>`` inline and ``<div class="arithmatex">\\[…\\]</div>``
for display math; notebook pages carry Jupyter's ``$…$`` and ``$$…$$`` inside
``.jp-MarkdownOutput``. :func:`typeset_html` replaces each with MathML made by
`latex2mathml`, so a page needs no script to show its math (MathJax was 1.16 MB).

latex2mathml writes MathML for every browser; Chromium, Firefox and Safari implement
MathML Core, which ignores a few of its spellings. :func:`tex_to_mathml` rewrites those few
in the tree (named operators, named spaces, ``aligned``, ``\\sim``) and refuses what it
cannot draw: an ``merror``, a backslash left as text, or an unknown command.

Glyphs come from STIX Two Math (SIL OFL), the copy that the `ziamath` wheel ships, cut by
:func:`subset_math_font` to the characters math here can use (with the MATH table, so
radicals and fences still stretch) and served from the site as WOFF2.
"""

from __future__ import annotations

import functools
import hashlib
import html as html_lib
import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from attention_explained.math_font import FONT_FAMILY, FONT_NAME, ITALIC

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
FONT_RECIPE = "radical-base-only"  # how subset_math_font cuts the font: part of its cache key

ARITHMATEX = re.compile(r'<(?P<tag>span|div) class="arithmatex">(?P<body>.*?)</(?P=tag)>', re.S)
NOTEBOOK_MARKDOWN = re.compile(
    r'(<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput[^"]*"[^>]*>)'
    r"(.*?)(</div>)",
    re.S,
)
NOTEBOOK_MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|(?<![\\$])\$(?P<inline>[^$\n]+?)\$", re.S)
SKIP_BLOCKS = re.compile(r"(<(pre|code)\b.*?</\2>)", re.S)
# Inline math and the text written against it: an opening bracket just before it, and the
# run of punctuation or a Korean particle just after it, up to the next space or tag.
INLINE_MATH_AND_NEIGHBOURS = re.compile(
    r"(?P<before>[(\[{‘“]?)"
    r'(?P<math><span class="arithmatex"><math\b[^>]*display="inline"[^>]*>.*?</math></span>)'
    r"(?P<after>[^\s<]*)",
    re.S,
)

# Names TeX sets upright with operator spacing (\log, \operatorname{softmax}, ...).
NAMED_OPERATORS = {
    "arg",
    "cos",
    "det",
    "exp",
    "lim",
    "ln",
    "log",
    "max",
    "min",
    "sin",
    "sup",
    "inf",
    "tanh",
    "sinh",
    "cosh",
    "tan",
}
NAMED_SPACES = {  # MathML 3 names that MathML Core dropped, in em
    "negativeveryverythinmathspace": "-0.0556em",
    "negativeverythinmathspace": "-0.1111em",
    "negativethinmathspace": "-0.1667em",
    "negativemediummathspace": "-0.2222em",
    "negativethickmathspace": "-0.2778em",
    "veryverythinmathspace": "0.0556em",
    "verythinmathspace": "0.1111em",
    "thinmathspace": "0.1667em",
    "mediummathspace": "0.2222em",
    "thickmathspace": "0.2778em",
}
OPENING_FENCES = {"(", "[", "{", "|", "‖", "⟨"}
ORDINARY = {"/", "|", "‖", "…", "⋯", "∣"}
BINARY = {"÷", "×", "⋅", "·", "±", "∓", "+", "−"}
# Elements whose children are positional (base, script, ...): nothing may be inserted.
FIXED_ARITY = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mfrac", "mroot"}
# latex2mathml spells a few commands as text characters that are not what TeX draws.
CHARACTER_FIXES = {("mi", "~"): ("mo", "∼")}  # \sim

ET.register_namespace("", MATHML_NS)


class MathError(ValueError):
    """TeX that cannot be typeset faithfully; the message names the formula."""


# --------------------------------------------------------------------------- TeX → MathML


def _prepare_tex(tex: str) -> str:
    tex = tex.strip()
    # An underscore escaped for TeX inside \texttt{…}/\text{…} is just an underscore there.
    tex = re.sub(
        r"\\(text(?:tt|rm|bf|it)?|mathrm)\{([^{}]*)\}",
        lambda m: f"\\{m.group(1)}{{{m.group(2).replace(chr(92) + '_', '_')}}}",
        tex,
    )
    return tex


ALIGNED = re.compile(r"^\s*\\begin\{aligned\}(?P<body>.*)\\end\{aligned\}\s*$", re.S)


def aligned_to_html(tex: str) -> str | None:
    """``aligned`` as a two-column grid of MathML cells, or None for other formulas.

    Browsers do not align MathML table columns the way TeX does (Chromium centres each
    column), so each row's left part is right-aligned and its right part, which starts at
    the relation, left-aligned, in a CSS grid (class ae-aligned, styled by font_css()).
    """
    match = ALIGNED.match(tex)
    if not match:
        return None
    cells = []
    for row in re.split(r"\\\\", match["body"]):
        if not row.strip():
            continue
        parts = row.split("&")
        if len(parts) > 2:
            raise MathError(f"aligned with more than two columns is not supported: {tex!r}")
        left, right = (parts[0], parts[1]) if len(parts) == 2 else ("", parts[0])
        cells.append(tex_to_mathml(left, True) if left.strip() else "<span></span>")
        cells.append(tex_to_mathml("{}" + right, True))
    return '<div class="ae-aligned">' + "".join(cells) + "</div>"


_converted: dict[tuple[str, bool], str] = {}  # (TeX, display) → MathML, see conversions_key
_saved = 0  # how many of them are on disk already


def forget_conversions() -> None:
    """Back to a fresh process's memory: nothing converted, nothing loaded or saved (tests
    start from it)."""
    global _saved
    _converted.clear()
    _saved = 0


def tex_to_mathml(tex: str, display: bool = False) -> str:
    """One formula as a ``<math>`` element in MathML Core, or MathError.

    Remembered: the font's character scan and both languages convert the same formulas,
    and ``load_conversions`` brings back an earlier build's.
    """
    key = (tex, display)
    found = _converted.get(key)
    if found is None:
        found = _converted[key] = convert_formula(tex, display)
    return found


def conversions_key() -> str:
    """What a remembered conversion depends on: this module and latex2mathml's version."""
    from importlib.metadata import version

    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(version("latex2mathml").encode())
    return digest.hexdigest()[:16]


def load_conversions(path: Path) -> None:
    """Remember the conversions saved at ``path`` (named by ``conversions_key``), if any."""
    global _saved
    from attention_explained.sitebuild._internal.storage import read_json

    rows = read_json(path)  # None if absent or damaged (then it is rebuilt)
    if not isinstance(rows, list):
        return
    for tex, display, mathml in rows:
        _converted.setdefault((tex, bool(display)), mathml)
    _saved = len(_converted)


def save_conversions(path: Path) -> None:
    """Write every remembered conversion to ``path`` (atomically) if there are new ones."""
    global _saved
    if len(_converted) == _saved:
        return
    rows = sorted([tex, display, mathml] for (tex, display), mathml in _converted.items())
    from attention_explained.sitebuild._internal.storage import write_json

    write_json(path, rows, ensure_ascii=False)
    _saved = len(_converted)


def convert_formula(tex: str, display: bool) -> str:
    """``tex_to_mathml`` without its memory: the conversion itself, for a formula not seen
    yet (a test replaces it to show that a remembered formula is not converted again)."""
    from latex2mathml.converter import convert

    source = _prepare_tex(tex)
    if not source:
        raise MathError("empty formula")
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises its own exception types and a few builtins
        raise MathError(f"latex2mathml cannot read {tex!r}: {exc}") from exc
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError as exc:
        raise MathError(f"latex2mathml wrote malformed MathML for {tex!r}: {exc}") from exc
    _to_mathml_core(root)
    problems = _problems(root)
    if problems:
        raise MathError(f"{tex!r}: {'; '.join(problems)}")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=False)
    # No namespace prefix in HTML; `alttext` lets readers and search see the TeX.
    body = body.replace(f' xmlns="{MATHML_NS}"', "", 1)
    alt = html_lib.escape(" ".join(tex.split()), quote=True)
    return body.replace("<math ", f'<math alttext="{alt}" ', 1)


def _local(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _tag(name: str) -> str:
    return f"{{{MATHML_NS}}}{name}"


def _base(element: ET.Element) -> ET.Element:
    """The nucleus of a scripted element (msub's first child), else the element."""
    while _local(element) in ("msub", "msup", "msubsup", "munder", "mover", "munderover"):
        if not len(element):
            break
        element = element[0]
    return element


def _is_operator_name(element: ET.Element) -> bool:
    text = (element.text or "").strip()
    return (
        _local(element) in ("mi", "mo")
        and len(text) > 1
        and text.isalpha()
        and text.isascii()
        and len(element) == 0
    )


def _starts_with_fence(element: ET.Element) -> bool:
    while _local(element) == "mrow" and len(element):
        element = element[0]
    element = _base(element)
    return _local(element) == "mo" and (element.text or "").strip() in OPENING_FENCES


def _to_mathml_core(root: ET.Element) -> None:
    for parent in list(root.iter()):
        children = list(parent)
        for index, child in enumerate(children):
            name = _local(child)
            text = child.text or ""
            fix = CHARACTER_FIXES.get((name, text))
            if fix:
                child.tag, child.text = _tag(fix[0]), fix[1]
            if name == "mspace" and child.get("width") in NAMED_SPACES:
                child.set("width", NAMED_SPACES[child.get("width")])
            if name == "mspace" and child.get("linebreak"):
                del child.attrib["linebreak"]
            if name == "mtd" and child.get("columnalign"):
                # aligned: columns meet at the "=" with no cell padding between them.
                child.set("style", "padding-left: 0; padding-right: 0")
            if name == "mtable":
                child.attrib.pop("columnspacing", None)
                child.attrib.pop("rowspacing", None)
            # TeX draws these as ordinary symbols, with no space around them, and at their
            # own size unless \left/\right asked for more: MathML would stretch a bare ‖ to
            # the tallest thing in its row (a fraction beside \lVert x\rVert^2).
            if name == "mo" and text in ORDINARY and child.get("stretchy") != "true":
                child.set("lspace", "0")
                child.set("rspace", "0")
                child.set("stretchy", "false")
            # A binary operator that opens a formula or group is ordinary in TeX (÷3√d).
            if name == "mo" and index == 0 and text in BINARY:
                child.set("lspace", "0")
                child.set("rspace", "0")
            # A named operator (\log, \operatorname{Var}) is an upright identifier followed,
            # as in TeX, by a thin space unless a fence follows it.
            nucleus = _base(child)
            if _is_operator_name(nucleus):
                nucleus.tag = _tag("mi")
                for attribute in ("stretchy", "fence", "form", "movablelimits"):
                    nucleus.attrib.pop(attribute, None)
                following = children[index + 1] if index + 1 < len(children) else None
                # Inside msub & co. the space would be an extra child (MathML allows
                # exactly two or three): it goes after the scripted element instead.
                if (
                    following is not None
                    and _local(parent) not in FIXED_ARITY
                    and not _starts_with_fence(following)
                ):
                    space = ET.Element(_tag("mspace"), {"width": "0.1667em"})
                    parent.insert(list(parent).index(child) + 1, space)
            # An empty <mi/> (latex2mathml's placeholder before "&=") draws nothing.
            if name == "mi" and not text.strip() and not len(child):
                parent.remove(child)


def _problems(root: ET.Element) -> list[str]:
    problems = []
    for element in root.iter():
        name = _local(element)
        if name == "merror":
            problems.append("latex2mathml wrote an merror")
        text = element.text or ""
        if "\\" in text:
            problems.append(f"a backslash would be drawn: {text!r} in <{name}>")
        if name in ("mi", "mtext") and text.strip() in ("&",):
            problems.append(f"a stray alignment '&' in <{name}>")
    return problems


# --------------------------------------------------------------------------- pages


def typeset_html(html: str, where: str) -> tuple[str, int]:
    """Replace every formula of a rendered page by MathML; returns (html, formulas).

    `where` names the page in errors. A formula that cannot be typeset faithfully stops
    the build (MathError) rather than reaching a reader as raw TeX.
    """
    count = 0

    def arithmatex(match: re.Match) -> str:
        nonlocal count
        body = html_lib.unescape(match["body"]).strip()
        display = match["tag"] == "div"
        if display:
            grid = aligned_to_html(body.removeprefix("\\[").removesuffix("\\]"))
            if grid is not None:
                count += 1
                return f'<div class="arithmatex">{grid}</div>'
        for opening, closing in (("\\[", "\\]"), ("\\(", "\\)"), ("$$", "$$"), ("$", "$")):
            if body.startswith(opening) and body.endswith(closing):
                tex = body[len(opening) : len(body) - len(closing)]
                break
        else:
            raise MathError(f"{where}: unexpected arithmatex content {body[:80]!r}")
        try:
            mathml = tex_to_mathml(tex, display=display)
        except MathError as exc:
            raise MathError(f"{where}: {exc}") from exc
        count += 1
        return f'<{match["tag"]} class="arithmatex">{mathml}</{match["tag"]}>'

    html = ARITHMATEX.sub(arithmatex, html)

    def notebook_cell(match: re.Match) -> str:
        inner = outside_skipped_blocks(
            match.group(2), lambda p: NOTEBOOK_MATH.sub(notebook_formula, p)
        )
        return match.group(1) + inner + match.group(3)

    def notebook_formula(match: re.Match) -> str:
        nonlocal count
        display = match["display"] is not None
        tex = html_lib.unescape(match["display"] if display else match["inline"])
        try:
            mathml = tex_to_mathml(tex, display=display)
        except MathError as exc:
            raise MathError(f"{where}: {exc}") from exc
        count += 1
        tag = "div" if display else "span"
        return f'<{tag} class="arithmatex">{mathml}</{tag}>'

    html = NOTEBOOK_MARKDOWN.sub(notebook_cell, html)
    return keep_neighbours_on_the_line(html), count


def keep_neighbours_on_the_line(html: str) -> str:
    """Wrap each inline formula with the bracket before it and the punctuation or particle
    after it in ``<span class="ae-nobr">`` (no line break inside, math.css).

    A browser may break a line on either side of an inline ``<math>`` (CSS Text: every
    atomic inline is a wrap opportunity), so "분산은 90, 표준편차" could start a line with the
    comma and "… = 9가 되고" with the particle "가"."""

    def glue(match: re.Match) -> str:
        if not match["before"] and not match["after"]:
            return match[0]
        return f'<span class="ae-nobr">{match[0]}</span>'

    return outside_skipped_blocks(html, lambda part: INLINE_MATH_AND_NEIGHBOURS.sub(glue, part))


def outside_skipped_blocks(html: str, rewrite: Callable[[str], str]) -> str:
    """``html`` with ``rewrite`` applied to every stretch outside the blocks SKIP_BLOCKS
    matches (code, math already typeset), which are kept as they are."""
    out = []
    skip_next = False
    for part in SKIP_BLOCKS.split(html):
        if skip_next:  # the tag name captured by SKIP_BLOCKS' inner group
            skip_next = False
            continue
        if SKIP_BLOCKS.fullmatch(part or ""):
            out.append(part)
            skip_next = True
            continue
        out.append(rewrite(part))
    return "".join(out)


def math_characters(html: str) -> set[str]:
    """Every character drawn inside <math> in `html` (for checking the font covers them)."""
    chars: set[str] = set()
    for block in re.findall(r"<math\b.*?</math>", html, re.S):
        text = re.sub(r"<[^>]+>", "", block)
        chars.update(html_lib.unescape(text))
    return {c for c in chars if not c.isspace()}


# --------------------------------------------------------------------------- the font

HANGUL_OR_CJK = re.compile(r"[\u1100-\u11ff\u3000-\u9fff\uac00-\ud7a3\uff00-\uffef]")


def font_source() -> Path:
    """STIX Two Math as the ziamath wheel ships it (pinned in constraints.txt)."""
    from importlib.util import find_spec

    spec = find_spec("ziamath")  # located, not imported: only its font file is used
    folders = list(spec.submodule_search_locations or []) if spec else []
    path = Path(folders[0] if folders else ".") / "fonts" / "STIXTwoMath-Regular.ttf"
    if not path.is_file():
        raise FileNotFoundError(f"STIX Two Math not found at {path} (is ziamath installed?)")
    return path


def subset_math_font(source: Path, target: Path, chars: set[str]) -> set[int]:
    """Write `source` cut to `chars` as WOFF2 at `target`; returns the code points kept.

    fontTools keeps the MATH table and the glyph variants and assemblies it refers to,
    so fences and radicals still stretch. Deterministic: same input, same bytes.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    unicodes = sorted(ord(c) for c in chars)
    options = subset.Options()
    options.flavor = "woff2"
    # Script-size alternates and dotless forms are what browsers use in MathML.
    options.layout_features = [*subset.Options().layout_features, "ssty", "dtls", "flac"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True
    font = TTFont(str(source), recalcTimestamp=False)
    narrow_radical(font)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    kept = set(font.getBestCmap())
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    font.flavor = "woff2"
    font.save(str(tmp), reorderTables=False)
    tmp.replace(target)
    return kept


RADICAL = 0x221A


def narrow_radical(font) -> list[str]:
    """Keep only the radical's vertical variants no wider than its base glyph, and no glyph
    assembly; return the glyphs dropped.

    MathML Core gives a radical the *preferred inline size of a glyph stretched along the
    block axis*: the widest of its base glyph, its vertical size variants and its assembly
    parts (https://w3c.github.io/mathml-core/#dfn-preferred-inline-size-of-a-glyph-stretched-along-the-block-axis).
    Chromium sizes an inline ``msqrt`` that way, then draws the base glyph and the radicand
    right after it; Firefox sizes it by the glyph it draws. STIX Two Math's √ is 794 units
    wide, its largest variant and assembly parts 1212, so Chromium left 0.418 em after every
    √dₖ and Firefox none, and no one CSS offset suits both. Every radicand on this site is one
    line high, which the base glyph covers, so the subset keeps the base glyph alone and both
    engines make the radical exactly as wide as the glyph they draw
    (tests/test_sitebuild_math.py, tests/test_browser_math_engines.py)."""
    if "MATH" not in font or RADICAL not in font.getBestCmap():
        return []
    base = font.getBestCmap()[RADICAL]
    variants = font["MATH"].table.MathVariants
    coverage = variants.VertGlyphCoverage.glyphs if variants.VertGlyphCoverage else []
    if base not in coverage:
        return []
    construction = variants.VertGlyphConstruction[coverage.index(base)]
    width = font["hmtx"][base][0]
    kept, dropped = [], []
    for record in construction.MathGlyphVariantRecord:
        wide = font["hmtx"][record.VariantGlyph][0] > width
        (dropped if wide else kept).append(record)
    construction.MathGlyphVariantRecord = kept
    construction.VariantCount = len(kept)
    names = [record.VariantGlyph for record in dropped]
    if construction.GlyphAssembly is not None:
        names += [part.glyph for part in construction.GlyphAssembly.PartRecords]
        construction.GlyphAssembly = None
    return names


def uncovered(chars: set[str], covered: set[int]) -> list[str]:
    """Characters drawn in math that the font lacks, except Hangul/CJK in \\text{}."""
    return sorted(c for c in chars if ord(c) not in covered and not HANGUL_OR_CJK.match(c))


def font_cache_key(source: Path, chars: set[str]) -> str:
    digest = hashlib.sha256(source.read_bytes())
    digest.update(FONT_RECIPE.encode())
    digest.update("".join(sorted(chars)).encode())
    return digest.hexdigest()[:16]


def font_css(font_url: str) -> str:
    """The stylesheet that names the served font for every <math> on the site."""
    return f"""/* Math is MathML made at build time (sitebuild/_internal/math.py). */
@font-face {{
  font-family: "{FONT_FAMILY}";
  src: url("{font_url}") format("woff2");
  font-display: block;
}}
math {{
  font-family: "{FONT_FAMILY}", math;
  font-size: 1.2em;
}}
math[display="block"] {{
  margin: 0.5em 0;
}}
.ae-aligned {{
  display: grid;
  grid-template-columns: auto auto;
  justify-content: center;
  row-gap: 0.3em;
  align-items: baseline;
  margin: 0.5em 0;
}}
.ae-aligned > math:nth-child(odd) {{ justify-self: end; }}
.ae-aligned > math:nth-child(even) {{ justify-self: start; }}
.ae-aligned > math {{ margin: 0; }}
.md-typeset div.arithmatex {{
  overflow-x: auto;
  overflow-y: hidden;
}}
/* An inline formula stays on the line of the comma, bracket or particle written against
   it (typeset_html); a11y.js lifts this for a formula wider than its column. */
.ae-nobr {{
  white-space: nowrap;
}}
.ae-nobr.ae-wide {{
  white-space: normal;
}}
@media print {{
  math {{ font-size: 1em; }}
}}
"""


# --------------------------------------------------------------------------- font coverage

SOURCE_MATH = re.compile(
    r"\$\$(?P<d1>.+?)\$\$|\\\[(?P<d2>.+?)\\\]|(?<![\\$\w])\$(?P<i1>[^$\n]+?)\$(?!\d)"
    r"|\\\((?P<i2>.+?)\\\)",
    re.S,
)
FENCED_CODE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]+`")
# What every cut keeps: ASCII, the italic letters (ITALIC, shared with the PDF edition in
# attention_explained/math_font.py), and the operators and fences formulas here use.
BASE_CHARACTERS = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(ITALIC[chr(c)] for c in range(0x41, 0x5B))
    + "".join(ITALIC[chr(c)] for c in range(0x61, 0x7B))
    + "\u00a0\u2061\u2062\u2063\u2212\u00d7\u00f7\u00b7\u22c5\u2026\u22ef\u221a\u2032\u2033"
    + "()[]{}|\u2016\u27e8\u27e9\u2211\u220f\u222b"
)


def formulas_in_markdown(text: str) -> list[tuple[str, bool]]:
    """(TeX, display) for each formula in a Markdown or notebook source, code skipped."""
    text = INLINE_CODE.sub("", FENCED_CODE.sub("", text))
    found = []
    for match in SOURCE_MATH.finditer(text):
        display = match["d1"] or match["d2"]
        found.append(((display or match["i1"] or match["i2"]).strip(), display is not None))
    return found


def characters_for(sources: list[Path]) -> set[str]:
    """Every character the math in `sources` draws, plus what any formula may need."""
    chars = set(BASE_CHARACTERS)
    for source in sources:
        chars |= _characters_in(source.read_text(encoding="utf-8"))
    return {c for c in chars if not HANGUL_OR_CJK.match(c)}


@functools.lru_cache(maxsize=512)  # `mkdocs serve` asks again at every rebuild
def _characters_in(markdown: str) -> frozenset[str]:
    chars = set()
    for tex, display in formulas_in_markdown(markdown):
        try:
            mathml = (display and aligned_to_html(tex)) or tex_to_mathml(tex, display)
        except MathError:
            continue  # reported with its page when the page is built
        for char in math_characters(mathml):
            chars.add(char)
            if char in ITALIC:
                chars.add(ITALIC[char])
    return frozenset(chars)


# --------------------------------------------------------------------------- the site's copy


class MathFont(NamedTuple):
    """The math font cut for this site, its stylesheet, and the code points it draws."""

    font: Path
    css: Path
    covered: set[int]


def conversions_path(cache_root: Path) -> Path:
    """Where TeX → MathML conversions are kept between builds (one file per converter)."""
    return cache_root / "math-font" / f"mathml-{conversions_key()}.json"


def prepare_font(cache_root: Path, docs_dir: Path) -> MathFont:
    """The math font cut to what the site's formulas draw, and its stylesheet (cached)."""
    source = font_source()
    load_conversions(conversions_path(cache_root))
    chars = characters_for(sorted(docs_dir.rglob("*.md")))
    folder = cache_root / "math-font" / font_cache_key(source, chars)
    font, css = folder / f"{FONT_NAME}.woff2", folder / "math.css"
    style = font_css(f"{FONT_NAME}.woff2")
    from attention_explained.sitebuild._internal.storage import discard, entry_ok, new_entry

    if not entry_ok(folder) or css.read_text(encoding="utf-8") != style:  # a checked entry
        discard(folder)
        with new_entry(folder) as staged:
            subset_math_font(source, staged / font.name, chars)
            (staged / css.name).write_text(style, encoding="utf-8")
    return MathFont(font, css, {ord(c) for c in chars})


def font_preload(page_url: str, font_name: str) -> str:
    """A link that fetches the font while the page is parsed, not after its first layout.

    It names the copy at the site root (``assets/math/``), which math.css (extra_css)
    names in every language."""
    here = page_url if page_url.endswith("/") else posixpath.dirname(page_url)
    href = posixpath.relpath(f"assets/math/{font_name}", here or ".")
    return f'<link rel="preload" href="{href}" as="font" type="font/woff2" crossorigin>'


def typeset_page(html: str, where: str, url: str, font: MathFont) -> str:
    """TeX → MathML in the HTML of the page at ``url``, preceded by the font's preload
    link when it has math; a formula the font cannot draw raises MathError."""
    html, count = typeset_html(html, where)
    missing = uncovered(math_characters(html), font.covered)
    if missing:
        raise MathError(f"{where}: the math font lacks {missing}")
    if count:
        html = f"{font_preload(url, font.font.name)}\n{html}"
    return html
