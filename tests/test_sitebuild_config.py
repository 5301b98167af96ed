"""The plugin's options, checked without a build (sphinx-gallery's way): typed, with errors
that name the option and what it accepts."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.config import config_options as c

from attention_explained.sitebuild import config as options
from attention_explained.sitebuild.plugin import AttentionExplainedPlugin


def load(**values) -> tuple[list, options.PluginConfig]:
    plugin = AttentionExplainedPlugin()
    errors, _ = plugin.load_config(values, config_file_path="/site/mkdocs.yml")
    return [(key, str(error)) for key, error in errors], plugin.config


def test_defaults_are_mathml_two_jobs_and_the_notebooks_folder():
    errors, config = load()
    assert errors == []
    assert config.math == "mathml" and config.jobs == 2 and config.figures is True
    assert config.notebooks == ["notebooks/*.md"] and config.cache_dir == ".cache"


@pytest.mark.parametrize("value", sorted(options.MATH))
def test_math_takes_each_of_its_values(value):
    errors, config = load(math=value)
    assert errors == [] and config.math == value


@pytest.mark.parametrize("value", ["katex", True, ""])
def test_a_bad_math_value_names_the_accepted_ones(value):
    errors, _ = load(math=value)
    assert errors == [("math", f"expected one of mathml | mathjax, got {value!r}")]


@pytest.mark.parametrize("old", ["mathjax", "mathml"])
def test_the_old_math_switches_are_refused_with_their_replacement(old):
    errors, _ = load(**{old: True})
    ((key, message),) = errors
    assert key == old
    assert (
        message == f"'{old}' was replaced by one option, 'math: mathml | mathjax' (default: mathml)"
    )


def test_mkdocs_names_the_plugin_and_the_option_in_the_error(tmp_path, caplog):
    """What a user sees: MkDocs' config loader prefixes the option's own message."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(
        "site_name: x\nplugins:\n  - attention-explained:\n      math: katex\n", "utf-8"
    )
    (tmp_path / "docs").mkdir()
    with pytest.raises(Abort):
        load_config(str(config_file))
    assert (
        "Plugin 'attention-explained' option 'math': expected one of mathml | mathjax, got 'katex'"
    ) in caplog.text


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"jobs": 0}, ("jobs", "expected an integer in [1, 64], got 0")),
        ({"jobs": True}, ("jobs", "expected an integer in [1, 64], got True")),
        ({"notebook_timeout": 5}, ("notebook_timeout", "expected an integer in [10, 3600], got 5")),
        (
            {"notebooks": ["/abs/*.md"]},
            ("notebooks", "expected globs relative to docs/, got '/abs/*.md'"),
        ),
        (
            {"notebooks": ["../x/*.md"]},
            ("notebooks", "expected globs relative to docs/, got '../x/*.md'"),
        ),
    ],
)
def test_bad_values_name_the_option_and_the_accepted_range(values, expected):
    errors, _ = load(**values)
    assert errors == [expected]


def mkdocs_config(tmp_path: Path, docs: str = "docs"):
    return SimpleNamespace(
        config_file_path=str(tmp_path / "mkdocs.yml"), docs_dir=str(tmp_path / docs)
    )


@pytest.mark.parametrize("inside", ["docs", "docs/c", "docs/a/b"])
def test_a_cache_inside_docs_is_refused(tmp_path, inside):
    _, config = load(cache_dir=inside)
    with pytest.raises(options.OptionError, match="must be outside docs/"):
        options.cache_dir(config, mkdocs_config(tmp_path))


def test_the_cache_is_found_from_the_config_files_folder(tmp_path):
    _, config = load(cache_dir="docs-cache")  # a sibling named like docs/ is outside it
    assert options.cache_dir(config, mkdocs_config(tmp_path)) == (tmp_path / "docs-cache").resolve()


def test_the_term_sheet_is_found_beside_the_config_file(tmp_path):
    _, config = load(term_sheet="TERMS.md")
    assert options.term_sheet(config, mkdocs_config(tmp_path)) == tmp_path / "TERMS.md"


def test_every_option_is_documented():
    """Each option is followed by the docstring that says what it does (the two removed
    switches excepted): the config module is where a maintainer looks options up."""
    import ast
    import inspect
    import itertools

    body = ast.parse(inspect.getsource(options.PluginConfig)).body[0].body
    documented = {
        node.targets[0].id
        for node, after in itertools.pairwise(body)
        if isinstance(node, ast.Assign)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
    }
    declared = {
        name: option
        for name, option in vars(options.PluginConfig).items()
        if isinstance(option, c.BaseConfigOption)
    }
    removed = {name for name, option in declared.items() if isinstance(option, c.Deprecated)}
    assert removed == {"mathjax", "mathml"}
    assert set(declared) - removed == documented


REPO = Path(__file__).resolve().parents[1]
I18N_ONLY = """site_name: x
site_url: https://example.invalid/x/
plugins:
  - i18n:
      languages:
        - locale: en
          name: English
        - locale: de
          name: Deutsch
          default: true
        - locale: ko
          name: 한국어
          build: false
"""


@pytest.mark.parametrize(
    "config",
    ["mkdocs.yml", "tests/fixture_site/mkdocs.yml", "tests/fixture_languages/mkdocs.yml", None],
)
def test_the_languages_read_without_mkdocs_are_mkdocs_static_i18ns(config, tmp_path):
    """languages.i18n_languages (plain YAML, for the PDF edition and the linters) gives the
    languages and the default that mkdocs-static-i18n's own config gives the build."""
    from mkdocs.config import load_config

    from attention_explained.languages import i18n_languages

    if config is None:
        path = tmp_path / "mkdocs.yml"
        path.write_text(I18N_ONLY, encoding="utf-8")
        (tmp_path / "docs").mkdir()
    else:
        path = REPO / config
    loaded = load_config(str(path))
    assert i18n_languages(path) == options.site_languages(loaded)
