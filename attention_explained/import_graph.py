"""The package's own import graph, and the circles in it (``python -m attention_explained lint
--imports``).

An edge A → B means that running A can import B: a top-level import, or a lazy one inside a
function (both count, since either can run while the other module is half-initialised). A
dotted import runs the packages on the way (``import a.b.c`` runs ``a`` and ``a.b`` first), so
those are edges too, except a module's own ancestors: they always run before it, and counting
them would put every module in a circle with its package's ``__init__``.

The graph is read with :mod:`ast` by :class:`attention_explained.sitebuild.keys.ImportGraph`,
the same reader the cache keys use, so nothing is imported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from attention_explained.sitebuild.keys import PACKAGE_DIR, ImportGraph


def edges(package_dir: Path = PACKAGE_DIR) -> dict[str, frozenset[str]]:
    """Each module of the package and the package modules it imports (its own ancestors,
    which every import of it runs first, left out)."""
    graph = ImportGraph(package_dir)
    result = {}
    for name, info in graph.modules.items():
        parts = name.split(".")
        ancestors = {".".join(parts[:i]) for i in range(1, len(parts))}
        direct = set(info.imports) - ancestors - {name}
        result[name] = frozenset(direct)
    return result


def circles(graph: Mapping[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted,
    in sorted order: every import circle, however long."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(found)


def report(graph: Mapping[str, frozenset[str]]) -> list[str]:
    """The graph as text, one module a line (``module -> a, b``), then one line per circle."""
    short = len("attention_explained.")
    lines = [
        f"{name[short:] or name} -> {', '.join(sorted(t[short:] for t in targets)) or '-'}"
        for name, targets in sorted(graph.items())
    ]
    found = circles(graph)
    lines += [f"circle: {' <-> '.join(c[short:] for c in circle)}" for circle in found]
    lines.append(f"{len(graph)} modules, {len(found)} import circles")
    return lines
