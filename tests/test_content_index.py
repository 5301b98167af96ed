"""content/index.py and the home page: the answer comes first; the pencil example is what a reader
gets by hand, chaining the table's own rounded numbers; the worked example is one real softmax row,
raw and ÷√d."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from site_build import source_name

from attention_explained.content.registry import MINUS
from attention_explained.settings import (
    PENCIL_AGREEMENTS,
    PENCIL_EXERCISE_AGREEMENTS,
    PENCIL_FIXED_DIVISOR,
)

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _value(numbers: dict[str, str], name: str) -> float:
    return float(numbers[name].replace(MINUS, "-"))


@pytest.mark.grid
def test_worked_example_is_one_softmax_row_raw_and_scaled(content_numbers):
    """The home page's four logits: ranked, ÷32 after scaling, p(1 − p) from p, a real row."""
    ranks = (1, 2, 3, 15)
    for scale in ("none", "sqrt"):
        logits = [_value(content_numbers, f"example.logit.r{r}.{scale}") for r in ranks]
        weights = [_value(content_numbers, f"example.weight.r{r}.{scale}") for r in ranks]
        assert logits == sorted(logits, reverse=True)
        assert weights == sorted(weights, reverse=True)
        assert sum(weights) <= 1 + 2e-3
        for r, w in zip(ranks, weights, strict=True):
            slope = _value(content_numbers, f"example.slope.r{r}.{scale}")
            if w < 0.999:  # p(1 − p) ≈ p for small p, printed to three digits or two figures
                assert slope == pytest.approx(w * (1 - w), rel=0.05, abs=2e-3)
    for r in ranks:  # the scaled logits are the raw ones divided by √1024 = 32
        raw = _value(content_numbers, f"example.logit.r{r}.none")
        assert _value(content_numbers, f"example.logit.r{r}.sqrt") == pytest.approx(
            raw / 32, abs=0.01
        )
    # The top weight of a row is 1/(1 + Σ e^{z_j − z_1}) ≤ 1/(1 + e^{−gap}).
    gap = _value(content_numbers, "example.gap12.sqrt")
    assert _value(content_numbers, "example.weight.r1.sqrt") <= 1 / (1 + math.exp(-gap)) + 1e-3
    # ‖J‖_F ≥ any entry, e.g. p₁(1 − p₁); ≤ √(n − 1)/2 (n − 1 nonzero eigenvalues, each ≤ ½).
    for scale in ("none", "sqrt"):
        jac = _value(content_numbers, f"example.jacobian_fro.{scale}")
        assert jac >= _value(content_numbers, f"example.slope.r1.{scale}") * 0.95
        assert jac <= math.sqrt(29) / 2


# -- the answer in the first lines -----------------------------------------------------------

ANSWER_PARTS = {
    # the variance law, the √d_k growth, the number, the condition, what happens without it
    "en": [
        r"independent, zero-mean components",  # the law needs mean 0 (a reader missed it)
        r"d_k\\,\\sigma_q\^2\\sigma_k\^2",
        r"grows like \$\\sqrt\{d_k\}\$",
        r"\{\{ae:index\.answer\.std_raw\}\}.*\{\{ae:index\.answer\.std_sqrt\}\}",
        r"assumed not to change with \$d_k\$",
        r"\]\(initialisation\.md\)",  # the page that measures real layers' size
        r"one key",
        r"pass almost no gradient back",
    ],
    "ko": [
        r"독립이고 평균이 0",
        r"d_k\\,\\sigma_q\^2\\sigma_k\^2",
        r"\$\\sqrt\{d_k\}\$에 비례해 커집니다",
        r"\{\{ae:index\.answer\.std_raw\}\}.*\{\{ae:index\.answer\.std_sqrt\}\}",
        r"\$d_k\$와 함께 변하지 않는다고 가정",
        r"\]\(initialisation\.md\)",
        r"키 하나",
        r"기울기를 거의 전달하지 못합니다",
    ],
}


def opening(lang: str) -> str:
    """The prose after the title, up to the first formula, table, figure, fold or heading
    (the front matter, for link cards, comes before it)."""
    page = DOCS / source_name("index", lang)
    text = re.sub(r"\A---\n.*?\n---\n+", "", page.read_text(encoding="utf-8"), flags=re.S)
    paragraphs = []
    for paragraph in text.split("\n\n")[1:]:
        if paragraph.lstrip().startswith(("$$", "|", "![", "???", "!!!", "#", "<")):
            break
        paragraphs.append(paragraph)
    return "\n\n".join(paragraphs)


