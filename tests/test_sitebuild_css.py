"""Cutting JupyterLab's stylesheet to what the notebook pages can match
(sitebuild/_internal/css.py)."""

from __future__ import annotations

import pytest

from attention_explained.sitebuild._internal import css

PAGE = '<div class="jp-Cell jp-CodeCell" id="cell-1"><pre class="highlight">x</pre></div>'
SHEET = """
:root { --jp-used: red; --jp-unused: blue; --jp-via: var(--jp-used); }
.jp-Cell { color: var(--jp-via); }
.jp-Missing, .jp-CodeCell pre { margin: 0; }
.jp-Missing { color: green; }
#cell-1 > .highlight:not(.jp-Missing) { padding: 1px; }
#cell-9 { padding: 2px; }
@media (max-width: 600px) { .jp-Missing { top: 0; } .jp-Cell { top: 1px; } }
@media print { .jp-Missing { top: 0; } }
"""


def test_rules_that_can_match_stay_and_the_others_go():
    out = css.prune_css(SHEET, [PAGE])
    assert ".jp-Cell{color:var(--jp-via)}" in out
    assert ".jp-CodeCell pre{margin:0}" in out  # the matching half of a selector list
    assert "#cell-1 > .highlight:not(.jp-Missing){padding:1px}" in out  # :not() keeps it
    assert "jp-Missing{" not in out and "cell-9" not in out
    assert "@media (max-width: 600px){.jp-Cell{top:1px}}" in out
    assert "@media print" not in out  # nothing left inside


def test_custom_properties_stay_only_when_a_kept_rule_uses_them_even_indirectly():
    out = css.prune_css(SHEET, [PAGE])
    assert "--jp-via:var(--jp-used)" in out and "--jp-used:red" in out
    assert "--jp-unused" not in out


def test_the_cut_is_kept_by_its_inputs_and_read_back(tmp_path, monkeypatch):
    first = css.pruned_css(SHEET, [PAGE], tmp_path)
    assert first == css.prune_css(SHEET, [PAGE])
    assert len(list(tmp_path.glob("*.css"))) == 1

    def fail(*args):
        raise AssertionError("pruned again although nothing changed")

    monkeypatch.setattr(css, "prune_css", fail)
    assert css.pruned_css(SHEET, [PAGE], tmp_path) == first
    with pytest.raises(AssertionError, match="pruned again"):  # other pages: other classes
        css.pruned_css(SHEET, [PAGE.replace("jp-CodeCell", "jp-MarkdownCell")], tmp_path)
