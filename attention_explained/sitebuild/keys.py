"""Cache keys from the code's own imports: no hand-kept list of files decides what is stale.

Each asset starts from an entry module (a figure's module; the numbers' modules; the
package imports of a notebook's code cells). :class:`ImportGraph` reads every module of the
package with :mod:`ast` (nothing is imported, so TensorFlow is never loaded to decide what is
fresh) and follows ``import``/``from … import`` statements, including the lazy ones inside
functions, the lazy attribute map (``_LAZY``) of a package ``__init__``, and
``import_module("…")``/``find_spec("…")`` calls with a literal name. Importing a submodule
runs its parent packages' ``__init__``, so those are in the closure too. ``if TYPE_CHECKING:``
blocks never run, so they are skipped.

A key hashes the source of every module in the closure, the installed versions of the
third-party distributions those modules import, and (for figures) the shared strings drawn:
``figures/strings.py`` enters a figure's key as its code with the string values blanked plus
the shared strings that the figure's module and the helpers it imports name in their
``SHARED_STRINGS`` (their own strings are in their source), so rewording a string redraws
exactly the figures that draw it. The numbers' key leaves out the content modules' ``@claim``
functions (and comments); the verdicts have their own key over the numbers' key and the full
content modules, so editing a claim re-judges the claims and reruns no experiment.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from attention_explained.sitebuild._internal.storage import KEY_LENGTH, read_json, write_json

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "PACKAGE_DIR",
    "ImportGraph",
    "code_cells",
    "digest",
    "memo_path",
]

PACKAGE = "attention_explained"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
FIGURES_PACKAGE = f"{PACKAGE}.figures."
STRINGS_MODULE = f"{PACKAGE}.figures.strings"
FIGURE_REGISTRY = f"{PACKAGE}.figures.registry"
# What the asset step's data job calls: the prose numbers and the explorer's reference values
# (see sitebuild._internal.compute.make_data). ``content.pages`` lists every page module (its
# ``load_pages``), so its closure holds them all and the registry they write into. The numbers'
# key leaves out the claims (``@claim`` functions of the content modules); the claims' verdicts
# have their own key over the numbers' key and the content modules in full (CLAIM_ENTRIES), so
# editing a claim reruns no experiment.
DATA_ENTRIES = (f"{PACKAGE}.content.pages", f"{PACKAGE}.explorer")
CLAIM_ENTRIES = (f"{PACKAGE}.content.pages",)
CONTENT_PACKAGE = f"{PACKAGE}.content."


def digest(*parts: bytes | str) -> str:
    """A short hex digest of ``parts`` (each separated, so ("ab", "c") ≠ ("a", "bc"))."""
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode() if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()[:KEY_LENGTH]


@dataclass(frozen=True)
class ModuleInfo:
    name: str
    path: Path
    source: bytes
    imports: frozenset[str]  # package modules this one runs when imported or called
    external: frozenset[str]  # top-level names of other distributions it imports


class _Imports(ast.NodeVisitor):
    """Collects every import a module can execute (top level and inside functions)."""

    def __init__(self):
        self.names: list[tuple[str, tuple[str, ...], int]] = []  # (module, from-names, level)
        self.literal: list[str] = []  # import_module("x") / find_spec("x")

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name == "TYPE_CHECKING":  # never runs
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.names += [(alias.name, (), 0) for alias in node.names]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        names = tuple(alias.name for alias in node.names)
        self.names.append((node.module or "", names, node.level))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in ("import_module", "find_spec") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                self.literal.append(arg.value)
        self.generic_visit(node)


def _lazy_map(tree: ast.Module) -> dict[str, str]:
    """A package ``__init__``'s ``_LAZY = {"name": "module", ...}`` (PEP 562 attributes)."""
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets)
            and isinstance(node.value, ast.Dict)
        ):
            try:
                return dict(ast.literal_eval(node.value))
            except ValueError:
                return {}
    return {}


def _without_claims(tree: ast.Module) -> str:
    """The module's code without its ``@claim(...)``-decorated functions (and without
    comments and layout, which :func:`ast.dump` does not keep)."""
    tree.body = [node for node in tree.body if not _is_claim(node)]
    return ast.dump(tree)


def _is_claim(node: ast.stmt) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False
    for decorator in node.decorator_list:
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        if getattr(func, "id", None) == "claim" or getattr(func, "attr", None) == "claim":
            return True
    return False


def _blank_strings(tree: ast.AST) -> str:
    """The module's code with every string value replaced by "" (dict keys kept)."""

    class Blank(ast.NodeTransformer):
        def visit_Dict(self, node: ast.Dict) -> ast.Dict:
            node.values = [self.visit(v) for v in node.values]
            return node

        def visit_Constant(self, node: ast.Constant) -> ast.Constant:
            return ast.Constant("") if isinstance(node.value, str) else node

    return ast.dump(Blank().visit(tree))


