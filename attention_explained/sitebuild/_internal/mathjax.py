"""The parts of MathJax 3 the site serves itself (never a CDN), from the mathjax wheel."""

from __future__ import annotations

from importlib.resources import files as package_files
from pathlib import Path


def mathjax_files() -> list[tuple[str, Path]]:
    """(site path under assets/mathjax/, file): TeX→CHTML, its fonts, lazily loaded extensions."""
    root = Path(str(package_files("mathjax") / "static" / "mathjax" / "es5"))
    wanted = [root / "tex-chtml.js"]
    for folder in ("output/chtml/fonts/woff-v2", "input/tex/extensions"):
        wanted += sorted(p for p in (root / folder).rglob("*") if p.is_file())
    return [(p.relative_to(root).as_posix(), p) for p in wanted]
