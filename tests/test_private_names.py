"""No private name crosses a module: ``_name`` is used only where it is defined.

A leading underscore says "nothing outside me relies on this", so that its owner can change
it freely. A name another module needs (a test's seam included) is public and documented.
The rule, read from the source (AST), for the package, the tests and the benchmarks:

- ``_x`` defined in a module is used by that module only (``self._x`` is the object's own);
- ``_x`` defined in a package (a private submodule such as ``attention_explained._tf``) is
  used by the modules inside that package only;
- dunder names (``__version__``) are public;
- an ``_internal`` package (``attention_explained.sitebuild._internal``, as markdown-exec
  keeps its code) is the implementation behind the public modules beside it: its package's
  modules and the tests and benchmarks (whose seams it holds) may import it, no other part
  of the package may (tests/test_api.py pins what the public modules export).

A use is an import, an attribute of an imported name (``worker._draw``), an attribute named
by a string next to an imported name (``monkeypatch.setattr(worker, "_draw", …)``), or a
dotted path in a string (``"attention_explained.figures._data"``, scripts run with ``-c``
included). The notebooks' code in ``docs/`` may use no private name of the package at all.
"""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "attention_explained"
TOP_LEVEL_DIRS = ("tests", "benchmarks")  # their files import each other as top-level modules
INTERNAL = "_internal"
DOTTED = re.compile(rf"\b{PACKAGE}(?:\.\w+)+")


def module_name(path: Path) -> str:
    """``sitebuild/_internal/worker.py`` → ``attention_explained.sitebuild._internal.worker``;
    a test or benchmark file is the top-level module its stem names."""
    relative = path.relative_to(REPO)
    if relative.parts[0] in TOP_LEVEL_DIRS:
        return path.stem
    parts = list(relative.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> list[Path]:
    """Every Python file of the package, the tests and the benchmarks, but this one: its
    examples below break the rule on purpose."""
    files = sorted((REPO / PACKAGE).rglob("*.py"))
    for folder in TOP_LEVEL_DIRS:
        files += sorted(p for p in (REPO / folder).glob("*.py") if p != Path(__file__))
    return files


def first_party(paths: list[Path]) -> set[str]:
    return {PACKAGE} | {p.stem for p in paths if p.relative_to(REPO).parts[0] in TOP_LEVEL_DIRS}


def is_private(segment: str) -> bool:
    return segment.startswith("_") and not (segment.startswith("__") and segment.endswith("__"))


def crossing(path: str, user: str, ours: set[str]) -> str | None:
    """The private segment of dotted ``path`` that ``user`` may not reach, or None."""
    segments = path.split(".")
    if segments[0] not in ours:
        return None
    for i, segment in enumerate(segments[1:], start=1):
        if segment == INTERNAL and user.split(".")[0] != PACKAGE:
            continue  # a test's or a benchmark's seam (its own _names are still checked)
        if is_private(segment):
            owner = ".".join(segments[:i])
            if user != owner and not user.startswith(owner + "."):
                return f"{owner}.{segment} (private to {owner})"
    return None


def _resolve_relative(user: str, is_package: bool, level: int, module: str | None) -> str:
    base = user.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, *([module] if module else [])])


def _dotted(node: ast.expr, bound: dict[str, str]) -> str | None:
    """``worker._draw`` → ``attention_explained.sitebuild._internal.worker._draw`` when ``worker``
    was
    imported; None for anything not rooted at an imported name."""
    attributes = []
    while isinstance(node, ast.Attribute):
        attributes.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in bound:
        return ".".join([bound[node.id], *reversed(attributes)])
    return None


