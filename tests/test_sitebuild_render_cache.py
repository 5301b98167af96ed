"""The memories of a page's work (sitebuild/_internal/render_cache.py): search entries,
Markdown → HTML and the plugin's content step, in memory and on disk between builds."""

from __future__ import annotations

from types import SimpleNamespace

from material.plugins.search.plugin import SearchIndex
from mkdocs.structure.toc import TableOfContents

from attention_explained.sitebuild._internal.render_cache import SearchEntryCache
from attention_explained.sitebuild._internal.storage import read_json

CONTENT = '<h1 id="a">A</h1><p>first</p><h2 id="b">B</h2><p>second</p>'


def page(content: str = CONTENT, **meta) -> SimpleNamespace:
    return SimpleNamespace(url="p/", title="A", content=content, meta=meta, toc=TableOfContents([]))


def index() -> SearchIndex:
    return SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})


def entries(memory: SearchEntryCache | None, *pages) -> list[dict]:
    built = index()
    if memory is not None:
        memory.wrap(built)
        memory.wrap(built)  # wrapping twice changes nothing
    for p in pages:
        built.add_entry_from_context(p)
    return built.entries


def test_a_reused_page_gives_the_entries_material_would_give():
    memory = SearchEntryCache()
    plain = entries(None, page(), page("<h1>C</h1><p>third</p>"))
    assert entries(memory, page(), page("<h1>C</h1><p>third</p>")) == plain
    assert memory.hits == 0
    again = entries(memory, page(), page("<h1>C</h1><p>third</p>"))
    assert again == plain and memory.hits == 2
    again[0]["text"] = "edited"  # a copy: the memory is not touched
    assert entries(memory, page())[0]["text"] == plain[0]["text"]


def test_a_changed_page_or_front_matter_is_indexed_again():
    memory = SearchEntryCache()
    entries(memory, page())
    changed = entries(memory, page(CONTENT.replace("second", "changed")))
    assert memory.hits == 0 and "changed" in changed[-1]["text"]
    boosted = entries(memory, page(search={"boost": 2}))
    assert memory.hits == 0 and boosted[0]["boost"] == 2
    assert entries(memory, page(search={"exclude": True})) == []


def test_entries_kept_on_disk_serve_the_next_build(tmp_path):
    """A build reads the entries the previous build saved; what it no longer has is dropped."""
    path = tmp_path / "search" / "entries.json"
    third = page("<h1>C</h1><p>third</p>")
    third.url = "c/"
    plain = entries(None, page(), third)
    first = SearchEntryCache(path)
    first.begin()
    assert entries(first, page(), third) == plain and first.hits == 0
    first.save()

    second = SearchEntryCache(path)  # the next build, a new process
    second.begin()
    assert entries(second, page()) == plain[:2] and second.hits == 1
    second.save()
    assert len(read_json(path)) == 1  # "c/" is gone from the site


def test_other_search_settings_index_the_page_again(tmp_path):
    path = tmp_path / "entries.json"
    memory = SearchEntryCache(path)
    built = index()
    memory.wrap(built, "separator A")
    built.add_entry_from_context(page())
    memory.save()
    again = SearchEntryCache(path)
    built = index()
    again.wrap(built, "separator B")
    built.add_entry_from_context(page())
    assert again.hits == 0


# -- RenderCache: a page's Markdown → HTML, reused by the next build or serve rebuild --------


def rendered_pages(tmp_path, index: str = "# Home\n\n## Part\n\n[there](other.md#part)\n"):
    """A real MkDocs config and two pages (one links to an anchor of the other), unrendered."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(index, "utf-8")
    (docs / "other.md").write_text("# Other\n\n## Part\n", "utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions: [toc]\n", "utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    files = Files(
        [File(name, str(docs), str(tmp_path / "site"), True) for name in ("index.md", "other.md")]
    )

    def new_page() -> Page:
        page = Page(None, files.get_file_from_path("index.md"), config)
        page.read_source(config)
        return page

    return config, files, new_page


def test_render_cache_restores_exactly_what_mkdocs_page_render_sets(tmp_path):
    """RENDER_SETS names one private MkDocs field: if MkDocs' ``Page.render`` sets another
    field, or stops setting one of these, this fails, and the cache must follow."""
    from attention_explained.sitebuild._internal.render_cache import RENDER_SETS

    config, files, new_page = rendered_pages(tmp_path)
    page = new_page()
    before = dict(vars(page))
    page.render(config, files)
    changed = {
        name for name, value in vars(page).items() if before.get(name, object()) is not value
    }
    assert changed == {*RENDER_SETS, "links_to_anchors"}


def toc_items(items) -> list:
    """A table of contents as plain values, each item's ``active`` mark included."""
    return [
        (i.title, i.id, i.level, getattr(i, "active", False), toc_items(i.children)) for i in items
    ]


