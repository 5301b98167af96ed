"""Helpers for the tests that build sites: the real site, and the small fixture site.

Fixtures built on these live in conftest.py. Every build writes into a temporary cache
(``ATTENTION_EXPLAINED_CACHE`` for the real site, ``cache_dir`` for the fixture site), never
into the repository's own .cache/.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from needs import require

from attention_explained.languages import i18n_languages, source_language, url_language
from attention_explained.settings import LANGS

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
# The real site's languages are mkdocs.yml's i18n languages, which must be settings.LANGS
# (tests/test_edition_pdf.py checks it); the default one is at the site's root.
DEFAULT_LANG = i18n_languages(REPO / "mkdocs.yml")[1]


def localized(page: str, lang: str) -> str:
    """A page folder of the default language ("", "saturation/") in ``lang``'s site."""
    return page if lang == DEFAULT_LANG else f"{lang}/{page}"


def unlocalized(path: str, lang: str) -> str:
    """``localized``'s inverse: "en/saturation/" → "saturation/" for English."""
    return path if lang == DEFAULT_LANG else path.removeprefix(f"{lang}/")


def lang_of_path(path: str) -> str:
    """The language of a site-relative page folder ("", "en/", "en/saturation/")."""
    return url_language(path, LANGS, DEFAULT_LANG)


def source_name(stem: str, lang: str) -> str:
    """The docs/ file of page ``stem`` ("index", "notebooks/heatmaps") in ``lang``."""
    return f"{stem}.md" if lang == DEFAULT_LANG else f"{stem}.{lang}.md"


def lang_of_source(name: str) -> str:
    """The language of a docs/ file from its name (``x.en.md`` English, ``x.md`` the default)."""
    return source_language(name, LANGS, DEFAULT_LANG)


def sources(lang: str) -> list[Path]:
    """Every page source under docs/ in ``lang``."""
    return sorted(p for p in DOCS.rglob("*.md") if lang_of_source(p.name) == lang)


FIXTURE = Path(__file__).parent / "fixture_site"
FIXTURE_LANGUAGES = Path(__file__).parent / "fixture_languages"  # ko, en and a stub third
CACHE_ENV = "ATTENTION_EXPLAINED_CACHE"


@dataclass
class BuiltSite:
    root: Path  # the site/ folder
    log: str
    cache: Path | None = None  # its asset cache, when the build ran the asset step apart

    def asset_step(self) -> dict:
        """What its asset step (``asset_step``) printed and imported: ``{"log", "imported"}``."""
        assert self.cache is not None, "this build ran no asset step of its own"
        return json.loads((self.cache.parent / ASSET_RECORD).read_text(encoding="utf-8"))

    def pages(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("index.html") if "assets" not in p.parts)

    def page_path(self, page: Path) -> str:
        """A built page's site-relative folder: "", "en/", "notebooks/heatmaps/"."""
        parts = page.parent.relative_to(self.root).parts
        return "".join(f"{part}/" for part in parts)

    def page_lang(self, page: Path) -> str:
        return lang_of_path(self.page_path(page))


# Runs the CLI with the given arguments, then prints which modules of MkDocs (and of the
# build's other engines) the process imported by its end.
ASSET_PROBE = """\
import json, sys
from attention_explained.cli import main
code = main(sys.argv[1:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"mkdocs", "material", "properdocs"})
print("IMPORTED " + json.dumps(loaded))
sys.exit(code)
"""
ASSET_RECORD = "assets.json"  # beside the shared build's cache: its asset step's record


