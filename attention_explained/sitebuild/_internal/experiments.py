"""The grid experiments, kept in the cache between asset steps (``content.data.KEEPER``).

The numbers' key covers every content module, so an edit to a page's number made the asset
step run every grid again (training, after training, the initialisers: about 12 s), though
none of them had changed. Each is now an entry of its own::

    <root>/experiments/<name>-<key>/result.npz

keyed by what it runs: the source of its function in ``content/data.py`` (the one that calls
``kept_or_run("<name>", …)``), the modules that function imports and what they import
(``ImportGraph.closure``), settings, runs and the TensorFlow wrapper, the versions of the
distributions they import, and the run (its name, seed offset and precision). An edit to
``training.py`` runs the training experiment again (and the after-training one, which imports
it); an edit to a page module runs none. A result computed while its code changed on disk is
not kept (it may be either version's).

The result is stored as NumPy arrays with ``allow_pickle=False`` (no code is loaded from the
cache): nested dicts keyed by strings, ints or tuples of them, with arrays as leaves (an
object array only of strings, as the grids name their scalings). A result of any other shape
is not kept (computed again next time, with a warning naming it); a damaged entry is
discarded and computed again (``storage.entry_ok``).
"""

from __future__ import annotations

import ast
import io
import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

from attention_explained import runs
from attention_explained.sitebuild import keys
from attention_explained.sitebuild._internal.storage import (
    discard,
    entry_ok,
    prune,
    warn_damaged,
    write_entry,
)
from attention_explained.sitebuild.keys import PACKAGE, ImportGraph

log = logging.getLogger("attention_explained.assets")

DATA_MODULE = f"{PACKAGE}.content.data"
KEEPING = "kept_or_run"  # content.data's keeping: ``kept_or_run("<name>", run, compute)``
RESULT = "result.npz"
_LAYOUT = "__layout__"
# Read by every experiment, whatever it imports: the seeds and sizes, the run, and the
# TensorFlow wrapper (Keras' initialisers draw through TensorFlow's random ops, so its
# version is in the key even where no module of the experiment imports it).
ALWAYS = (f"{PACKAGE}.settings", f"{PACKAGE}.runs", f"{PACKAGE}._tf")


class UnkeepableError(TypeError):
    """A result that this store cannot write and read back exactly."""


# -- the key -------------------------------------------------------------------------------
def experiment_functions(graph: ImportGraph) -> dict[str, ast.FunctionDef]:
    """Each experiment's name → the function of content/data.py that keeps it, read from the
    ``kept_or_run("<name>", …)`` calls (so a name and its function cannot drift apart)."""
    found: dict[str, ast.FunctionDef] = {}
    for node in graph.tree(DATA_MODULE).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for call in ast.walk(node):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == KEEPING
            ):
                first = call.args[0] if call.args else None
                name = first.value if isinstance(first, ast.Constant) else None
                if not isinstance(name, str) or name in found:
                    written = ast.unparse(first) if first is not None else "nothing"
                    raise ValueError(
                        f"{DATA_MODULE}.{node.name}: {KEEPING} needs a literal experiment name "
                        f"that no other function keeps as its first argument, got {written}"
                    )
                found[name] = node
    return found


def experiment_key(graph: ImportGraph, name: str, run: runs.Run) -> str:
    node = experiment_functions(graph)[name]
    modules, external = keys.cell_imports([ast.unparse(node)])  # what its body imports
    return graph.key(
        "experiment",
        name,
        ast.unparse(node),
        f"{run.name} {run.seed_offset} {run.dtype}",
        entries=sorted({*keys.resolve_entries(graph, modules), *ALWAYS}),
        extra_external=external,
    )


# -- the result as arrays ------------------------------------------------------------------
def _key_out(key) -> Any:
    if type(key) in (str, int):
        return key
    if type(key) is tuple and all(type(k) in (str, int) for k in key):
        return {"tuple": list(key)}
    raise UnkeepableError(f"a key of type {type(key).__name__} ({key!r})")


def _key_in(key) -> Any:
    return tuple(key["tuple"]) if isinstance(key, dict) else key


def _leaf_out(value, where: str) -> tuple[np.ndarray, str]:
    if type(value) is not np.ndarray:
        raise UnkeepableError(f"{where}: a {type(value).__name__}, not an array")
    if value.dtype != object:
        return value, "array"
    if all(type(v) is str and not v.endswith("\x00") for v in value.flat):
        return value.astype(str), "strings"  # (NumPy drops a string's trailing NULs)
    raise UnkeepableError(f"{where}: an object array that is not only strings (without NUL ends)")


def pack(result) -> bytes:
    """``result`` as an ``.npz`` file: its arrays, and the layout that puts them back."""
    arrays: dict[str, np.ndarray] = {}

    def walk(value, path: list) -> Any:
        if type(value) is dict:
            return {"dict": [[_key_out(k), walk(v, [*path, k])] for k, v in value.items()]}
        array, kind = _leaf_out(value, "/".join(map(str, path)) or "the result")
        arrays[f"a{len(arrays)}"] = array
        return {kind: f"a{len(arrays) - 1}"}

    layout = walk(result, [])
    buffer = io.BytesIO()
    np.savez(buffer, **arrays, **{_LAYOUT: np.asarray(json.dumps(layout))})
    return buffer.getvalue()


def unpack(payload: bytes):
    with np.load(io.BytesIO(payload), allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files}

    def build(node) -> Any:
        if "dict" in node:
            return {_key_in(k): build(v) for k, v in node["dict"]}
        if "strings" in node:
            return arrays[node["strings"]].astype(object)
        return arrays[node["array"]]

    return build(json.loads(str(arrays.pop(_LAYOUT))))


# -- the store -----------------------------------------------------------------------------
class ExperimentStore:
    """``content.data.Keeper`` over ``<root>/experiments``."""

    def __init__(self, root: Path, graph: ImportGraph):
        self.root = Path(root) / "experiments"
        self.graph = graph

    def entry(self, name: str, run: runs.Run) -> Path:
        return self.root / f"{name}-{experiment_key(self.graph, name, run)}"

    def load(self, name: str, run: runs.Run):
        entry = self.entry(name, run)
        if not entry_ok(entry):  # absent, or damaged (discarded with a warning)
            return None
        try:
            return unpack((entry / RESULT).read_bytes())
        except Exception as exc:  # sealed and whole, but not a result this code wrote
            warn_damaged(entry, f"{RESULT} does not read back ({exc})")
            discard(entry)
            return None

    def save(self, name: str, run: runs.Run, result) -> None:
        entry = self.entry(name, run)
        now = experiment_key(ImportGraph(self.graph.package_dir), name, run)  # as on disk now
        if entry.name != f"{name}-{now}":  # changed since this step read it: either's result
            log.warning("attention-explained: experiment %r is not kept: its code changed", name)
            return
        try:
            payload = pack(result)
        except UnkeepableError as exc:
            log.warning("attention-explained: experiment %r is not kept: %s", name, exc)
            return
        self.root.mkdir(parents=True, exist_ok=True)
        write_entry(entry, {RESULT: payload})
        prune(self.root, f"{name}-", entry)
