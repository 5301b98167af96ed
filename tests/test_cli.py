"""The CLI as a user meets it: help, listing, narrowed rendering, and bad arguments."""

from __future__ import annotations

import subprocess
import sys

import pytest

from attention_explained.cli import main
from attention_explained.figures import FIGURE_IDS


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "attention_explained", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_help_explains_the_commands():
    result = run("--help")
    assert result.returncode == 0
    for word in ("figures", "numbers", "--list", "--lang", "--only", "lint --pages"):
        assert word in result.stdout


def test_list_prints_every_id_with_a_description(capsys):
    assert main(["figures", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(FIGURE_IDS)
    assert all(len(line.split(maxsplit=1)[1]) > 10 for line in lines)


def test_narrowed_render_writes_exactly_the_requested_variant(tmp_path, capsys):
    """In this process (a fresh one would spend ~10 s importing TensorFlow); `--help` above
    runs the real ``python -m attention_explained``."""
    args = ["figures", "--out", str(tmp_path), "--only", "softmax-curve"]
    code = main([*args, "--lang", "en", "--theme", "dark"])
    stderr = capsys.readouterr().err
    assert code == 0, stderr
    names = sorted(p.name for p in tmp_path.iterdir())  # the wide one and the phones' one
    assert names == ["softmax-curve.en.dark.narrow.svg", "softmax-curve.en.dark.svg"]
    assert "[1/1] softmax-curve" in stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["figures", "--out", "x", "--only", "nope"], "valid ids: " + ", ".join(FIGURE_IDS)),
        (["figures", "--out", "x", "--lang", "fr"], "choose from 'ko', 'en', 'all'"),
        (["figures", "--out", "x", "--theme", "sepia"], "choose from 'light', 'dark', 'all'"),
        (["figures"], "--out DIR is required"),
        (["paint"], "invalid choice: 'paint'"),
    ],
)
def test_bad_arguments_exit_2_and_list_valid_values(args, expected, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    assert expected in capsys.readouterr().err


def _ratio_beats_one(v):
    return v["x.a"] / v["x.b"] > 1


def test_claims_names_a_check_that_raises_and_exits_1_without_a_traceback(
    tmp_path, monkeypatch, capsys
):
    from attention_explained.content import pages, registry

    spec = registry.Claim("x.ratio", "a beats b", _ratio_beats_one, {"x.a": 0.0})
    monkeypatch.setattr(pages, "registered", lambda: {spec.name: spec})
    monkeypatch.setattr(pages, "values", lambda: {"x.a": 1.0, "x.b": 0.0})
    (tmp_path / "page.md").write_text("A beats B. <!-- claim: x.ratio -->\n", encoding="utf-8")
    assert main(["claims", "--docs", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"claim 'x.ratio': its check {__name__}._ratio_beats_one raised ZeroDivisionError" in err
    assert "Traceback" not in err
