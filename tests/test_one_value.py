"""One value per quantity: wherever the site prints a measured quantity, it prints one value.

The same quantity (say the mean row max weight at d_k = 1024 without scaling) is printed by
the pages (``{{ae:…}}`` numbers), by a figure (the heatmap panels print theirs), and by the
executed notebooks. Printed values may differ only when each of them says what it was
measured on, next to it: "시드 0" / "seed 0", "시드 8개" / "8 seeds". Two printings on the same
basis must agree. The heatmap notebook's rows run in the order of the site's figure.

Pages are read from their Markdown with every ``{{ae:…}}`` filled in from the build's numbers
(what the reader sees; a name tells the quantity apart from the text around it). Notebooks are
read from the built site's executed ``.ipynb`` files, both languages.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest

from attention_explained import settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

METRICS = (
    "max_weight",
    "entropy",
    "logit_std",
    "jacobian_fro",
    "grad_norm",
    "logit_min",
    "logit_max",
)
# Number families that print a (metric, d_k, scaling) of the note's experiment. The heatmap
# family prints min and max as "min"/"max".
PLACEHOLDER = re.compile(
    r"\{\{ae:(?P<family>sweep|heatmap|nbsweep)\.(?P<metric>[a-z_]+)\.d(?P<dim>\d+)\."
    r"(?P<scale>none|sqrt|unit)\}\}"
)
FAMILY_METRIC = {"min": "logit_min", "max": "logit_max"}
# A figure that prints numbers of a family on its panels: its caption must give their basis.
FIGURE_FAMILIES = {"saturation-heatmaps.svg": ("heatmap", ("max_weight", "entropy"))}
IMAGE = re.compile(r"!\[[^\]]*\]\((?:[^)]*/)?(?P<name>[^/)]+\.svg)\)")
ANY_PLACEHOLDER = re.compile(r"\{\{ae:([^}]+)\}\}")

# What a label says the number was measured on.
BASIS = [
    (re.compile(r"시드\s*(\d+)\s*개"), "{} seeds"),
    (re.compile(r"(\d+)\s*seeds", re.I), "{} seeds"),
    (re.compile(r"시드\s*(\d+)(?!\s*개)(?!\d)"), "seed {}"),
    (re.compile(r"\bseed\s*=?\s*(\d+)(?!\d|\s*seeds)", re.I), "seed {}"),
]


def bases(text: str) -> set[str]:
    """Every basis a label in ``text`` names ("seed 0", "8 seeds")."""
    found = set()
    for pattern, form in BASIS:
        found.update(form.format(m.group(1)) for m in pattern.finditer(text))
    return found


@dataclass(frozen=True)
class Printed:
    where: str
    quantity: tuple[str, int, str]  # metric, d_k, scaling
    value: str
    bases: frozenset[str]  # what the label next to it says; empty: no label


def _blocks(text: str) -> list[str]:
    """Markdown blocks (paragraphs, tables, captions), fenced code left out."""
    blocks, current, fenced = [], [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def page_printings(
    path: Path, numbers: dict[str, str], *, name: str | None = None
) -> list[Printed]:
    """Each ``{{ae:…}}`` of a page that prints a quantity of the note's experiment, and each
    figure that prints them on its panels, with the bases its block states. A table's label
    may stand in the sentence that introduces it."""

    def fill(text: str) -> str:
        return ANY_PLACEHOLDER.sub(lambda m: numbers.get(m.group(1), m.group(0)), text)

    where = name or str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    blocks = _blocks(path.read_text(encoding="utf-8"))
    found = []
    for i, block in enumerate(blocks):
        context = block
        if block.startswith("|") and i > 0:
            context = blocks[i - 1] + "\n" + block
        labels = frozenset(bases(fill(context)))
        for m in PLACEHOLDER.finditer(block):
            metric = FAMILY_METRIC.get(m["metric"], m["metric"])
            if metric not in METRICS:
                continue
            key = m.group(0)[5:-2]
            found.append(Printed(where, (metric, int(m["dim"]), m["scale"]), numbers[key], labels))
        for image in IMAGE.finditer(block):
            family, metrics = FIGURE_FAMILIES.get(image["name"], (None, ()))
            if family is None:
                continue
            caption = blocks[i + 1] if i + 1 < len(blocks) else ""
            labels = frozenset(bases(fill(caption)))
            for key, value in numbers.items():
                m = re.fullmatch(rf"{family}\.([a-z_]+)\.d(\d+)\.(none|sqrt|unit)", key)
                if m and m[1] in metrics:
                    found.append(
                        Printed(
                            f"{where} (figure {image['name']})",
                            (m[1], int(m[2]), m[3]),
                            value,
                            labels,
                        )
                    )
    return found


HEATMAP_ROW = re.compile(r"^d(?:_k)?=\s*(?P<dim>\d+)\s+(?P<label>q·k\S*)\s+(?P<rest>.*)$", re.M)
SWEEP_ROW = re.compile(
    r"^\s*(?P<dim>\d+)\s+(?P<div>1|√d(?:_k)?|3√d(?:_k)?)\s+(?P<std>[\d.]+)\s+(?P<h>[\d.]+)\s+"
    r"(?P<mw>[\d.]+)\s+(?P<j>[\d.]+)\s+(?P<g>[\d.]+)\s*$",
    re.M,
)
HEATMAP_FIELDS = {"max p": "max_weight", "H": "entropy", "min": "logit_min", "max": "logit_max"}


def _scale(label: str) -> str:
    if label.endswith("q·k") or label == "1":
        return "none"
    return "unit" if "3√" in label else "sqrt"


def _cell_text(cell: dict) -> str:
    """A code cell's printed text: a kernel may split one print into several stream outputs."""
    parts = []
    for output in cell.get("outputs", ()):
        if output.get("output_type") == "stream":
            parts.append("".join(output.get("text", "")))
        elif "text/plain" in output.get("data", {}):
            parts.append("".join(output["data"]["text/plain"]))
    return "".join(parts)


