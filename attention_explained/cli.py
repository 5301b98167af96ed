"""``python -m attention_explained``: render the site's figures or print its numbers."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from attention_explained.figures.registry import FIGURE_IDS, LANGS, THEMES

DESCRIPTION = """\
Compute what the attention_explained site shows.

  figures   draw the figures as files: <id>.<lang>.<theme>.svg
            (every id, both languages and both themes unless narrowed down)
  numbers   print every number the prose quotes, as JSON
  claims    print every claim: where it is stated, whether it holds, its margin
            (--rerun: on an independent rerun, other seeds and float64; exits 1 if
            any claim fails)
  assets    build: make every stale figure, the numbers and the claims' verdicts into
            the cache (.cache/, or $ATTENTION_EXPLAINED_CACHE, or --cache-dir DIR) and
            write its manifest.json; no MkDocs (make build and make serve run it first)
  lint      check the code and the pages, with no build; with no option, both
            (--imports: print the package's import graph, exit 1 if it has an import
            circle; --pages: the content checks (term sheet, d_k notation, hedges,
            glosses, ...) over the pages, notebooks, figure strings, nav labels, scripts,
            templates and PDF cover, one problem a line as path:line: message, exit 1
            if any; --docs DIR: check these pages instead of the repository's docs/)

Examples:
  python -m attention_explained figures --list
  python -m attention_explained figures --out /tmp/fig --lang ko --theme dark
  python -m attention_explained figures --out /tmp/fig --only logit-variance temperature
  python -m attention_explained numbers
  python -m attention_explained claims --rerun
  python -m attention_explained assets build
  python -m attention_explained lint
  python -m attention_explained lint --imports
  python -m attention_explained lint --pages --docs /tmp/docs-copy
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m attention_explained",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    figures = commands.add_parser(
        "figures", help="render figure variants to a folder", description="Render figures."
    )
    figures.add_argument("--out", type=Path, help="output folder (created if missing)")
    figures.add_argument(
        "--lang",
        choices=[*LANGS, "all"],
        default="all",
        help="language of the labels (default: all)",
    )
    figures.add_argument(
        "--theme",
        choices=[*THEMES, "all"],
        default="all",
        help="colour scheme, for Material's light/dark switch (default: all)",
    )
    figures.add_argument(
        "--only",
        nargs="+",
        metavar="ID",
        default=None,
        help=f"render only these ids; valid: {', '.join(FIGURE_IDS)}",
    )
    figures.add_argument(
        "--list",
        action="store_true",
        help="print the figure ids with one-line descriptions and exit",
    )
    numbers = commands.add_parser("numbers", help="print the prose's numbers as JSON")
    numbers.add_argument("--out", type=Path, help="write the JSON here instead of stdout")
    claims = commands.add_parser(
        "claims",
        help="check every claim and print its margin",
        description="Print every claim, one per line: name, verdict, margin (the smallest "
        "relative move of one number it reads that flips it), the pages and figures that "
        "state it, and the numbers it read. Exits 1 if any claim fails.",
    )
    claims.add_argument(
        "--rerun",
        action="store_true",
        help="judge the claims on an independent rerun of every experiment "
        "(seeds disjoint from the build's, float64 instead of float32)",
    )
    claims.add_argument(
        "--docs", type=Path, default=Path("docs"), help="the pages to scan (default: docs)"
    )
    assets = commands.add_parser(
        "assets",
        help="make the site's assets into the cache, with a manifest",
        description="build: compute every stale figure, the numbers and the claims' verdicts "
        "of the code as it is now, and execute the notebooks, into the content-addressed "
        "cache, then write <cache>/manifest.json (each asset's key and path, per language). "
        "Nothing fresh is computed again. No MkDocs is imported; the site build reads what "
        "this wrote.",
    )
    assets.add_argument(
        "action",
        choices=["build", "watch"],
        help="build: once; watch: now and again after every change to the package's "
        "sources or the notebooks, until interrupted (make serve runs it beside mkdocs serve)",
    )
    assets.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="the cache folder (default: $ATTENTION_EXPLAINED_CACHE, else .cache)",
    )
    assets.add_argument("--jobs", type=int, default=2, help="drawing processes (default: 2)")
    assets.add_argument(
        "--docs",
        type=Path,
        default=Path("docs"),
        metavar="DIR",
        help="the pages whose notebooks are executed (default: docs; none if it is missing)",
    )
    assets.add_argument(
        "--notebooks",
        action="append",
        default=None,
        metavar="GLOB",
        help="a glob, relative to --docs, of jupytext notebooks to execute (repeatable; "
        "default: the plugin's default, notebooks/*.md)",
    )
    assets.add_argument(
        "--no-notebooks", action="store_true", help="execute no notebook (a site without any)"
    )
    assets.add_argument(
        "--no-figures", action="store_true", help="draw no figure (a site that shows none)"
    )
    assets.add_argument(
        "--notebook-timeout",
        type=int,
        default=None,
        metavar="SECONDS",
        help="seconds one notebook cell may run (default: the plugin's, 300)",
    )
    lint = commands.add_parser(
        "lint",
        help="check the code and the pages",
        description="Checks that need no build; with neither --imports nor --pages, both. "
        "--imports prints the package's import graph (one module a line: module -> what it "
        "imports, lazy imports included), then one line per import circle. --pages runs every "
        "content check of attention_explained.lint (the Korean term sheet in CONTRIBUTING.md, "
        "the head dimension's notation, the unit-variance divisor, hedges, bare links and "
        "glosses) over the pages and notebooks, the figure strings, mkdocs.yml, the scripts, "
        "the template overrides and the PDF cover, and prints each problem as "
        "'path:line: message', then a one-line summary. Exits 1 if there is a circle or a "
        "problem.",
    )
    lint.add_argument("--imports", action="store_true", help="the import graph and its circles")
    lint.add_argument(
        "--pages", action="store_true", help="the content checks (term sheet, notation, prose)"
    )
    lint.add_argument(
        "--docs",
        type=Path,
        default=None,
        metavar="DIR",
        help="the pages to check with --pages (default: the repository's docs/); the figure "
        "strings, mkdocs.yml, templates and PDF cover are the repository's",
    )
    return parser


