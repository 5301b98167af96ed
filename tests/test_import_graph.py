"""``python -m attention_explained lint --imports``: the package's import graph and its circles.

The expected edges and circles are written out by hand for small packages made here, never
computed with the code under test; the package itself must have no circle at all.
"""

from __future__ import annotations

from pathlib import Path

from attention_explained import import_graph


def make_package(root: Path, files: dict[str, str]) -> Path:
    """A package named ``attention_explained`` (the name the reader follows) under ``root``."""
    package = root / "attention_explained"
    for rel, text in {"__init__.py": "", **files}.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


def test_circles_finds_each_strongly_connected_component():
    graph = {
        "a": frozenset({"b"}),
        "b": frozenset({"c"}),
        "c": frozenset({"a", "d"}),  # a -> b -> c -> a
        "d": frozenset({"e"}),
        "e": frozenset({"d"}),  # d <-> e, reached from the first circle
        "f": frozenset({"a"}),  # into a circle, not in one
        "g": frozenset(),
    }
    assert import_graph.circles(graph) == [["a", "b", "c"], ["d", "e"]]


def test_a_graph_without_circles_has_none():
    graph = {"a": frozenset({"b", "c"}), "b": frozenset({"c"}), "c": frozenset()}
    assert import_graph.circles(graph) == []


def test_edges_follow_top_level_lazy_and_dotted_imports(tmp_path):
    package = make_package(
        tmp_path,
        {
            "a.py": "from attention_explained import b\n",
            "b.py": "def f():\n    from attention_explained.c import x\n    return x\n",
            "c.py": "import attention_explained.a\nx = 1\n",
            "sub/__init__.py": "",
            "sub/e.py": "from attention_explained.sub import f\nimport numpy\n",
            "sub/f.py": "from . import e\n",
            "g.py": "from attention_explained.sub.e import thing\n",
        },
    )
    edges = import_graph.edges(package)
    p = "attention_explained."
    assert edges == {
        "attention_explained": frozenset(),
        p + "a": frozenset({p + "b"}),
        p + "b": frozenset({p + "c"}),  # lazy, inside a function
        p + "c": frozenset({p + "a"}),
        p + "sub": frozenset(),
        p + "sub.e": frozenset({p + "sub.f"}),  # its own package is not an edge
        p + "sub.f": frozenset({p + "sub.e"}),  # relative import
        p + "g": frozenset({p + "sub", p + "sub.e"}),  # runs sub/__init__ on the way
    }
    assert import_graph.circles(edges) == [
        [p + "a", p + "b", p + "c"],
        [p + "sub.e", p + "sub.f"],
    ]


def test_report_names_every_module_and_each_circle(tmp_path):
    package = make_package(
        tmp_path,
        {"a.py": "from attention_explained import b\n", "b.py": "import attention_explained.a\n"},
    )
    lines = import_graph.report(import_graph.edges(package))
    assert lines == [
        "attention_explained -> -",
        "a -> b",
        "b -> a",
        "circle: a <-> b",
        "3 modules, 1 import circles",
    ]


def test_the_package_has_no_import_circle():
    """No allow-list: the last circle (content.registry <-> every page module) was cut by
    moving the page list and the whole-site queries to content/pages.py."""
    graph = import_graph.edges()
    assert import_graph.circles(graph) == []
    registry = "attention_explained.content.registry"
    assert not {m for m in graph[registry] if m.startswith("attention_explained.content.")} - {
        "attention_explained.content.printing"
    }