def notebook_printings(path: Path, *, name: str | None = None) -> list[Printed]:
    """Each quantity an executed notebook prints: the heatmap rows ("d_k= 1024  q·k  max p=…")
    and the sweep table rows. A label counts if the cell's output states it."""
    where = name or str(path)
    found = []
    for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"], 1):
        if cell.get("cell_type") != "code":
            continue
        text = _cell_text(cell)
        labels = frozenset(bases(text))
        for row in HEATMAP_ROW.finditer(text):
            for field, value in re.findall(r"(max p|H|min|max)=\s*(−?-?[\d.]+)", row["rest"]):
                found.append(
                    Printed(
                        f"{where} cell {number}",
                        (HEATMAP_FIELDS[field], int(row["dim"]), _scale(row["label"])),
                        value,
                        labels,
                    )
                )
        for row in SWEEP_ROW.finditer(text):
            for field, metric in (
                ("std", "logit_std"),
                ("h", "entropy"),
                ("mw", "max_weight"),
                ("j", "jacobian_fro"),
                ("g", "grad_norm"),
            ):
                found.append(
                    Printed(
                        f"{where} cell {number}",
                        (metric, int(row["dim"]), _scale(row["div"])),
                        row[field],
                        labels,
                    )
                )
    return found


RANGE = re.compile(r"^\s*(\S+)\s*–\s*(\S+)\s*$")  # a range over seeds, "0.97–0.99"


def _interval(text: str) -> tuple[Decimal, Decimal]:
    """A printed number or range as (low, high); 0.99 is (0.99, 0.99)."""
    text = text.replace("\u2212", "-")
    m = RANGE.match(text)
    low, high = (m[1], m[2]) if m else (text, text)
    return Decimal(low), Decimal(high)