def _lint(args, parser) -> int:
    everything = not (args.imports or args.pages)
    if args.docs is not None and not (args.pages or everything):
        parser.error("lint: --docs DIR is for --pages")
    failed = False
    if args.imports or everything:
        from attention_explained import import_graph

        graph = import_graph.edges()
        for line in import_graph.report(graph):
            print(line)
        failed |= bool(import_graph.circles(graph))
    if args.pages or everything:
        from attention_explained.lint import pages

        report = pages.check() if args.docs is None else pages.check(args.docs)
        for problem in report.problems:
            print(problem)
        print(report.summary())
        failed |= bool(report.problems)
    return 1 if failed else 0


def _assets(args) -> int:
    from attention_explained.sitebuild.assets import (
        NOTEBOOK_GLOBS,
        NOTEBOOK_TIMEOUT,
        build_assets,
        default_cache_dir,
        watch,
    )

    cache_dir = args.cache_dir or default_cache_dir()
    options = dict(  # the same for one run and for the watch
        jobs=max(1, args.jobs),
        report=lambda line: print(line, flush=True),
        docs_dir=args.docs if args.docs.is_dir() and not args.no_notebooks else None,
        notebooks=args.notebooks or NOTEBOOK_GLOBS,
        notebook_timeout=args.notebook_timeout or NOTEBOOK_TIMEOUT,
        figures=not args.no_figures,
    )
    if args.action == "watch":
        try:
            watch(cache_dir, **options)
        except KeyboardInterrupt:
            return 0
        return 0
    try:
        build_assets(cache_dir, **options)
    except RuntimeError as exc:  # names the notebook or figure and its error; not our stack
        print(f"assets: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0


def _figures(args, parser) -> int:
    from attention_explained.figures import load_all, render

    if args.list:
        for spec in load_all():
            print(f"{spec.id:22s} {spec.description}")
        return 0
    if args.out is None:
        parser.error("figures: --out DIR is required (or use --list)")
    ids = args.only or list(FIGURE_IDS)
    unknown = [i for i in ids if i not in FIGURE_IDS]
    if unknown:
        parser.error(
            f"figures: unknown id(s) {', '.join(unknown)}; valid ids: {', '.join(FIGURE_IDS)}"
        )
    langs = LANGS if args.lang == "all" else (args.lang,)
    themes = THEMES if args.theme == "all" else (args.theme,)
    start = time.perf_counter()

    def progress(n: int, total: int, figure_id: str) -> None:
        print(f"[{n}/{total}] {figure_id}", file=sys.stderr, flush=True)

    written = render(ids, args.out, langs=langs, themes=themes, progress=progress)
    seconds = time.perf_counter() - start
    print(f"wrote {len(written)} files to {args.out} in {seconds:.1f} s", file=sys.stderr)
    return 0


def _numbers(args) -> int:
    from attention_explained.content.pages import compute

    text = json.dumps(compute(), ensure_ascii=False, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


def _claims(args) -> int:
    from attention_explained import runs
    from attention_explained.content import pages
    from attention_explained.figures.strings import all_alt_claims
    from attention_explained.sitebuild.claim_report import rows

    if not args.docs.is_dir():
        raise ValueError(f"--docs must be a folder of pages, got {str(args.docs)!r}")
    run = runs.RERUN if args.rerun else runs.BUILD
    for line in runs.describe(run):
        print(f"# {line}")
    with runs.using(run):
        numbers = pages.values()
    table, problems = rows(numbers, args.docs, all_alt_claims())
    for row in table:
        print(row.line())
    failed = [row.name for row in table if not row.holds]
    for problem in problems:
        print(f"problem: {problem}")
    print(
        f"# {run.name}: {len(table) - len(failed)} of {len(table)} claims hold"
        + (f"; failing: {', '.join(failed)}" if failed else "")
    )
    return 1 if failed or problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "figures":
            return _figures(args, parser)
        if args.command == "claims":
            return _claims(args)
        if args.command == "lint":
            return _lint(args, parser)
        if args.command == "assets":
            return _assets(args)
        return _numbers(args)
    except Exception as exc:  # a figure or number failed: say which, exit non-zero
        print(f"error: {exc}", file=sys.stderr)
        return 1
