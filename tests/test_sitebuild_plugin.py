"""A tiny real site (Material + mkdocs-static-i18n + this plugin), built as a user would.

Mirrors mkdocs-static-i18n's own tests: build a fixture project in a temp dir, then read
the HTML it wrote. The cache is the session's temporary one, so a figure drawn by one test
is reused by the next, as in real builds, and the repository's .cache/ is never touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from site_build import build, listing, make_site, notebook

from attention_explained.figures import FIGURE_IDS
from attention_explained.figures.strings import alt_text
from attention_explained.sitebuild._internal.cache import AssetCache

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def site(tmp_path_factory, ae_cache):
    root = make_site(tmp_path_factory.mktemp("fixture"), ae_cache)
    before = listing(root / "docs")
    result = build(root)
    assert result.returncode == 0, result.stderr
    return root, result, before


def images(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<img alt="([^"]*)"[^>]*src="([^"]+)"', html)


def test_both_languages_are_built_with_their_lang_attribute(site):
    root, result, _ = site
    assert "WARNING" not in result.stderr
    ko = (root / "site/index.html").read_text(encoding="utf-8")
    en = (root / "site/en/index.html").read_text(encoding="utf-8")
    assert '<html lang="ko"' in ko and '<html lang="en"' in en


@pytest.mark.parametrize(
    ("lang", "page"), [("ko", "site/index.html"), ("en", "site/en/index.html")]
)
def test_each_page_shows_its_own_language_variant_in_both_themes(site, ae_cache, lang, page):
    root, _, _ = site
    html = (root / page).read_text(encoding="utf-8")
    found = images(html)
    assert [src for _, src in found] == [
        "figures/logit-variance.svg#only-light",
        "figures/logit-variance.dark.svg#only-dark",
    ]
    cache = AssetCache(ae_cache)
    for (alt, src), theme in zip(found, ("light", "dark"), strict=True):
        served = (root / page).parent / src.split("#")[0]
        assert served.read_bytes() == cache.figure_path("logit-variance", lang, theme).read_bytes()
        assert alt == alt_text("logit-variance", lang)


def test_placeholders_are_filled_from_the_package(site, ae_cache):
    root, _, _ = site
    numbers = json.loads(AssetCache(ae_cache).numbers_path.read_text(encoding="utf-8"))
    for page in ("site/index.html", "site/en/index.html"):
        html = (root / page).read_text(encoding="utf-8")
        assert "{{" not in html
        assert numbers["std.measured.d1024"] in html


def test_nothing_is_written_into_docs(site):
    root, _, before = site
    assert listing(root / "docs") == before


def test_warm_build_renders_nothing_and_never_imports_tensorflow(site):
    root, _, _ = site
    probe = (
        "import sys\n"
        "from mkdocs.__main__ import cli\n"
        "try:\n"
        "    cli(['build', '--strict'], standalone_mode=False)\n"
        "finally:\n"
        "    print('TF_IMPORTED', 'tensorflow' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    assert result.returncode == 0, result.stderr
    assert f"figures rendered 0, from cache {len(FIGURE_IDS)}" in result.stderr
    assert "TF_IMPORTED False" in result.stdout


def test_touching_one_figure_rerenders_only_that_figure(site, tmp_path, ae_cache, package_copy):
    module = package_copy / "attention_explained/figures/temperature.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    root = make_site(tmp_path / "touched", ae_cache)
    result = build(root, pythonpath=package_copy)
    assert result.returncode == 0, result.stderr
    assert f"figures rendered 1, from cache {len(FIGURE_IDS) - 1}" in result.stderr


def test_a_failing_figure_fails_the_build_and_names_it(site, tmp_path, ae_cache, package_copy):
    module = package_copy / "attention_explained/figures/softmax_curve.py"
    source = module.read_text(encoding="utf-8")
    source = source.replace(
        "    z, p, slope = data",
        '    raise RuntimeError("broken on purpose")\n    z, p, slope = data',
        1,
    )
    module.write_text(source, encoding="utf-8")
    root = make_site(tmp_path / "failing", ae_cache)
    result = build(root, pythonpath=package_copy)
    assert result.returncode != 0
    assert "figure softmax-curve:" in result.stderr and "broken on purpose" in result.stderr
    assert "lang=ko" in result.stderr and "theme=light" in result.stderr
    # the full traceback, down to the line that raised
    assert "Traceback (most recent call last)" in result.stderr
    assert 'softmax_curve.py", line' in result.stderr


@pytest.mark.parametrize(
    ("page_text", "expected"),
    [
        ("{{ae:no.such.number}}", "unknown number {{ae:no.such.number}} in index.en.md"),
        ("![](figures/no-such-figure.svg)", "unknown figure 'figures/no-such-figure.svg'"),
    ],
)
def test_bad_references_in_a_page_fail_the_build(tmp_path, ae_cache, page_text, expected):
    root = make_site(tmp_path / "bad", ae_cache)
    (root / "docs/index.en.md").write_text(f"# Bad\n\n{page_text}\n", encoding="utf-8")
    result = build(root)
    assert result.returncode != 0
    assert expected in result.stderr


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("jobs: 0", "expected an integer in [1, 64], got 0"),
        ("notebook_timeout: 5", "expected an integer in [10, 3600], got 5"),
        ("figures: maybe", "figures"),
    ],
)
def test_bad_plugin_options_fail_with_the_accepted_range(tmp_path, option, expected):
    replace = {"math: mathml": f"math: mathml\n      {option}"}
    root = make_site(tmp_path / "options", tmp_path / "cache", **replace)
    result = build(root)
    assert result.returncode != 0
    assert expected in result.stderr


def test_cache_inside_docs_is_refused(tmp_path):
    root = make_site(tmp_path / "inside", Path("docs/c"))
    result = build(root)
    assert result.returncode != 0
    assert "must be outside docs/" in result.stderr


def test_stale_numbers_are_made_before_the_pages_and_filled_everywhere(
    site, tmp_path, ae_cache, package_copy
):
    """Numbers stale (an edit to their code): the build runs the asset step first, then
    both languages and the search index have the numbers as rendered, none patched in."""
    module = package_copy / "attention_explained/content/pages.py"
    source = module.read_text(encoding="utf-8")
    head = "def compute() -> dict[str, str]:\n"
    assert source.count(head) == 1
    module.write_text(source.replace(head, head + "    _stale = True  # a new data key\n"), "utf-8")
    root = make_site(tmp_path / "stale-numbers", ae_cache)
    result = build(root, pythonpath=package_copy)
    assert result.returncode == 0, result.stderr
    log = result.stderr
    assert log.index("running the asset step first") < log.index("stage numbers")
    assert log.index("stage numbers") < log.index("Building 'en' documentation")
    for path in ("site/index.html", "site/en/index.html", "site/search/search_index.json"):
        assert "{{ae:" not in (root / path).read_text(encoding="utf-8"), path
    manifest = json.loads((ae_cache / "manifest.json").read_text(encoding="utf-8"))
    numbers = json.loads((ae_cache / manifest["numbers"]).read_text(encoding="utf-8"))
    for page in ("site/index.html", "site/en/index.html"):
        html = (root / page).read_text(encoding="utf-8")
        assert numbers["std.measured.d1024"] in html, page


def test_assets_only_the_english_build_adds_are_written(tmp_path, ae_cache):
    """A notebook page that exists only in English still gets its shared CSS and JS."""
    root = make_site(
        tmp_path / "en-only", ae_cache, **{"notebooks: []": "notebooks: [notebooks/*.md]"}
    )
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace(
        "nav:\n  - index.md",
        "  - mkdocs-jupyter:\n      execute: false\n      allow_errors: false\nnav:\n  - index.md",
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    (root / "docs/notebooks").mkdir()
    notebook(root / "docs/notebooks", "demo.en.md", "Demo", "print(6 * 7)")  # no Korean one
    result = build(root)
    assert result.returncode == 0, result.stderr
    assert not (root / "site/notebooks/demo").exists(), "the page must be English-only"
    page = root / "site/en/notebooks/demo/index.html"
    html = page.read_text(encoding="utf-8")
    links = re.findall(r'(?:href|src)="([^"]*assets/notebooks/[^"]+)"', html)
    assert len(links) == 2, links
    for link in links:
        assert (page.parent / link).resolve().is_file(), link


# The figures that have a phone layout, by hand: a figure that loses it, or a stray one,
# shows in the listing below.
PHONE_LAYOUTS = (
    "after-lr-sensitivity",
    "after-max-logit",
    "after-spread",
    "attention-graph",
    "logit-histograms",
    "logit-variance",
    "multi-head-diagram",
    "saturation-heatmaps",
    "softmax-curve",
    "softmax-gradient",
    "softmax-saturation",
    "temperature",
    "training-entropy",
    "training-gradient",
    "training-loss",
)


def test_the_whole_output_is_what_the_site_should_have(site):
    """sphinx-gallery's tinybuild idea: the full listing, so a stray or missing file shows."""
    root, _, _ = site
    theme = ("assets/javascripts/", "assets/stylesheets/", "assets/images/")
    found = [
        p
        for p in listing(root / "site")
        if (root / "site" / p).is_file() and not p.removeprefix("en/").startswith(theme)
    ]
    expected = ["404.html", "index.html", "sitemap.xml", "sitemap.xml.gz"]
    # One search index for both languages, and each language's query data (search.py).
    expected += ["search/search_index.json", "search/ko.json", "search/en.json"]
    # The math font and its CSS once, at the root: every language's pages link that copy.
    expected += ["assets/math/math.css", "assets/math/stix-two-math.woff2"]
    for prefix in ("", "en/"):
        expected += [f"{prefix}index.html", f"{prefix}assets/explorer/reference.json"]
        expected += [f"{prefix}llms.txt"]  # each language's, at its root (share.py)
        expected += [
            f"{prefix}figures/{figure_id}{suffix}.svg"
            for figure_id in FIGURE_IDS
            for suffix in ("", ".dark")
        ]
        # each figure's preview PNG for a shared link's card (share.py)
        expected += [f"{prefix}figures/{figure_id}.png" for figure_id in FIGURE_IDS]
        # a phone layout (.narrow), for the figures drawn in one (figures/registry.py layouts)
        expected += [
            f"{prefix}figures/{figure_id}.narrow{suffix}.svg"
            for figure_id in PHONE_LAYOUTS
            for suffix in ("", ".dark")
        ]
    assert found == sorted(set(expected))