_PARSED: dict[bytes, list] = {}  # module source → [imports, literal imports, lazy map]
_BLANKED: dict[bytes, str] = {}  # strings module source → its code without string values
_NO_CLAIMS: dict[bytes, str] = {}  # content module source → its code without its claims
_LITERALS: dict[tuple[bytes, str], object] = {}  # (module source, name) → its literal value
_MISSING = object()


def forget_parsed() -> None:
    """Back to a fresh process: no module source parsed yet, so only a memo file spares a
    parse (tests start from it)."""
    _PARSED.clear()


def memo_path(cache_root: Path) -> Path:
    """Where a cache keeps the import memo: named by this module's code and Python's version,
    which decide what the parse finds."""
    code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    python = f"{sys.version_info[0]}{sys.version_info[1]}"
    return Path(cache_root) / "keys" / f"imports-{code}-py{python}.json"


def _load_memo(path: Path | None) -> dict[str, list]:
    if path is None:
        return {}
    rows = read_json(path)  # None if absent or damaged (then it is rebuilt)
    return rows if isinstance(rows, dict) else {}


def _save_memo(path: Path, rows: dict[str, list]) -> None:
    write_json(path, rows, sort_keys=True)


class ImportGraph:
    """The package's modules and what each imports, read from the files in ``package_dir``.

    ``memo``: a JSON file that keeps each module's imports by the digest of its source, so a
    build whose code did not change reads them instead of parsing 60 modules (see
    :func:`memo_path`). Without it, everything is parsed.
    """

    def __init__(self, package_dir: Path = PACKAGE_DIR, *, memo: Path | None = None):
        self.package_dir = Path(package_dir)
        self._trees: dict[str, ast.Module] = {}
        self._closures: dict[tuple[str, ...], frozenset[str]] = {}
        self._parsed: dict[str, tuple] = {}
        remembered = _load_memo(memo)
        kept: dict[str, list] = {}
        for path in sorted(self.package_dir.rglob("*.py")):
            rel = path.relative_to(self.package_dir).with_suffix("")
            parts = [PACKAGE, *rel.parts]
            if parts[-1] == "__init__":
                parts.pop()
            self._parsed[".".join(parts)] = self._parse(path, remembered, kept)
        self.modules: dict[str, ModuleInfo] = {name: self._read(name) for name in self._parsed}
        if memo is not None and kept != remembered:
            _save_memo(memo, kept)

    def path(self, name: str) -> Path:
        rel = Path(*name.split(".")[1:])
        package = self.package_dir / rel / "__init__.py"
        return package if package.is_file() else (self.package_dir / rel).with_suffix(".py")

    def tree(self, name: str) -> ast.Module:
        """Module ``name``'s syntax tree (parsed when first asked for)."""
        if name not in self._trees:
            self._trees[name] = ast.parse(self._parsed[name][1], filename=str(self.path(name)))
        return self._trees[name]

    def _parse(self, path: Path, remembered: dict[str, list], kept: dict[str, list]) -> tuple:
        """(path, source, imports, literal imports, lazy map) of one module."""
        source = path.read_bytes()
        key = hashlib.sha256(source).hexdigest()[:24]
        row = _PARSED.get(source) or remembered.get(key)
        if row is None:
            tree = ast.parse(source, filename=str(path))
            visitor = _Imports()
            visitor.visit(tree)
            row = [[list(n) for n in visitor.names], visitor.literal, _lazy_map(tree)]
        _PARSED[source] = kept[key] = row
        names = [(module, tuple(imported), level) for module, imported, level in row[0]]
        return (path, source, None, names, list(row[1]), dict(row[2]))

    def _read(self, name: str) -> ModuleInfo:
        path, source, _, names, literal, _ = self._parsed[name]
        is_package = path.name == "__init__.py"
        found: set[str] = set()
        external: set[str] = set()
        for module, imported, level in names:
            if level:  # relative: resolve against this module's package
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (level - 1)]
                module = ".".join([*base, module] if module else base)
            self.resolve(module, imported, found, external)
        for module in literal:
            self.resolve(module, (), found, external)
        found.discard(name)
        return ModuleInfo(name, path, source, frozenset(found), frozenset(external))

    def resolve(self, module: str, imported: tuple[str, ...], found: set, external: set) -> None:
        """Add to ``found`` the package modules ``from module import *imported`` runs (to
        ``external`` the other distributions' top-level names)."""
        top = module.split(".")[0]
        if top != PACKAGE:
            if top and top not in sys.stdlib_module_names:
                external.add(top)
            return
        parts = module.split(".")
        for i in range(1, len(parts) + 1):  # a.b.c runs a/__init__ and a/b/__init__ first
            prefix = ".".join(parts[:i])
            if prefix in self._parsed:
                found.add(prefix)
        for attr in imported:
            sub = f"{module}.{attr}"
            if sub in self._parsed:
                found.add(sub)
            elif module in self._parsed:
                lazy = self.lazy_map(module).get(attr)
                if lazy:
                    self.resolve(lazy, (), found, external)

    def lazy_map(self, module: str) -> dict[str, str]:
        return self._parsed[module][5]

    def closure(self, entries: Iterable[str]) -> frozenset[str]:
        """Every package module that importing (and running) ``entries`` can execute."""
        entries = tuple(entries)
        if entries not in self._closures:
            self._closures[entries] = self._closure(entries)
        return self._closures[entries]

    def _closure(self, entries: tuple[str, ...]) -> frozenset[str]:
        todo = [e for e in entries if e in self.modules]
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            parts = name.split(".")
            todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # parent packages
            todo += self.modules[name].imports
        return frozenset(seen)

    def dependents(self, changed: Iterable[str]) -> frozenset[str]:
        """Modules whose closure contains any of ``changed`` (so must be re-imported)."""
        changed = set(changed)
        return frozenset(n for n in self.modules if self.closure([n]) & changed)

    def fingerprints(self) -> dict[str, str]:
        return {name: digest(info.source) for name, info in self.modules.items()}

    def external(self, names: Iterable[str]) -> frozenset[str]:
        return frozenset(x for n in names for x in self.modules[n].external)

    def source_part(self, name: str, *, claims: bool = True) -> bytes | str:
        """What module ``name`` contributes to a key: its source (strings: code only; a
        content module without its claims unless ``claims``)."""
        if not claims and name.startswith(CONTENT_PACKAGE):
            source = self.modules[name].source
            if source not in _NO_CLAIMS:
                _NO_CLAIMS[source] = _without_claims(ast.parse(source))
            return name + "\n" + _NO_CLAIMS[source]
        if name == STRINGS_MODULE:
            source = self.modules[name].source
            if source not in _BLANKED:  # a fresh tree: the transformer edits it in place
                _BLANKED[source] = _blank_strings(ast.parse(source))
            return name + "\n" + _BLANKED[source]
        return name.encode() + b"\n" + self.modules[name].source

    def key(
        self,
        *parts: str,
        entries: Iterable[str],
        extra_external: Iterable[str] = (),
        claims: bool = True,
    ) -> str:
        names = sorted(self.closure(entries))
        external = sorted(self.external(names) | set(extra_external))
        return digest(
            *parts,
            *(self.source_part(n, claims=claims) for n in names),
            versions(tuple(external)),
            f"python{sys.version_info[0]}.{sys.version_info[1]}",
        )

    # -- the assets ------------------------------------------------------------------------
    def figure_ids(self) -> tuple[str, ...]:
        """``FIGURE_IDS`` as written in the registry, read without importing it."""
        for node in self.tree(FIGURE_REGISTRY).body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "FIGURE_IDS" for t in node.targets
            ):
                return tuple(ast.literal_eval(node.value))
        raise ValueError(f"{self.path(FIGURE_REGISTRY)} defines no FIGURE_IDS tuple")

    def figure_entry(self, figure_id: str) -> str:
        return f"{PACKAGE}.figures.{figure_id.replace('-', '_')}"

    def has_narrow(self, figure_id: str) -> bool:
        """Whether ``figure_id`` is also drawn for a phone's column (``NARROW = True``)."""
        return bool(self.literal(self.figure_entry(figure_id), "NARROW", False))

    def literal(self, module: str, name: str, default=None):
        """The literal assigned to ``name`` at the top of ``module``, read from the file as it
        is now (also while serving), without importing it; ``default`` if there is none."""
        memo = (self.modules[module].source, name)
        if memo not in _LITERALS:
            found = _MISSING
            for node in self.tree(module).body:
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    targets = [node.target]
                else:
                    continue
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    try:
                        found = ast.literal_eval(node.value)
                    except ValueError:
                        raise ValueError(
                            f"{self.path(module)}: {name} must be a plain literal "
                            "(the build reads it without importing the module)"
                        ) from None
            _LITERALS[memo] = found
        return default if _LITERALS[memo] is _MISSING else _LITERALS[memo]

    def figure_strings(self, figure_id: str) -> str:
        """The shared strings (``figures/strings.py``) that the figure layer's modules in
        ``figure_id``'s closure name in their ``SHARED_STRINGS`` (the figure's own module and
        the helpers it imports); their own strings are in their sources already."""
        shared = self.literal(STRINGS_MODULE, "SHARED", {})
        named = {}
        for module in sorted(self.closure([self.figure_entry(figure_id)])):
            if module.startswith(FIGURES_PACKAGE) and module != STRINGS_MODULE:
                names = self.literal(module, "SHARED_STRINGS", {})
                if names:
                    named[module] = {local: shared.get(name) for local, name in names.items()}
        return json.dumps(named, sort_keys=True)

    def alt_text(self, figure_id: str, lang: str) -> str:
        """The alt text of ``figure_id`` in ``lang``, from its module's ``STRINGS``."""
        return self.literal(self.figure_entry(figure_id), "STRINGS", {})["alt"][lang]

    def alt_claims(self) -> dict[str, tuple[str, ...]]:
        """Each figure's ``ALT_CLAIMS``: the claims its alt text states."""
        return {
            figure_id: tuple(self.literal(self.figure_entry(figure_id), "ALT_CLAIMS", ()))
            for figure_id in self.figure_ids()
        }

    def figure_key(self, figure_id: str) -> str:
        entry = self.figure_entry(figure_id)
        strings = self.figure_strings(figure_id) if STRINGS_MODULE in self.closure([entry]) else ""
        return self.key("figure", figure_id, strings, entries=[entry])

    def data_key(self) -> str:
        """The numbers' key: their code, the claims left out."""
        return self.key("data", entries=DATA_ENTRIES, claims=False)

    def claims_key(self) -> str:
        """The verdicts' key: the numbers they judge and every claim's code."""
        return self.key("claims", self.data_key(), entries=CLAIM_ENTRIES)

    def notebook_key(self, text: str) -> str:
        """Changes with a jupytext notebook's code cells, its kernel, and the code they reach."""
        code = code_cells(text)
        kernel = KERNEL_NAME.search(text)
        entries, external = cell_imports(code)
        return self.key(
            "notebook",
            kernel.group(1) if kernel else "python3",
            *code,
            entries=resolve_entries(self, entries),
            extra_external=external,
        )


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _installed() -> tuple[dict[str, list], dict[str, object]]:
    """(import name → distributions, from ``top_level.txt``; normalised name → distribution),
    from one pass over the installed distributions. Only the distributions a key names have
    their METADATA parsed, which is what a per-name search used to cost for all of them."""
    provides: dict[str, list] = {}
    by_name: dict[str, object] = {}
    for dist in metadata.distributions():
        # The dist-info folder's name (Python >= 3.10), else the parsed metadata.
        name = getattr(dist, "_normalized_name", None) or dist.metadata["Name"]
        if not name:
            continue
        by_name.setdefault(_normal(name), dist)  # the first on sys.path wins, as for import
        for top in (dist.read_text("top_level.txt") or "").split():
            provides.setdefault(top, []).append(dist)
    return provides, by_name