def assert_same_render(page, plain) -> None:
    assert page.content == plain.content
    assert toc_items(page.toc) == toc_items(plain.toc)
    assert page._title_from_render == plain._title_from_render
    assert page.present_anchor_ids == plain.present_anchor_ids
    assert page.title == plain.title == "Home"
    assert {f.src_uri: a for f, a in page.links_to_anchors.items()} == {
        f.src_uri: a for f, a in plain.links_to_anchors.items()
    }


def test_a_reused_render_gives_the_page_mkdocs_would_give(tmp_path):
    from attention_explained.sitebuild._internal.render_cache import RenderCache

    config, files, new_page = rendered_pages(tmp_path)
    plain = new_page()
    plain.render(config, files)
    assert plain.present_anchor_ids and toc_items(plain.toc)[0][3] is True  # something to keep
    memory = RenderCache()
    for expected_hits in (0, 1):
        page = new_page()
        memory.wrap(page, "context")
        page.render(config, files)
        assert memory.hits == expected_hits
        assert_same_render(page, plain)


def test_the_next_build_reuses_a_render_from_disk(tmp_path):
    """A build reads the HTML the previous one saved (a new process: a new RenderCache); one
    with another context (files, config, code) renders again; pages gone are dropped."""
    from attention_explained.sitebuild._internal.render_cache import RenderCache

    config, files, new_page = rendered_pages(tmp_path)
    plain = new_page()
    plain.render(config, files)
    path = tmp_path / "cache" / "pages" / "render.json"
    first = RenderCache(path)
    first.begin()
    first.wrap(page := new_page(), "context")
    page.render(config, files)
    first.save()

    second = RenderCache(path)
    second.begin()
    second.wrap(page := new_page(), "context")
    page.render(config, files)
    assert second.hits == 1
    assert_same_render(page, plain)
    second.wrap(page := new_page(), "other code")
    page.render(config, files)
    assert second.hits == 1
    second.save()
    assert len(read_json(path)) == 2

    third = RenderCache(path)
    third.begin()
    third.save()  # a build without the page
    assert read_json(path) == {}


def test_a_render_that_warned_is_done_again_so_strict_sees_the_warning(tmp_path, caplog):
    from attention_explained.sitebuild._internal.render_cache import RenderCache

    config, files, new_page = rendered_pages(tmp_path, "# Home\n\n[gone](missing.md)\n")
    memory = RenderCache(tmp_path / "render.json")
    for _ in range(2):
        caplog.clear()
        memory.wrap(page := new_page(), "context")
        page.render(config, files)
        assert "missing.md" in caplog.text  # MkDocs warns on every build, reused or not
    assert memory.hits == 0
    memory.save()
    assert read_json(tmp_path / "render.json") is None  # nothing kept, nothing written


def test_a_render_made_at_debug_level_is_not_kept(tmp_path, monkeypatch):
    """MkDocs keeps no links_to_anchors when it logs at DEBUG (``mkdocs build -v``): such an
    entry, reused by a normal build, would leave the page's anchors unchecked."""
    import logging

    from attention_explained.sitebuild._internal.render_cache import RenderCache

    config, files, new_page = rendered_pages(tmp_path)
    memory = RenderCache()
    monkeypatch.setattr(logging.getLogger("mkdocs"), "level", logging.DEBUG)
    memory.wrap(page := new_page(), "context")
    page.render(config, files)
    assert page.links_to_anchors is None  # what MkDocs does at DEBUG
    monkeypatch.undo()
    memory.wrap(page := new_page(), "context")
    page.render(config, files)
    assert memory.hits == 0 and page.links_to_anchors


def test_the_render_key_covers_markdown_and_every_configured_extensions_package(monkeypatch):
    """What render_code asks versions of: MkDocs, Python-Markdown, Pygments and each
    extension's top-level package (Python-Markdown's own, named short, are Markdown's)."""
    from attention_explained.sitebuild import keys
    from attention_explained.sitebuild._internal import render_cache

    asked = []
    monkeypatch.setattr(keys, "versions", lambda names: asked.append(set(names)) or "")
    graph = keys.ImportGraph()
    render_cache.render_code(graph, ["toc", "pymdownx.arithmatex", "material.extensions.emoji"])
    assert asked == [{"mkdocs", "markdown", "pygments", "toc", "pymdownx", "material"}]


