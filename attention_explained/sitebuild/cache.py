"""The cache's layout on disk, and moving finished work into it atomically.

::

    <root>/figures/<id>-<key>/<id>.<lang>.<theme>.svg
    <root>/data/<key>/numbers.json, claims.json, explorer-reference.json
    <root>/notebooks/<key>/<stem>.ipynb          executed, one folder per language's source
    <root>/notebook-html/<lang>/                 mkdocs-jupyter's rendered-HTML cache
    <root>/jinja/                                compiled theme templates
    <root>/keys/imports-<key>.json               each module's imports (keys.ImportGraph)
    <root>/math-font/<key>/, mathml-<key>.json   the cut math font; TeX → MathML conversions
    <root>/css/<key>.css                         the notebook pages' stylesheet, cut
    <root>/search/lexicon-<key>.json             search.py: the Korean lexicon,
    <root>/search/analyses-<key>.json              Kiwi's analysis of each indexed text,
    <root>/search/entries.json                     Material's search entries of each page
    <root>/worker-*/                             a worker's scratch folder while it runs

A folder named by a key is either whole or absent, so a build that sees it may use it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from attention_explained.figures.render import variant_name
from attention_explained.sitebuild.keys import ImportGraph, is_key

NUMBERS, CLAIMS, EXPLORER = "numbers.json", "claims.json", "explorer-reference.json"
STALE_AFTER = 24 * 3600  # seconds before a superseded version is removed


class AssetCache:
    """Where each asset of the current code lives; keys come from :class:`ImportGraph`."""

    def __init__(self, root: Path, graph: ImportGraph | None = None):
        self.root = Path(root)
        self.graph = graph or ImportGraph()
        self.figure_ids = self.graph.figure_ids()
        self.keys = {i: self.graph.figure_key(i) for i in self.figure_ids}
        self.figure_root = self.root / "figures"
        self.data_root = self.root / "data"
        self.data_dir = self.data_root / self.graph.data_key()
        self.notebook_root = self.root / "notebooks"
        self.jinja_dir = self.root / "jinja"

    @property
    def numbers_path(self) -> Path:
        return self.data_dir / NUMBERS

    @property
    def claims_path(self) -> Path:
        return self.data_dir / CLAIMS

    @property
    def explorer_path(self) -> Path:
        return self.data_dir / EXPLORER

    def notebook_html_dir(self, lang: str) -> Path:
        return self.root / "notebook-html" / lang

    def figure_dir(self, figure_id: str) -> Path:
        return self.figure_root / f"{figure_id}-{self.keys[figure_id]}"

    def figure_path(self, figure_id: str, lang: str, theme: str, fmt: str = "svg") -> Path:
        return self.figure_dir(figure_id) / variant_name(figure_id, lang, theme, fmt)

    def stale_figures(self) -> list[str]:
        return [i for i in self.figure_ids if not self.figure_dir(i).is_dir()]

    def data_stale(self) -> bool:
        return not self.data_dir.is_dir()

    def load_numbers(self) -> dict[str, str]:
        return json.loads(self.numbers_path.read_text(encoding="utf-8"))

    def load_claims(self) -> dict[str, dict]:
        return json.loads(self.claims_path.read_text(encoding="utf-8"))

    # -- installing what a worker made in its scratch folder ------------------------------
    def install_data(self, staged: Path) -> None:
        self.data_root.mkdir(parents=True, exist_ok=True)
        install_dir(staged, self.data_dir)
        prune(self.data_root, "", self.data_dir)

    def install_figure(self, figure_id: str, staged: Path) -> None:
        self.figure_root.mkdir(parents=True, exist_ok=True)
        target = self.figure_dir(figure_id)
        install_dir(staged, target)
        prune(self.figure_root, f"{figure_id}-", target)


def install_dir(staged: Path, target: Path) -> None:
    """Move a finished folder into place atomically: it is either whole or absent."""
    try:
        os.replace(staged, target)
    except OSError:
        if not target.is_dir():  # another build won the race with the same content
            raise
        shutil.rmtree(staged, ignore_errors=True)


def prune(root: Path, prefix: str, *keep: Path) -> None:
    """Remove superseded versions ``<prefix><key>`` beside those to ``keep``, once a day old.

    Not at once: another build running beside this one (``make serve`` during
    ``make test``, or a branch switch) may still be reading a different version.
    """
    now = time.time()
    for old in root.glob(f"{prefix}*"):
        if old not in keep and is_key(old.name[len(prefix) :]):
            try:
                if now - old.stat().st_mtime > STALE_AFTER:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:
                pass
