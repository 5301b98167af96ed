"""An inline radical in two engines: Chromium (Playwright) and Firefox (its own headless
screenshot). What follows √dₖ must start where the radical's overbar ends, neither leaving a
gap (Chromium, before sitebuild/_internal/math.py's narrow_radical) nor running into the bar
(Firefox,
under the old ``msqrt { margin-inline-end: -0.4em }``).

The page is made from the product's own pieces: the subset font and math.css as the build
cuts and writes them, the MathML as the build converts it. After each formula stands a red
box; in the screenshot, the overbar is the row of the formula with the longest run of dark
pixels, and the gap is the red box's first column minus the bar's last one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from attention_explained.sitebuild._internal import math

pytestmark = pytest.mark.browser

FORMULAS = (r"\sqrt{d_k}", r"\div\sqrt{d_k}", r"\sqrt{64}", r"3\sqrt{d_\text{model}}")
FONT_PX = 80  # math is 1.2 × this (math.css)
ROW_PX = 160
TOLERANCE_PX = 2  # anti-aliasing and rounding; the old gap was 40 px, the old overlap 38 px


def firefox() -> str | None:
    path = os.environ.get("FIREFOX_PATH")
    if path and os.access(path, os.X_OK):
        return path
    return shutil.which("firefox-esr") or shutil.which("firefox")


def make_page(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    chars = set("".join(FORMULAS)) | set("√÷𝑑𝑘0123456789model")
    math.subset_math_font(math.font_source(), folder / "math.woff2", chars)
    (folder / "math.css").write_text(math.font_css("math.woff2"), encoding="utf-8")
    rows = "\n".join(
        f'<div class="row" style="top:{20 + i * ROW_PX}px">'
        f'{math.tex_to_mathml(tex)}<span class="box"></span></div>'
        for i, tex in enumerate(FORMULAS)
    )
    page = folder / "radicals.html"
    page.write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="math.css"><style>'
        f"body {{ margin: 0; background: #fff; color: #000; font-size: {FONT_PX}px; }}"
        ".row { position: absolute; left: 20px; white-space: nowrap; }"
        ".box { display: inline-block; width: 30px; height: 1.4em; background: #f00;"
        " vertical-align: -0.3em; }"
        f"</style></head><body>{rows}</body></html>",
        encoding="utf-8",
    )
    return page


def gaps(png: Path) -> list[float]:
    """Per formula: first red column minus the overbar's last dark column, minus 1."""
    from PIL import Image

    image = Image.open(png).convert("RGB")
    width, _ = image.size
    pixels = image.load()
    found = []
    for i in range(len(FORMULAS)):
        top, bottom = 20 + i * ROW_PX, 20 + (i + 1) * ROW_PX - 10
        red = [
            x
            for y in range(top, bottom)
            for x in range(width)
            if pixels[x, y][0] > 200 and pixels[x, y][1] < 80 and pixels[x, y][2] < 80
        ]
        assert red, f"formula {i}: no red box in the screenshot"
        red_left = min(red)

        def dark(x, y):
            r, g, b = pixels[x, y]
            return r < 110 and g < 110 and b < 110

        rows = {y: [x for x in range(red_left + 60) if dark(x, y)] for y in range(top, bottom)}
        bar_row = max(rows, key=lambda y: len(rows[y]))
        found.append(red_left - max(rows[bar_row]) - 1)
    return found


def test_chromium_draws_no_gap_after_a_radical(tmp_path, browser):
    page_file = make_page(tmp_path)
    page = browser.new_page(viewport={"width": 900, "height": 20 + ROW_PX * len(FORMULAS)})
    try:
        page.goto(page_file.as_uri())
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(tmp_path / "chromium.png"))
    finally:
        page.close()
    measured = gaps(tmp_path / "chromium.png")
    assert all(abs(gap) <= TOLERANCE_PX for gap in measured), measured


def test_firefox_draws_no_gap_and_no_overlap_after_a_radical(tmp_path):
    binary = firefox()
    if binary is None:
        message = "no Firefox (FIREFOX_PATH, firefox-esr, firefox): apt-get install firefox-esr"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    page_file = make_page(tmp_path)
    profile = tmp_path / "profile"
    profile.mkdir()
    shot = tmp_path / "firefox.png"
    height = 20 + ROW_PX * len(FORMULAS)
    subprocess.run(
        [
            binary,
            "--headless",
            "--no-remote",
            "--profile",
            str(profile),
            "--screenshot",
            str(shot),
            f"--window-size=900,{height}",
            page_file.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        env={**os.environ, "MOZ_HEADLESS": "1"},
    )
    measured = gaps(shot)
    assert all(abs(gap) <= TOLERANCE_PX for gap in measured), measured