# -- the asset step first (`python -m attention_explained assets build`), then the build ----


def assets_build(cache: Path) -> None:
    command = [sys.executable, "-m", "attention_explained", "assets", "build", "--cache-dir"]
    result = subprocess.run(
        [*command, str(cache)], capture_output=True, text=True, check=False, cwd=cache.parent
    )
    assert result.returncode == 0, result.stderr[-4000:]


@pytest.fixture(scope="module")
def manifest_cache(site, ae_cache, tmp_path_factory):
    """A copy of the session's cache with the asset step's manifest: everything is cached
    already, so the step only writes the manifest."""
    cache = tmp_path_factory.mktemp("manifest") / "cache"
    shutil.copytree(ae_cache, cache)
    assets_build(cache)
    return cache


def test_a_build_that_runs_the_asset_step_itself_writes_the_same_site(
    site, manifest_cache, tmp_path
):
    """``make build`` (the asset step, then MkDocs) and a bare ``mkdocs build`` (the plugin
    runs the asset step first) write the same files, byte for byte."""
    root, _, _ = site
    fresh = make_site(tmp_path / "fresh", manifest_cache)
    result = build(fresh)
    assert result.returncode == 0, result.stderr
    assert "running the asset step first" not in result.stderr
    bare_cache = tmp_path / "bare-cache"
    shutil.copytree(manifest_cache, bare_cache)
    (bare_cache / "manifest.json").unlink()
    bare = make_site(tmp_path / "bare", bare_cache)
    result = build(bare)
    assert result.returncode == 0, result.stderr
    assert "running the asset step first" in result.stderr
    files = listing(fresh / "site")
    assert listing(bare / "site") == files == listing(root / "site")
    differ = [
        p
        for p in files
        if (fresh / "site" / p).is_file()
        and (fresh / "site" / p).read_bytes() != (bare / "site" / p).read_bytes()
    ]
    assert differ == []