def asset_step(cache: Path, *options: str, pythonpath: Path | None = None) -> tuple[list[str], str]:
    """``python -m attention_explained assets build --cache-dir cache *options`` in a
    subprocess, as `make build` runs it; returns the MkDocs-side modules it imported (none, if
    the step is as it should be) and its output. ``pythonpath`` puts a package copy first."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = f"{pythonpath}{os.pathsep}{env.get('PYTHONPATH', '')}"
    result = subprocess.run(
        [sys.executable, "-c", ASSET_PROBE, "assets", "build", "--cache-dir", str(cache), *options],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=cache.parent,  # not the repository: `-c` puts the working folder first on sys.path
    )
    if result.returncode != 0:
        raise AssertionError(f"the asset step failed:\n{result.stderr[-6000:]}")
    imported = next(
        json.loads(line.removeprefix("IMPORTED "))
        for line in result.stdout.splitlines()
        if line.startswith("IMPORTED ")
    )
    return imported, result.stdout


def strict_build(site_dir: Path, cache_dir: Path) -> BuiltSite:
    require("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1", **{CACHE_ENV: str(cache_dir)}),
    )
    if result.returncode != 0:
        raise AssertionError(f"strict build failed:\n{result.stderr[-6000:]}")
    return BuiltSite(site_dir, result.stderr)


def once_per_run(folder: Path, record: str, make: Callable[[], str]) -> str:
    """``make()`` once for the whole test run: the first process to ask runs it while holding
    ``folder/<record>.lock`` (the run's pytest-xdist workers share ``folder``) and keeps what it
    returns in ``folder/record``; the others wait on the lock, then read that, or raise the
    same failure (an AssertionError from ``make``, kept in ``folder/<record>.failed``). Each
    record has its lock, so one ``make`` may ask for another's record in the same folder."""
    folder.mkdir(exist_ok=True)
    done, failed = folder / record, folder / f"{record}.failed"
    with open(folder / f"{record}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists() and not failed.exists():
            try:
                text = make()
            except AssertionError as exc:
                failed.write_text(str(exc), encoding="utf-8")
                raise
            done.write_text(text, encoding="utf-8")
    if failed.exists():
        raise AssertionError(failed.read_text(encoding="utf-8"))
    return done.read_text(encoding="utf-8")


def shared_assets(run_dir: Path) -> Path:
    """The real site's asset cache, made cold (a fresh cache) once for the whole test run
    into ``run_dir``/built/cache by the asset step in its own process (``asset_step``, as
    `make build` runs it; its record kept beside the cache). Never write into it."""
    require("site")
    folder = run_dir / "built"
    cache = folder / "cache"

    def make() -> str:
        cache.mkdir(parents=True, exist_ok=True)
        imported, log = asset_step(cache, "--docs", str(DOCS))
        record = json.dumps({"imported": imported, "log": log}, ensure_ascii=False)
        (folder / ASSET_RECORD).write_text(record, encoding="utf-8")
        return ""

    once_per_run(folder, "assets.done", make)
    return cache


def shared_build(run_dir: Path) -> BuiltSite:
    """The real site, built cold once for the whole test run into ``run_dir``/built
    (``once_per_run``), as `make build` builds it: the asset step (``shared_assets``), then
    ``mkdocs build --strict``. Tests read it and never write into it
    (tests/test_sitebuild_assets.py reads the asset step's record and works on a copy of the
    cache)."""
    require("site")
    folder = run_dir / "built"

    def make() -> str:
        return strict_build(folder / "site", shared_assets(run_dir)).log

    log = once_per_run(folder, "build.log", make)
    return BuiltSite(folder / "site", log, folder / "cache")


def fixture_build(root: Path, cache_dir: Path) -> None:
    """tests/fixture_site as it is, built at ``root`` into ``cache_dir``: every figure and
    the numbers (about a minute of CPU when the cache is cold)."""
    result = build(make_site(root, cache_dir))
    if result.returncode != 0:
        raise AssertionError(f"fixture site build failed:\n{result.stderr[-6000:]}")


# What the fixture site's cache takes from the real site's: the entries whose keys are the
# package's code alone, the same for any site (cache.py: figures, numbers, verdicts, the grid
# experiments; and the import graph the keys are read from). The rest (notebooks, math,
# search, pages) is per site.
SHARED_ENTRIES = ("figures", "data", "claims", "experiments", "keys")


def warm_fixture_cache(run_dir: Path) -> Path:
    """A fixture-site asset cache made warm once for the whole test run (``once_per_run``, as
    ``shared_build``), starting from the real site's cold asset step (``shared_assets``: its
    figures, numbers and verdicts are the fixture's too, so the run draws and computes them
    once); the fixture build then makes what is the fixture's own. Nothing writes into it
    afterwards: each session works on its own copy (conftest's ``ae_cache``)."""
    require("site")
    folder = run_dir / "fixture-cache"

    def warm() -> str:
        seed = shared_assets(run_dir)
        for entry in SHARED_ENTRIES:
            if (seed / entry).is_dir():
                shutil.copytree(seed / entry, folder / "cache" / entry)
        fixture_build(folder / "site", folder / "cache")
        return ""

    once_per_run(folder, "done", warm)
    return folder / "cache"


def source_pages() -> list[str]:
    """The default language's source pages as site-relative page folders."""
    pages = []
    for md in sources(DEFAULT_LANG):
        rel = md.relative_to(DOCS).with_suffix("").as_posix()
        pages.append("" if rel == "index" else rel.removesuffix("/index") + "/")
    return pages


class Tags(HTMLParser):
    """Collects tags with their attributes and the ids in a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.ids: set[str] = set()
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse(path: Path) -> Tags:
    parser = Tags()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def make_site(root: Path, cache_dir: Path, fixture: Path = FIXTURE, **replacements: str) -> Path:
    """A copy of ``fixture`` (tests/fixture_site) at ``root`` whose plugin caches into
    ``cache_dir``."""
    require("site")
    shutil.copytree(fixture, root, dirs_exist_ok=True)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("cache_dir: .cache", f"cache_dir: {cache_dir}")
    # The real site's theme fix-ups (no per-page hreflang links that make Material fetch
    # sitemaps that do not exist), so a browser on the fixture sees what it would on the site.
    config += f"hooks:\n  - {REPO / 'overrides' / 'hooks.py'}\n"
    for old, new in replacements.items():
        config = config.replace(old, new)
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def build(root: Path, *, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` in ``root``; ``pythonpath`` puts a package copy first."""
    require("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if pythonpath is not None:
        env["PYTHONPATH"] = f"{pythonpath}{os.pathsep}{env.get('PYTHONPATH', '')}"
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def copy_package(target: Path) -> Path:
    """A copy of the package under ``target`` (for PYTHONPATH), safe to edit."""
    shutil.copytree(
        REPO / "attention_explained",
        target / "attention_explained",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return target


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


FRONT = """---
jupyter:
  jupytext:
    text_representation:
      extension: .md
      format_name: markdown
      format_version: '1.3'
  kernelspec:
    display_name: Python 3
    language: python
    name: python3
---
"""


def notebook(folder: Path, name: str, title: str, *cells: str) -> Path:
    body = "".join(f"\n```python\n{cell}\n```\n" for cell in cells)
    path = folder / name
    path.write_text(f"{FRONT}\n# {title}\n{body}", encoding="utf-8")
    return path
