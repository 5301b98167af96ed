"""The build's public interface, pinned (as markdown-exec's tests/test_api.py pins its own).

``attention_explained.sitebuild`` keeps its implementation in ``sitebuild/_internal/``; the
modules beside it are what the rest of the package, MkDocs and a contributor may rely on, and
each says so in ``__all__``. This file writes those lists out by hand, so that changing a
promise is a visible edit here, and checks from the source (AST) that:

- every module beside ``_internal`` is listed here (a new one is either promised or private);
- each ``__all__`` is exactly the list below, and every name in it exists;
- no part of the package outside ``sitebuild/`` (the linters, the CLI, the PDF edition, the
  content, the figures) imports ``sitebuild._internal``, or a name of a public module that
  its ``__all__`` does not promise;
- the MkDocs entry point in pyproject.toml names a promised class.

The tests themselves may reach into ``_internal``: it holds their seams
(tests/test_private_names.py).
"""

from __future__ import annotations

import ast
import importlib
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SITEBUILD = REPO / "attention_explained" / "sitebuild"
PREFIX = "attention_explained.sitebuild"

PUBLIC = {
    # the MkDocs plugin (pyproject.toml's entry point) and its options
    "plugin": ["AttentionExplainedPlugin"],
    "config": [
        "OptionError",
        "PluginConfig",
        "cache_dir",
        "i18n_building",
        "languages",
        "search_plugin",
        "site_languages",
        "term_sheet",
    ],
    # the asset step (python -m attention_explained assets build) and its manifest
    "assets": [
        "MANIFEST",
        "NOTEBOOK_GLOBS",  # the CLI's defaults for the notebooks it executes
        "NOTEBOOK_TIMEOUT",
        "NotebookError",  # a failing notebook: the CLI prints its message
        "asset_step_command",  # the command line a site build runs when assets are stale
        "build_assets",
        "default_cache_dir",
        "expected_notebooks",
        "manifest_fresh",
        "manifest_path",
        "read_manifest",
        "wait_for_watcher",  # a site build waits for the watcher's run of its sources
        "watch",  # `assets watch`, beside `mkdocs serve`
        "watcher_pending",
    ],
    # the Python-Markdown extension that fills {{ae:…}} under any engine
    "markdown_numbers": ["NumbersExtension", "fill_placeholders", "load_numbers", "makeExtension"],
    # what the content linters share with the build
    "terms": ["TERM_SHEET", "Term", "load_term_sheet"],
    "reading": [
        "COMMENT",
        "FRONT_MATTER",
        "TOKEN_MARK",
        "korean_characters",
        "main_text",
        "reading_seconds",
        "reading_time",
        "with_reading_line",
    ],
    "search": [
        "Analyser",
        "default_language_texts",
        "kiwi_analyser",
        "section_numbers",
        "warm_up",
        "write_search_data",
    ],
    # what the import-graph command and the content layer share with the cache keys
    "keys": ["ImportGraph", "PACKAGE_DIR", "code_cells", "digest", "memo_path"],
    # the claims table of `python -m attention_explained claims`
    "claim_report": ["rows"],
}


def test_every_module_beside_internal_is_declared():
    beside = {p.stem for p in SITEBUILD.glob("*.py") if p.stem != "__init__"}
    assert beside == set(PUBLIC), (
        "a module in sitebuild/ is either promised (listed in tests/test_api.py PUBLIC, with "
        f"__all__) or private (in sitebuild/_internal/): {sorted(beside ^ set(PUBLIC))}"
    )
    assert (SITEBUILD / "_internal" / "__init__.py").is_file()


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_each_public_module_exports_what_is_pinned(name):
    module = importlib.import_module(f"{PREFIX}.{name}")
    assert sorted(getattr(module, "__all__", [])) == sorted(PUBLIC[name])
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it does not define: {missing}"


def outside_uses(source: str) -> list[tuple[int, str]]:
    """Each (line, what) in ``source`` that reaches past the promise: an import from
    ``sitebuild._internal``, or a name of a public sitebuild module missing from its
    ``__all__`` (imported by name, or read as an attribute of the imported module)."""
    tree = ast.parse(source)
    found, bound = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module
            if module.startswith(f"{PREFIX}._internal"):
                found.append((node.lineno, module))
            elif module.startswith(f"{PREFIX}.") and module.split(".")[2] in PUBLIC:
                public = PUBLIC[module.split(".")[2]]
                found += [(node.lineno, f"{module}.{a.name}") for a in node.names
                          if a.name not in public]  # fmt: skip
            elif module == PREFIX:
                for alias in node.names:
                    if alias.name == "_internal":
                        found.append((node.lineno, f"{PREFIX}._internal"))
                    elif alias.name in PUBLIC:
                        bound[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(f"{PREFIX}._internal"):
                    found.append((node.lineno, alias.name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = bound.get(node.value.id)
            if module and node.attr not in PUBLIC[module]:
                found.append((node.lineno, f"{PREFIX}.{module}.{node.attr}"))
    return sorted(set(found))


def test_the_rest_of_the_package_uses_only_the_promised_names():
    offenders = []
    for path in sorted((REPO / "attention_explained").rglob("*.py")):
        if SITEBUILD in path.parents:
            continue
        for line, what in outside_uses(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(REPO)}:{line}: {what}")
    assert not offenders, "outside sitebuild/, only what __all__ promises:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from attention_explained.sitebuild._internal.compute import emit", 1),
        ("from attention_explained.sitebuild import _internal", 1),
        ("import attention_explained.sitebuild._internal.cache as c", 1),
        ("from attention_explained.sitebuild.search import lexicon_entries", 1),
        ("from attention_explained.sitebuild import search\nsearch.lexicon_entries()", 1),
        ("from attention_explained.sitebuild.search import kiwi_analyser", 0),
        ("from attention_explained.sitebuild import config as o\no.languages(c)", 0),
    ],
)
def test_the_check_sees_each_way_past_the_promise(source, expected):
    assert len(outside_uses(source)) == expected, outside_uses(source)


def test_the_entry_point_names_a_promised_class():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    target = project["project"]["entry-points"]["mkdocs.plugins"]["attention-explained"]
    module, _, name = target.partition(":")
    assert module == f"{PREFIX}.plugin" and name in PUBLIC["plugin"]