def test_numbers_may_stand_in_math_and_headings(manifest_cache, tmp_path):
    page = "# At d = {{ae:after.d_model}}\n\nThe spread $\\sigma = {{ae:after.d_model}}$.\n"
    for name, cache in (("fresh", manifest_cache), ("bare", tmp_path / "bare-cache")):
        if name == "bare":  # no manifest: the plugin runs the asset step first
            shutil.copytree(manifest_cache, cache)
            (cache / "manifest.json").unlink()
        root = make_site(tmp_path / name, cache)
        (root / "docs/index.en.md").write_text(page, encoding="utf-8")
        result = build(root)
        assert result.returncode == 0, result.stderr
        html = (root / "site/en/index.html").read_text(encoding="utf-8")
        assert '<h1 id="at-d-16">At d = 16' in html, name
        assert "<mi>σ</mi><mo>=</mo><mn>16</mn>" in html, name  # typeset with the number in it


def test_a_stale_manifest_runs_the_asset_step_first(manifest_cache, tmp_path, package_copy):
    module = package_copy / "attention_explained/figures/temperature.py"
    edit = "\n# the manifest does not know this\n"  # a key no other test's cache has
    module.write_text(module.read_text(encoding="utf-8") + edit, encoding="utf-8")
    cache = tmp_path / "cache"  # the other tests' manifest stays as it is
    shutil.copytree(manifest_cache, cache)
    before = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    root = make_site(tmp_path / "stale", cache)
    result = build(root, pythonpath=package_copy)
    assert result.returncode == 0, result.stderr
    assert "running the asset step first" in result.stderr
    assert f"figures rendered 1, from cache {len(FIGURE_IDS) - 1}" in result.stderr
    after = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    assert after["computed"]["figures"] == ["temperature"]
    assert after["keys"]["figures"]["temperature"] != before["keys"]["figures"]["temperature"]