@cache
def versions(import_names: tuple[str, ...]) -> str:
    """``dist==version`` of the distributions that provide these top-level import names."""
    provides, by_name = _installed()
    found = set()
    for name in import_names:
        # numpy, matplotlib ship no top_level.txt: their import name is the dist's name.
        for dist in provides.get(name) or [by_name.get(_normal(name))]:
            if dist is not None:
                found.add(f"{dist.metadata['Name']}=={dist.version}")
    return ";".join(sorted(found))


CODE_CELL = re.compile(r"^```python[^\n]*\n(.*?)\n?^```", re.S | re.M)
KERNEL_NAME = re.compile(r"^kernelspec:\n(?:[ \t]+.*\n)*?[ \t]+name: *(\S+)", re.M)


def code_cells(text: str) -> list[str]:
    """The code cells of a jupytext Markdown notebook, read without jupytext (fast path)."""
    return CODE_CELL.findall(text)


def cell_imports(cells: Iterable[str]) -> tuple[list[str], list[str]]:
    """(package modules, other top-level names) that notebook code cells import."""
    graph_entries: list[str] = []
    external: list[str] = []
    for cell in cells:
        code = "\n".join(
            "" if line.lstrip().startswith(("%", "!")) else line for line in cell.splitlines()
        )
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        visitor = _Imports()
        visitor.visit(tree)
        for module, imported, _ in visitor.names:
            top = module.split(".")[0]
            if top == PACKAGE:
                graph_entries.append(module)
                graph_entries += [f"{module}.{a}" for a in imported]
            elif top and top not in sys.stdlib_module_names:
                external.append(top)
    return graph_entries, external


def resolve_entries(graph: ImportGraph, entries: Iterable[str]) -> list[str]:
    """Map ``from attention_explained import X`` style names onto the modules they load."""
    found: set[str] = set()
    external: set[str] = set()
    for entry in entries:
        module, _, attr = entry.rpartition(".")
        if entry in graph.modules:
            graph.resolve(entry, (), found, external)
        elif module in graph.modules:
            graph.resolve(module, (attr,), found, external)
    return sorted(found)
