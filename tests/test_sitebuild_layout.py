"""Where build code may live: only attention_explained/sitebuild/ talks to MkDocs."""

from __future__ import annotations

from attention_explained.sitebuild.keys import PACKAGE, ImportGraph

GRAPH = ImportGraph()
SITEBUILD = f"{PACKAGE}.sitebuild"


def test_nothing_outside_sitebuild_imports_mkdocs():
    offenders = sorted(
        name
        for name, info in GRAPH.modules.items()
        if not (name == SITEBUILD or name.startswith(SITEBUILD + "."))
        and {"mkdocs", "material", "mkdocs_static_i18n", "mkdocs_jupyter"} & info.external
    )
    assert offenders == []


def test_the_check_sees_mkdocs_where_it_is_imported():
    """The same reading finds the plugin's import, so the check above can fail."""
    assert "mkdocs" in GRAPH.modules[f"{SITEBUILD}.plugin"].external


def test_no_asset_key_depends_on_the_build_layer():
    """Editing the build layer re-renders nothing: no figure, number or notebook reaches it."""
    for figure_id in GRAPH.figure_ids():
        closure = GRAPH.closure([GRAPH.figure_entry(figure_id)])
        assert not any(m.startswith(SITEBUILD) for m in closure), figure_id
    assert not any(
        m.startswith(SITEBUILD) for m in GRAPH.closure(["attention_explained.content.pages"])
    )


def test_the_old_build_modules_are_gone():
    for old in ("mkdocs_plugin", "assets", "worker", "notebooks"):
        assert f"{PACKAGE}.{old}" not in GRAPH.modules
