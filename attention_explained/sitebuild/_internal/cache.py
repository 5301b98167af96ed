"""The cache's layout on disk, and moving finished work into it atomically.

::

    <root>/figures/<id>-<key>/<id>.<lang>.<theme>.svg, <id>.<lang>.card.png
    <root>/data/<key>/numbers.json, values.json, explorer-reference.json
    <root>/claims/<key>/claims.json               the verdicts, judged over values.json
    <root>/experiments/<name>-<key>/result.npz   a grid experiment's result (experiments.py)
    <root>/notebooks/<key>/<stem>.ipynb          executed, one folder per language's source
    <root>/notebook-pages/<lang>/<sha>.json      mkdocs-jupyter's rendered pages, one-file
                                                 entries (:class:`WorkingCopy`)
    <root>/jinja/                                compiled theme templates
    <root>/keys/imports-<key>.json               each module's imports (keys.ImportGraph)
    <root>/math-font/<key>/, mathml-<key>.json   the cut math font; TeX → MathML conversions
    <root>/css/<key>.css                         the notebook pages' stylesheet, cut
    <root>/search/lexicon-<key>.json             search.py: the Korean lexicon,
    <root>/search/analyses-<key>.json              Kiwi's analysis of each indexed text,
    <root>/search/entries.json                     Material's search entries of each page
    <root>/pages/render.json, content.json       each page's HTML and content step (render_cache)
    <root>/assets-*/                             the asset step's scratch folder while it runs
    <root>/manifest.json, assets.lock            the asset step's manifest; one step at a time

Every entry is written, checked and replaced by :mod:`.._internal.storage`
(the primitives, which know nothing of keys); what an entry's key covers is
:mod:`attention_explained.sitebuild.keys`. This module joins the two: where each asset of the
current code lives.
"""

from __future__ import annotations

import json
from pathlib import Path

from attention_explained.figures.render import card_name, variant_name
from attention_explained.sitebuild._internal.storage import (
    CacheEntryError,
    entry_ok,
    install_dir,
    prune,
    seal,
    write_entry,
)
from attention_explained.sitebuild.keys import ImportGraph

NUMBERS, CLAIMS, EXPLORER = "numbers.json", "claims.json", "explorer-reference.json"
VALUES = "values.json"


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
    def values_path(self) -> Path:
        return self.data_dir / VALUES

    @property
    def claims_dir(self) -> Path:
        """The verdicts' entry: keyed by the numbers and every claim's code (keys.claims_key)."""
        return self.root / "claims" / self.graph.claims_key()

    @property
    def claims_path(self) -> Path:
        return self.claims_dir / CLAIMS

    @property
    def explorer_path(self) -> Path:
        return self.data_dir / EXPLORER

    def notebook_html_dir(self, lang: str) -> Path:
        """mkdocs-jupyter's rendered pages of ``lang`` (each build works on a WorkingCopy)."""
        return self.root / "notebook-pages" / lang

    def figure_dir(self, figure_id: str) -> Path:
        return self.figure_root / f"{figure_id}-{self.keys[figure_id]}"

    def figure_path(
        self, figure_id: str, lang: str, theme: str, fmt: str = "svg", layout: str = "wide"
    ) -> Path:
        return self.figure_dir(figure_id) / variant_name(figure_id, lang, theme, fmt, layout)

    def card_path(self, figure_id: str, lang: str) -> Path:
        """The PNG a shared link previews (render.card_name)."""
        return self.figure_dir(figure_id) / card_name(figure_id, lang)

    def stale_figures(self) -> list[str]:
        """Figures with no whole entry (a damaged one is discarded with a warning)."""
        return [i for i in self.figure_ids if not entry_ok(self.figure_dir(i))]

    def data_stale(self) -> bool:
        return not entry_ok(self.data_dir)

    def load_numbers(self) -> dict[str, str]:
        return self._load(self.numbers_path)

    def load_claims(self) -> dict[str, dict]:
        """The verdicts of the current claims over the cached numbers, judged if not cached
        (:func:`attention_explained.sitebuild._internal.claims.cached_verdicts`)."""
        from attention_explained.sitebuild._internal.claims import cached_verdicts

        return cached_verdicts(self)

    def load_cached_claims(self) -> dict[str, dict] | None:
        """The verdicts' entry if it is whole (a damaged one is discarded), else None."""
        return self._load(self.claims_path) if entry_ok(self.claims_dir) else None

    def install_claims(self, verdicts: bytes) -> None:
        write_entry(self.claims_dir, {CLAIMS: verdicts})
        prune(self.claims_dir.parent, "", self.claims_dir)

    @staticmethod
    def _load(path: Path):
        """A JSON file of a checked entry; an error naming it if it changed since the check."""
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CacheEntryError(
                f"cache entry {path} changed after it was checked ({exc}); build again"
            ) from exc

    # -- installing what the asset step made in its scratch folder -----------------------
    def install_data(self, staged: Path) -> None:
        self.data_root.mkdir(parents=True, exist_ok=True)
        seal(staged)
        install_dir(staged, self.data_dir)
        prune(self.data_root, "", self.data_dir)

    def install_figure(self, figure_id: str, staged: Path) -> None:
        self.figure_root.mkdir(parents=True, exist_ok=True)
        target = self.figure_dir(figure_id)
        seal(staged)
        install_dir(staged, target)
        prune(self.figure_root, f"{figure_id}-", target)