def reading_size(text: str, lang: str) -> int:
    """Words (en) or characters other than spaces (ko) a reader reads; a number or a formula
    counts as one word or three characters, markers and link targets as nothing."""
    text = re.sub(r"<!--.*?-->", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text, tokens = re.subn(r"\{\{[^}]*\}\}|\$[^$]+\$", " ", text)
    if lang == "en":
        return len(text.split()) + tokens
    return len(re.sub(r"\s", "", text)) + 3 * tokens


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_title_is_answered_in_the_first_lines(lang):
    """Issue 26: the page's first ~120 English words (~400 Korean characters), before any
    table, figure or formula, answer the title: the variance law, √d_k, the number, the
    condition, the consequence. Its first paragraph is the answer itself."""
    text = opening(lang)
    assert text.startswith("**"), "the answer is the page's first paragraph, in bold lead"
    limit = {"en": 130, "ko": 400}[lang]
    for part in ANSWER_PARTS[lang]:
        found = re.search(part, text)
        assert found, f"{lang}: the opening lacks {part!r}"
        assert reading_size(text[: found.end()], lang) <= limit, f"{lang}: {part!r} comes late"
    first = text.split("\n\n")[0]
    for part in ANSWER_PARTS[lang][2:3] + ANSWER_PARTS[lang][-2:]:  # √d_k, one key, gradient
        assert re.search(part, first), f"{lang}: the first paragraph lacks {part!r}"


def test_reading_size_counts_words_and_characters():
    assert reading_size("One $x$ and {{ae:a}} <!-- claim: b --> [link](x.md).", "en") == 5
    assert reading_size("가 나 $x$", "ko") == 5


# -- the pencil example at two head dimensions ------------------------------------------------


def printed(numbers: dict[str, str], name: str) -> float:
    return float(numbers[name].replace(MINUS, "-"))


def at_digits(value: float, text: str) -> str:
    """``value`` rounded to as many decimals as ``text`` prints."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return format(value, f".{decimals}f")


@pytest.fixture(scope="module")
def pencil() -> dict[str, str]:
    from attention_explained.content import index

    out: dict[str, str] = {}
    index.pencil_numbers(out)
    return out


def test_pencil_vectors_are_signs_with_the_stated_agreements():
    from attention_explained.content.index import pencil_vectors

    for d_k, agreements in (PENCIL_AGREEMENTS | PENCIL_EXERCISE_AGREEMENTS).items():
        query, keys = pencil_vectors(d_k, agreements)
        assert query.shape == (d_k,) and set(np.unique(np.abs(keys))) == {1.0}
        assert list((keys == query).sum(axis=1)) == list(agreements)


@pytest.mark.parametrize(
    "prefix, agreements",
    [("index.pencil", PENCIL_AGREEMENTS), ("index.exercise.dk64", PENCIL_EXERCISE_AGREEMENTS)],
)
def test_pencil_table_chains_by_hand(pencil, prefix, agreements):
    """Each printed value follows from the previously printed, rounded ones (and is also the
    exact value at its digits): q·k = 2·agreements − d_k, z = q·k / divisor, e^z from the
    printed z, p₁ from the printed e^z, p₁(1 − p₁) from the printed p₁. Computed here with
    math, not with the package's attention."""
    for d_k, agree in agreements.items():
        raw = [2 * a - d_k for a in agree]
        assert [printed(pencil, f"{prefix}.raw.dk{d_k}.k{j}") for j in (1, 2, 3)] == raw
        divisors = {"none": 1, "sqrt": math.sqrt(d_k), "d": d_k, "fixed": PENCIL_FIXED_DIVISOR}
        for name, divisor in divisors.items():
            row = f"{name}.dk{d_k}"
            z = [printed(pencil, f"{prefix}.z.{row}.k{j}") for j in (1, 2, 3)]
            assert z == [r / divisor for r in raw], row  # exact: these divisions terminate
            exps = []
            for j, zj in enumerate(z, 1):
                text = pencil[f"{prefix}.exp.{row}.k{j}"]
                assert text == at_digits(math.exp(zj), text), (row, j)
                exps.append(float(text))
            p1_text = pencil[f"{prefix}.p1.{row}"]
            assert p1_text == at_digits(exps[0] / sum(exps), p1_text), f"{row}: chained p₁"
            exact = math.exp(z[0]) / sum(math.exp(v) for v in z)
            assert p1_text == at_digits(exact, p1_text), f"{row}: exact p₁"
            p1 = float(p1_text)
            slope = pencil[f"{prefix}.slope1.{row}"]
            assert slope == at_digits(p1 * (1 - p1), slope), f"{row}: chained p₁(1 − p₁)"
            assert slope == at_digits(exact * (1 - exact), slope), f"{row}: exact p₁(1 − p₁)"


def test_only_the_square_root_keeps_the_printed_spread(pencil):
    """On the printed logits: from d_k to 4·d_k the raw spread doubles, ÷√d_k keeps it, ÷d_k
    halves it, a constant doubles it."""
    small, large = PENCIL_AGREEMENTS

    def spread(name: str, d_k: int) -> float:
        z = [printed(pencil, f"index.pencil.z.{name}.dk{d_k}.k{j}") for j in (1, 3)]
        return z[0] - z[1]

    assert large == 4 * small
    ratios = {n: spread(n, large) / spread(n, small) for n in ("none", "sqrt", "d", "fixed")}
    assert ratios == {"none": 2, "sqrt": 1, "d": 0.5, "fixed": 2}