def _same(a: str, b: str) -> bool:
    """The two printings can be the same number: equal at the coarser precision (0.990 and
    0.99), or one inside the other's range over seeds (a mean, or one seed's value, always
    lies inside the range of the single seeds' values)."""
    (a_lo, a_hi), (b_lo, b_hi) = _interval(a), _interval(b)
    places = max(v.as_tuple().exponent for v in (a_lo, a_hi, b_lo, b_hi))
    step = Decimal(1).scaleb(places)
    a_lo, a_hi, b_lo, b_hi = (v.quantize(step) for v in (a_lo, a_hi, b_lo, b_hi))
    if a_lo == a_hi and b_lo == b_hi:
        return a_lo == b_lo
    return (b_lo <= a_lo and a_hi <= b_hi) or (a_lo <= b_lo and b_hi <= a_hi)


def one_value_violations(printed: list[Printed]) -> list[str]:
    """A quantity printed with different values needs a basis label at every printing; two
    printings on the same basis must agree."""
    by_quantity: dict[tuple, list[Printed]] = defaultdict(list)
    for p in printed:
        by_quantity[p.quantity].append(p)
    problems = []
    for (metric, dim, scale), group in sorted(by_quantity.items()):
        name = f"{metric} at d_k = {dim}, scaling {scale}"
        values = {p.value for p in group}
        for p in group:
            others = sorted(v for v in values if not _same(v, p.value))
            if others and not p.bases:
                problems.append(
                    f"{p.where}: prints {name} as {p.value} with no basis label "
                    f"(seed 0 / 8 seeds) next to it, while elsewhere it is {others}"
                )
        by_basis: dict[str, list[Printed]] = defaultdict(list)
        for p in group:
            if len(p.bases) == 1:
                by_basis[next(iter(p.bases))].append(p)
        for basis, same in by_basis.items():
            for p in same[1:]:
                if not _same(p.value, same[0].value):
                    problems.append(
                        f"{p.where}: prints {name} on {basis} as {p.value}, but "
                        f"{same[0].where} prints {same[0].value} on the same basis"
                    )
    return problems


def heatmap_row_order(path: Path) -> list[int]:
    """The d_k of the heatmap notebook's printed rows, in order (each d_k once)."""
    order: list[int] = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for row in HEATMAP_ROW.finditer(_cell_text(cell)):
            if int(row["dim"]) not in order:
                order.append(int(row["dim"]))
    return order


# -- the checks themselves can fail ------------------------------------------------------


def _notebook(path: Path, *outputs: str) -> Path:
    cells = [
        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": text}]}
        for text in outputs
    ]
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    return path


NUMBERS = {
    "sweep.max_weight.d1024.none": "0.99",
    "heatmap.max_weight.d1024.none": "0.97",
    "heatmap.entropy.d1024.none": "0.06",
    "seeds": "8",
}


def test_an_unlabelled_second_value_fails_and_a_label_fixes_it(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "행 최대 가중치의 평균은 {{ae:sweep.max_weight.d1024.none}}입니다.\n\n"
        "한 시드에서는 {{ae:heatmap.max_weight.d1024.none}}입니다.\n",
        encoding="utf-8",
    )
    problems = one_value_violations(page_printings(page, NUMBERS))
    assert len(problems) == 2 and all("no basis label" in p for p in problems), problems
    page.write_text(
        "평균은 {{ae:sweep.max_weight.d1024.none}}입니다(시드 {{ae:seeds}}개).\n\n"
        "시드 0에서는 {{ae:heatmap.max_weight.d1024.none}}입니다.\n",
        encoding="utf-8",
    )
    assert one_value_violations(page_printings(page, NUMBERS)) == []


def test_a_table_takes_its_label_from_the_sentence_before_it(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "Mean over {{ae:seeds}} seeds:\n\n| case | max |\n|---|---|\n"
        "| raw | {{ae:sweep.max_weight.d1024.none}} |\n\nSeed 0 gives "
        "{{ae:heatmap.max_weight.d1024.none}}.\n",
        encoding="utf-8",
    )
    printed = page_printings(page, NUMBERS)
    assert {p.bases for p in printed} == {frozenset({"8 seeds"}), frozenset({"seed 0"})}
    assert one_value_violations(printed) == []


