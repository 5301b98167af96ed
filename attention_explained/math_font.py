"""The site's math font as the build and the PDF edition both know it.

The build (``sitebuild/_internal/math.py``) cuts STIX Two Math to the characters the formulas use
and
serves it as ``assets/math/<FONT_NAME>.woff2`` under the CSS family ``FONT_FAMILY``; the PDF
edition (``edition/pdf.py``) looks each printed character up in that same file. Neither
imports the other's layer, so the names they share live here: plain constants, no imports
beyond the standard library.
"""

from __future__ import annotations

import unicodedata

FONT_FAMILY = "STIX Two Math AE"
FONT_NAME = "stix-two-math"


def _mathematical_italic(char: str) -> str | None:
    """The Mathematical Italic form of `char`, by its Unicode name (a → 𝑎, ϵ → 𝜖, ∂ → 𝜕)."""
    name = unicodedata.name(char, "")
    short = name.removeprefix("LATIN ").removeprefix("GREEK ").replace("LETTER ", "")
    try:
        return unicodedata.lookup("MATHEMATICAL ITALIC " + short.replace("LUNATE ", ""))
    except KeyError:
        return "\u210e" if char == "h" else None  # Planck constant stands in for italic h


# Letters a single-letter <mi> is drawn with: MathML Core's italic mapping (Latin, Greek and
# its symbol forms, dotless i and j, ∂, ∇), so the font keeps each italic form a page uses.
ITALIC = {
    char: italic
    for char in map(chr, (*range(0x41, 0x7B), *range(0x391, 0x3FA), 0x131, 0x237, 0x2202, 0x2207))
    if (italic := _mathematical_italic(char))
}