def violations(source: str, user: str, ours: set[str], *, is_package: bool = False) -> list:
    """Every use in ``source`` (the code of module ``user``) of another module's private name,
    as ``(line, what)``."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # local name → the dotted path it was imported as
    found: list[tuple[int, str]] = []

    def check(line: int, path: str | None) -> None:
        what = path and crossing(path, user, ours)
        if what:
            found.append((line, what))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check(node.lineno, alias.name)
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = _resolve_relative(user, is_package, node.level, node.module)
            check(node.lineno, module)
            for alias in node.names:
                if alias.name != "*":
                    check(node.lineno, f"{module}.{alias.name}")
                    bound[alias.asname or alias.name] = f"{module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Del):
            check(node.lineno, _dotted(node, bound))
        elif isinstance(node, ast.Call):
            for target, name in pairwise(node.args):
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    owner = _dotted(target, bound)
                    if owner and name.value.isidentifier():
                        check(node.lineno, f"{owner}.{name.value}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for match in DOTTED.finditer(node.value):
                check(node.lineno, match.group())
    return sorted(set(found))


def test_no_module_or_test_uses_another_modules_private_name():
    paths = sources()
    ours = first_party(paths)
    offenders = [
        f"{path.relative_to(REPO)}:{line}: {what}"
        for path in paths
        for line, what in violations(
            path.read_text(encoding="utf-8"),
            module_name(path),
            ours,
            is_package=path.name == "__init__.py",
        )
    ]
    assert offenders == [], "make the name public (with a docstring) or use the public API:\n" + (
        "\n".join(offenders)
    )


CODE_CELL = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
SHELL_LINE = re.compile(r"^\s*[!%].*$", re.MULTILINE)  # a notebook's `!pip …`, `%time …`


def code_cells(page: Path) -> list[str]:
    return [SHELL_LINE.sub("", c) for c in CODE_CELL.findall(page.read_text(encoding="utf-8"))]


def test_no_notebook_uses_a_private_name_of_the_package():
    """A reader runs the pages' and notebooks' Python: it stays on the public API."""
    pages = sorted((REPO / "docs").rglob("*.md"))
    offenders = [
        f"{page.relative_to(REPO)}: {what}"
        for page in pages
        for cell in code_cells(page)
        for _, what in violations(cell, "a reader's notebook", {PACKAGE})
    ]
    assert offenders == []
    # the cells read are the notebooks' code, which imports the package
    assert any(f"from {PACKAGE} import" in cell for page in pages for cell in code_cells(page))


OURS = {PACKAGE, "site_build"}
WORKER = f"{PACKAGE}.sitebuild.worker"


@pytest.mark.parametrize(
    ("source", "user"),
    [
        ("from attention_explained.sitebuild._internal.worker import _draw", "test_example"),
        ("from attention_explained.figures import _data", f"{PACKAGE}.content.data"),
        ("import attention_explained.figures._data as data", "test_example"),
        ("from attention_explained.sitebuild import worker\nworker._draw(1)", "test_example"),
        (
            "import attention_explained.sitebuild._internal.worker as w\nw._Server(jobs=1)",
            "test_example",
        ),
        ("from attention_explained.sitebuild import worker\nmp.setattr(worker, '_emit', f)", "t"),
        ("from attention_explained.figures.registry import Figure\nFigure._cache", "t"),
        ("mp.setattr('attention_explained.sitebuild.keys._PARSED', {})", "test_example"),
        ("script = 'from attention_explained._tf import tf'", "test_example"),
        ("from site_build import _helper", "test_example"),
        ("from ..figures import _data", WORKER),  # relative: attention_explained.figures._data
    ],
)
def test_the_check_sees_each_kind_of_use(source, user):
    assert violations(source, user, OURS), source


@pytest.mark.parametrize(
    ("source", "user"),
    [
        ("self._cache = {}\nself._cache.clear()", "test_example"),
        ("def _helper(): ...\n_helper()\n_TABLE = {}\n_TABLE.get(1)", "test_example"),
        ("from attention_explained import __version__", "test_example"),
        ("import attention_explained\nattention_explained.__getattr__('x')", "test_example"),
        ("from attention_explained._tf import tf", WORKER),  # inside the package: its own
        ("from attention_explained.sitebuild import worker\nworker._draw(1)", WORKER),
        ("from mkdocs.utils import _private", "test_example"),  # not ours to police here
        ("monkeypatch.setattr(obj, '_x', 1)", "test_example"),  # not an imported name
    ],
)
def test_the_check_allows_a_modules_own_private_names(source, user):
    assert violations(source, user, OURS) == []
