"""Where each claim is stated: page markers and the alt texts of the figures a page shows."""

from __future__ import annotations

from attention_explained.sitebuild import claim_report


def test_claims_are_found_on_pages_and_through_figures(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "a.md").write_text(
        "Text. <!-- claim: page.one -->\n\n![](figures/fig-x.svg)\n", encoding="utf-8"
    )
    (tmp_path / "notebooks" / "b.en.md").write_text("<!-- claim: page.one -->", "utf-8")
    pages, figures = claim_report.where_stated(tmp_path, {"fig-x": ("figure.two",)})
    assert pages == {"page.one": {"a.md", "notebooks/b.en.md"}, "figure.two": {"a.md"}}
    assert figures == {"figure.two": {"fig-x"}}


def test_a_row_names_its_verdict_margin_places_and_numbers():
    row = claim_report.Row("page.one", False, "−5.0% (x down)", ("a.md",), ("fig-x",), {"x": 1.5})
    line = row.line()
    assert line.startswith("page.one  FAILS  margin −5.0% (x down)")
    assert "[a.md; figures: fig-x]" in line and line.endswith("x=1.5")