def test_the_content_key_changes_with_the_content_steps_code_and_the_math_option(tmp_path):
    import shutil

    from attention_explained.sitebuild import keys
    from attention_explained.sitebuild._internal.render_cache import content_code

    options = {"math": "mathml", "cache_dir": "/a"}
    base = content_code(keys.ImportGraph(), options)
    assert content_code(keys.ImportGraph(), {**options, "cache_dir": "/b"}) == base
    assert content_code(keys.ImportGraph(), {**options, "math": "mathjax"}) != base
    for module in ("_internal/build.py", "_internal/math.py", "_internal/notebook_html.py"):
        copy = tmp_path / module.replace("/", "-") / "attention_explained"
        shutil.copytree(keys.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
        with open(copy / "sitebuild" / module, "a", encoding="utf-8") as out:
            out.write("\n# edited\n")
        assert content_code(keys.ImportGraph(copy), options) != base, module


# -- PageContentCache: the plugin's content step, reused by the next build or rebuild --------


def test_a_reused_content_step_restores_its_notebook_pages_and_linked_files():
    from attention_explained.sitebuild._internal.render_cache import PageContentCache

    memory, calls = PageContentCache(), []

    def make(pages, files):
        def step():
            calls.append(1)
            pages.append("<notebook html>")
            files["assets/notebooks/a1.css"] = "css"
            files["assets/notebooks/b2.js"] = "unused by this page"
            return '<link href="../assets/notebooks/a1.css">'

        return step

    pages, files = [], {}
    first = memory.content("k", make(pages, files), pages, files)
    pages2, files2 = [], {}
    again = memory.content("k", make(pages2, files2), pages2, files2)
    assert again == first and calls == [1]
    assert pages2 == ["<notebook html>"] and files2 == {"assets/notebooks/a1.css": "css"}
    memory.content("edited", make(pages2, files2), pages2, files2)
    assert calls == [1, 1]


def test_the_next_build_reuses_a_content_step_from_disk_but_not_one_that_warned(tmp_path):
    import logging

    from attention_explained.sitebuild._internal.render_cache import PageContentCache

    path, calls = tmp_path / "content.json", []

    def step(html, warn=False):
        def make():
            calls.append(html)
            if warn:
                logging.getLogger("mkdocs.plugins.attention_explained").warning("odd math")
            return html

        return make

    first = PageContentCache(path)
    first.begin()
    first.content("a", step("<p>a</p>"), [], {})
    first.content("b", step("<p>b</p>", warn=True), [], {})
    first.save()
    second = PageContentCache(path)
    second.begin()
    assert second.content("a", step("<p>a</p>"), [], {}) == "<p>a</p>"
    second.content("b", step("<p>b</p>", warn=True), [], {})
    assert calls == ["<p>a</p>", "<p>b</p>", "<p>b</p>"] and second.hits == 1


def test_a_shared_file_is_stored_once_and_restored_for_every_page_that_links_it(tmp_path):
    """The notebook stylesheet (about 600 KB) is linked by every notebook page: the file on
    disk holds it once, and the next build restores it with each of those pages."""
    from attention_explained.sitebuild._internal.render_cache import PageContentCache
    from attention_explained.sitebuild._internal.storage import read_json

    css = "x" * 10_000
    path = tmp_path / "content.json"

    def make(files, name):
        def step():
            files["assets/notebooks/n1.css"] = css
            return f'<p>{name}</p><link href="../assets/notebooks/n1.css">'

        return step

    first, files = PageContentCache(path), {}
    first.begin()
    for name in ("heatmaps", "sweep"):
        first.content(name, make(files, name), [], files)
    first.save()
    assert path.read_text("utf-8").count(css) == 1
    assert len(read_json(path)["files"]) == 1
    second = PageContentCache(path)
    second.begin()
    for name in ("heatmaps", "sweep"):
        restored: dict = {}
        output = second.content(name, make({}, "made again"), [], restored)
        assert output.startswith(f"<p>{name}</p>")
        assert restored == {"assets/notebooks/n1.css": css}
    assert second.hits == 2


def test_a_content_file_of_another_layout_is_made_again_not_misread(tmp_path):
    from attention_explained.sitebuild._internal.render_cache import PageContentCache
    from attention_explained.sitebuild._internal.storage import write_json

    path = tmp_path / "content.json"
    layouts = [
        {"k": ["<p>old</p>", [], {"a.css": "css"}]},  # the layout before
        {"files": {}, "entries": {"k": ["<p>old</p>", [], ["a.css"]]}},  # a file not stored
        {"files": {}, "entries": {"k": ["<p>old</p>", "pages", []]}},  # pages not a list
    ]
    for layout in layouts:
        write_json(path, layout)
        memory, calls = PageContentCache(path), []
        memory.begin()
        made = memory.content("k", lambda calls=calls: calls.append(1) or "<p>new</p>", [], {})
        assert made == "<p>new</p>" and calls == [1], layout


def test_the_content_memory_starts_over_instead_of_growing_without_end(monkeypatch):
    from attention_explained.sitebuild._internal.render_cache import PageContentCache

    monkeypatch.setattr(PageContentCache, "MAX_ENTRIES", 3)
    memory = PageContentCache()
    for n in range(5):
        memory.content(str(n), lambda n=n: f"page {n}", [], {})
    assert len(memory.entries) <= 4 and "4" in memory.entries


def _serving_plugin(cache_dir):
    from attention_explained.sitebuild._internal.build import Build
    from attention_explained.sitebuild._internal.cache import AssetCache
    from attention_explained.sitebuild._internal.render_cache import PageContentCache
    from attention_explained.sitebuild.plugin import AttentionExplainedPlugin

    plugin = AttentionExplainedPlugin()
    plugin.page_contents = PageContentCache()  # what on_config sets up (in memory only)
    plugin.code_keys = ("render code", "content code")
    cache = AssetCache(cache_dir)

    def rebuild():  # a new build without the math font (on_config)
        plugin.build = Build(cache)

    return plugin, rebuild


NOTEBOOK_HTML = "<style>.jp-Cell{color:red}</style><p>cell</p><script>copy()</script>"


def test_serve_reuses_an_unchanged_pages_content_with_its_shared_files(monkeypatch, tmp_path):
    """A rebuild gets the same HTML, notebook page and shared CSS/JS without redoing them."""
    from types import SimpleNamespace

    from mkdocs.theme import Theme

    from attention_explained.sitebuild._internal import notebook_html

    plugin, rebuild = _serving_plugin(tmp_path)
    page = SimpleNamespace(
        file=SimpleNamespace(src_uri="notebooks/a.md", abs_src_path="/x/a.ipynb"),
        url="notebooks/a/",
        toc=[],
    )
    config = SimpleNamespace(theme=Theme(name="material", language="en"))  # the copy words
    rebuild()
    first = plugin.on_page_content(NOTEBOOK_HTML, page, config, None)
    shared, pages = dict(plugin.build.shared.files), list(plugin.build.notebook_pages)
    assert len(shared) == 2 and pages

    calls = []
    original = notebook_html.link_shared
    monkeypatch.setattr(notebook_html, "link_shared", lambda *a: calls.append(1) or original(*a))
    rebuild()
    assert plugin.on_page_content(NOTEBOOK_HTML, page, config, None) == first and not calls
    assert plugin.build.shared.files == shared and plugin.build.notebook_pages == pages

    rebuild()  # an edited page is done again
    edited = plugin.on_page_content(NOTEBOOK_HTML.replace("cell", "edited"), page, config, None)
    assert calls == [1] and "edited" in edited

    rebuild()  # and so is an unchanged page under another config file or content step code
    plugin.build.content_context = "another mkdocs.yml"
    assert plugin.on_page_content(NOTEBOOK_HTML, page, config, None) == first and calls == [1, 1]


def test_the_content_context_follows_the_config_file(tmp_path):
    """A notebook page's copy buttons take the words of the theme's language, which only the
    config file says."""
    from attention_explained.sitebuild._internal.render_cache import content_context

    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text("theme:\n  language: ko\n", "utf-8")
    before = content_context(config_file, "code")
    config_file.write_text("theme:\n  language: ja\n", "utf-8")
    assert content_context(config_file, "code") != before
    assert content_context(config_file, "other code") != content_context(config_file, "code")


def test_a_plugin_object_reused_for_another_site_reads_and_saves_that_sites_memories(tmp_path):
    """MkDocs keeps one plugin object for every build in a process: a build of another site
    (another cache) must neither reuse the first site's memories nor save into its cache."""
    from attention_explained.sitebuild.plugin import AttentionExplainedPlugin

    plugin = AttentionExplainedPlugin()
    plugin.open_memories(tmp_path / "a")
    first = plugin.memories()
    plugin.code_keys = ("render code", "content code")
    plugin.open_memories(tmp_path / "a")  # the same site again (serve): the same memories
    assert plugin.memories() == first and plugin.code_keys
    plugin.open_memories(tmp_path / "b")
    assert plugin.code_keys is None
    assert [m.path.relative_to(tmp_path).parts[0] for m in plugin.memories()] == ["b"] * 3
