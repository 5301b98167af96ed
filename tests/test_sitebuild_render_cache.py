"""``mkdocs serve``'s memories of a page's work (sitebuild/render_cache.py): search entries."""

from __future__ import annotations

import json
from types import SimpleNamespace

from material.plugins.search.plugin import SearchIndex
from mkdocs.structure.toc import TableOfContents

from attention_explained.sitebuild.render_cache import SearchEntryCache

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
    assert len(json.loads(path.read_text("utf-8"))) == 1  # "c/" is gone from the site


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
