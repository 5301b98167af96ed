"""Where build code may live: only attention_explained/sitebuild/ talks to MkDocs; the content
linters (attention_explained/lint/) stand apart from it, and so does the PDF edition
(attention_explained/edition/): neither it nor the build imports the other."""

from __future__ import annotations

from attention_explained.sitebuild.keys import PACKAGE, ImportGraph

GRAPH = ImportGraph()
SITEBUILD = f"{PACKAGE}.sitebuild"
LINT = f"{PACKAGE}.lint"
EDITION = f"{PACKAGE}.edition"
MKDOCS = {"mkdocs", "material", "mkdocs_static_i18n", "mkdocs_jupyter"}


def in_layer(name: str, layer: str) -> bool:
    return name == layer or name.startswith(layer + ".")


def layer_modules(layer: str) -> list[str]:
    return sorted(name for name in GRAPH.modules if in_layer(name, layer))


def test_nothing_outside_sitebuild_imports_mkdocs():
    offenders = sorted(
        name
        for name, info in GRAPH.modules.items()
        if not in_layer(name, SITEBUILD) and MKDOCS & info.external
    )
    assert offenders == []


def test_the_check_sees_mkdocs_where_it_is_imported():
    """The same reading finds the plugin's import, so the check above can fail."""
    assert "mkdocs" in GRAPH.modules[f"{SITEBUILD}.plugin"].external


def test_the_linters_run_without_mkdocs():
    """Nothing ``python -m attention_explained lint`` can import reaches MkDocs: the linters
    use only build modules that do not (the term sheet, Kiwi's analyser, the main text)."""
    linters = [name for name in GRAPH.modules if in_layer(name, LINT)]
    assert f"{LINT}.pages" in linters and f"{LINT}.terms" in linters, linters
    reached = GRAPH.closure(linters)
    assert not [m for m in reached if MKDOCS & GRAPH.modules[m].external]


def test_the_build_does_not_import_the_linters():
    importers = sorted(
        name
        for name, info in GRAPH.modules.items()
        if in_layer(name, SITEBUILD) and any(in_layer(m, LINT) for m in info.imports)
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
    for old in ("pdf", "browser", "pdf_links"):
        assert f"{SITEBUILD}.{old}" not in GRAPH.modules


def test_the_pdf_edition_runs_neither_mkdocs_nor_the_build_layer():
    """Everything printing can run (the closure of every edition module, lazy imports
    included) stays out of sitebuild/ and MkDocs; what it shares with the build lives in
    pdf_links.py and math_font.py."""
    edition = layer_modules(EDITION)
    assert f"{EDITION}.pdf" in edition and f"{EDITION}.browser" in edition
    closure = GRAPH.closure(edition)
    assert [m for m in sorted(closure) if in_layer(m, SITEBUILD)] == []
    assert sorted(MKDOCS & GRAPH.external(closure)) == []


def test_the_chromium_launcher_loads_nothing_of_the_package():
    """The browser tests and the benchmarks import it: it must not drag in any layer."""
    closure = GRAPH.closure([f"{EDITION}.browser"])
    assert closure == {PACKAGE, EDITION, f"{EDITION}.browser"}


def test_the_build_layer_runs_nothing_of_the_edition():
    closure = GRAPH.closure(layer_modules(SITEBUILD))
    assert [m for m in sorted(closure) if in_layer(m, EDITION)] == []
    assert f"{PACKAGE}.pdf_links" in closure  # the build hides the links the edition reveals
