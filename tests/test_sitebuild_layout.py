"""Where build code may live: only attention_explained/sitebuild/ talks to MkDocs; the content
linters (attention_explained/lint/) stand apart from it."""

from __future__ import annotations

from attention_explained.sitebuild.keys import PACKAGE, ImportGraph

GRAPH = ImportGraph()
SITEBUILD = f"{PACKAGE}.sitebuild"
LINT = f"{PACKAGE}.lint"
MKDOCS = {"mkdocs", "material", "mkdocs_static_i18n", "mkdocs_jupyter"}


def in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_nothing_outside_sitebuild_imports_mkdocs():
    offenders = sorted(
        name
        for name, info in GRAPH.modules.items()
        if not in_package(name, SITEBUILD) and MKDOCS & info.external
    )
    assert offenders == []


def test_the_check_sees_mkdocs_where_it_is_imported():
    """The same reading finds the plugin's import, so the check above can fail."""
    assert "mkdocs" in GRAPH.modules[f"{SITEBUILD}.plugin"].external


def test_the_linters_run_without_mkdocs():
    """Nothing ``python -m attention_explained lint`` can import reaches MkDocs: the linters
    use only build modules that do not (the term sheet, Kiwi's analyser, the main text)."""
    linters = [name for name in GRAPH.modules if in_package(name, LINT)]
    assert f"{LINT}.pages" in linters and f"{LINT}.terms" in linters, linters
    reached = GRAPH.closure(linters)
    assert not [m for m in reached if MKDOCS & GRAPH.modules[m].external]


def test_the_build_does_not_import_the_linters():
    importers = sorted(
        name
        for name, info in GRAPH.modules.items()
        if in_package(name, SITEBUILD) and any(in_package(m, LINT) for m in info.imports)
    )
    assert importers == []


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