def test_a_figure_needs_its_basis_in_the_caption(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "Mean {{ae:sweep.max_weight.d1024.none}} over {{ae:seeds}} seeds.\n\n"
        "![](figures/saturation-heatmaps.svg)\n\n*The heatmaps.*\n",
        encoding="utf-8",
    )
    problems = one_value_violations(page_printings(page, NUMBERS))
    assert len(problems) == 1 and "figure saturation-heatmaps.svg" in problems[0], problems
    page.write_text(page.read_text().replace("*The heatmaps.*", "*The heatmaps (seed 0).*"))
    assert one_value_violations(page_printings(page, NUMBERS)) == []


def test_notebook_rows_are_read_across_split_outputs_and_need_a_label(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Mean {{ae:sweep.max_weight.d1024.none}} ({{ae:seeds}} seeds).\n")
    nb = _notebook(
        tmp_path / "nb.ipynb",
        "d= 1024  q·k         max p=0.97  H=0.06\n",
    )
    printed = page_printings(page, NUMBERS) + notebook_printings(nb)
    problems = one_value_violations(printed)
    assert len(problems) == 1 and "nb.ipynb cell 1" in problems[0], problems
    _notebook(nb, "d_k= 1024  q·k  max p=0.97  H=0.06  (seed 0)\n")
    assert one_value_violations(page_printings(page, NUMBERS) + notebook_printings(nb)) == []


def test_the_same_basis_must_give_the_same_value(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Mean {{ae:sweep.max_weight.d1024.none}} over {{ae:seeds}} seeds.\n")
    nb = _notebook(
        tmp_path / "nb.ipynb",
        "mean over 8 seeds\n  d_k      ÷    std z      H   max p   ‖J‖_F   ‖∂L/∂z‖\n"
        " 1024      1    96.00   0.05    0.98   0.010     0.010\n",
    )
    problems = one_value_violations(page_printings(page, NUMBERS) + notebook_printings(nb))
    assert len(problems) == 1 and "on the same basis" in problems[0], problems
    _notebook(nb, "mean over 8 seeds\n 1024      1    96.00   0.05    0.990   0.010   0.010\n")
    assert one_value_violations(page_printings(page, NUMBERS) + notebook_printings(nb)) == []


def test_a_range_over_seeds_holds_its_mean_and_each_seed():
    assert _same("0.99", "0.97–0.99") and _same("0.97–0.99", "0.970")
    assert not _same("0.96", "0.97–0.99") and not _same("0.97–0.99", "0.98–1.00")
    assert _same("−0.5 – 0.2", "0.1") and not _same("0.99", "0.98")


def test_row_order_is_read_from_the_outputs(tmp_path):
    nb = _notebook(
        tmp_path / "nb.ipynb", "d= 1024  q·k  min=1.0  max=2.0\nd=   10  q·k  min=1.0  max=2.0\n"
    )
    assert heatmap_row_order(nb) == [1024, 10]


# -- the site -------------------------------------------------------------------------------


def _site_printings(site_root: Path, numbers: dict[str, str]) -> list[Printed]:
    pages = sorted(p for p in DOCS.rglob("*.md") if "assets" not in p.parts)
    printed = [p for page in pages for p in page_printings(page, numbers)]
    notebooks = sorted(site_root.rglob("*.ipynb"))
    assert notebooks, f"no executed notebooks under {site_root}"
    printed += [
        p for nb in notebooks for p in notebook_printings(nb, name=str(nb.relative_to(site_root)))
    ]
    return printed


@pytest.mark.site
@pytest.mark.grid
def test_every_quantity_shows_one_value_or_its_basis(built_site, content_numbers):
    printed = _site_printings(built_site.root, content_numbers)
    assert any(".ipynb" in p.where for p in printed), "no notebook printing was read"
    problems = one_value_violations(printed)
    assert not problems, "\n".join(problems)


@pytest.mark.site
def test_heatmap_notebook_rows_follow_the_figure(built_site):
    figure_rows = list(settings.HEATMAP_DIMS)  # the heatmap figure draws its rows in this order
    for nb in sorted(built_site.root.rglob("heatmaps.ipynb")):
        assert heatmap_row_order(nb) == figure_rows, f"{nb}: rows {heatmap_row_order(nb)}"
