"""The GitHub Actions workflows, checked offline.

- check-jsonschema validates each file against the vendored GitHub workflow schema;
- zizmor (offline, medium severity and up) audits the whole folder;
- plain-Python checks hold the rules of this project: every action pinned to a full commit
  SHA with its release in a trailing comment, checkouts without persisted credentials,
  least-privilege permissions on every job, no `${{ }}` inside `run:` scripts, only the
  README's make targets, the same setup-python and cache settings everywhere, and the Pages
  deployment wiring.

Each check returns a list of problems. `test_mutation_is_caught` breaks a copy of a workflow
in tmp_path in one way at a time and asserts that the check meant to catch it does, so a
check that silently stops biting fails the suite.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS_DIR = ROOT / ".github" / "workflows"
WORKFLOW_NAMES = ("ci.yml", "pages.yml")
WORKFLOWS = [WORKFLOWS_DIR / name for name in WORKFLOW_NAMES]

BIN = Path(sys.executable).parent
CHECK_JSONSCHEMA = BIN / "check-jsonschema"
ZIZMOR = BIN / "zizmor"

Check = Callable[[Path], list[str]]

SHA = re.compile(r"[0-9a-f]{40}")
RELEASE_COMMENT = re.compile(r"v\d+\.\d+\.\d+\S*")
USES_LINE = re.compile(
    r"""^\s*(?:-\s+)?uses:\s*(?P<q>["']?)(?P<ref>[^\s"'#]+)(?P=q)\s*(?:\#\s*(?P<comment>.*?))?\s*$"""
)
USES_KEY = re.compile(r"^\s*(?:-\s+)?uses\s*:")

# Write scopes a job may hold, by the action that needs them; every other scope stays read/none.
WRITE_SCOPES_NEEDED_BY = {
    "actions/deploy-pages": {"pages", "id-token"},
    # pushes the executed notebooks to the `colab` branch (pages.yml, job colab)
    "peaceiris/actions-gh-pages": {"contents"},
}
# Every `run:` is one of the README's entry points (`.ci/run` is `make test` plus apt-get).
ALLOWED_RUNS = {"make lint", "make test", "make build", "bash .ci/run"}
EXPECTED_RUNS = {"ci.yml": {"make lint", "bash .ci/run", "make build"}, "pages.yml": {"make build"}}
PYTHON_VERSION = "3.11"
CONTENT_CACHE_PATHS = {".cache/figures", ".cache/notebooks", ".cache/data"}
CONTENT_CACHE_HASH = "hashFiles('constraints.txt', 'attention_explained/**/*.py')"


# --------------------------------------------------------------------------- helpers


def load(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict), f"{path.name}: not a YAML mapping"
    return doc


def triggers(doc: dict[str, Any]) -> dict[str, Any]:
    # YAML 1.1 (PyYAML) reads the bare key `on` as the boolean True.
    on = doc.get("on", doc.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return dict.fromkeys(on)
    return on or {}


def jobs(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return doc.get("jobs") or {}


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return job.get("steps") or []


def all_steps(doc: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for job_id, job in jobs(doc).items():
        for step in steps(job):
            yield job_id, step


def action(uses: str) -> str:
    """`owner/repo[/path]@ref` -> `owner/repo[/path]`."""
    return uses.split("@", 1)[0]


def uses_action(step: dict[str, Any], name: str) -> bool:
    return action(str(step.get("uses", ""))) == name


def run_of(step: dict[str, Any]) -> str | None:
    run = step.get("run")
    return None if run is None else str(run).strip()


def run_tool(args: list[str | Path]) -> tuple[int, str]:
    assert Path(args[0]).is_file(), f"{args[0]} is missing: install the project's [test] extra"
    proc = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=300, check=False
    )
    return proc.returncode, f"{proc.stdout}\n{proc.stderr}".strip()


# --------------------------------------------------------------------------- external validators


def schema_problems(path: Path) -> list[str]:
    rc, out = run_tool([CHECK_JSONSCHEMA, "--builtin-schema", "vendor.github-workflows", path])
    return [] if rc == 0 else [f"check-jsonschema exited {rc} on {path.name}:\n{out}"]


def zizmor_problems(target: Path) -> list[str]:
    rc, out = run_tool(
        [
            ZIZMOR,
            "--offline",
            "--min-severity",
            "medium",
            "--format",
            "plain",
            "--color",
            "never",
            "--no-progress",
            target,
        ]
    )
    return [] if rc == 0 else [f"zizmor exited {rc} on {target}:\n{out}"]


# --------------------------------------------------------------------------- project rules


def pin_problems(path: Path) -> list[str]:
    """Every `uses:` is `owner/repo@<40-hex SHA> # vX.Y.Z` (local `./` refs excepted)."""
    problems = []
    doc = load(path)
    parsed = [str(job["uses"]) for job in jobs(doc).values() if "uses" in job]
    parsed += [str(step["uses"]) for _, step in all_steps(doc) if "uses" in step]
    raw = [
        (n, line)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if USES_KEY.match(line)
    ]
    if len(raw) != len(parsed):
        problems.append(
            f"{path.name}: {len(parsed)} uses in the YAML but {len(raw)} `uses:` lines: "
            "write each `uses:` on its own line"
        )
    for n, line in raw:
        where = f"{path.name}:{n}"
        m = USES_LINE.match(line)
        if not m:
            problems.append(f"{where}: cannot read this `uses:` line: {line.strip()}")
            continue
        ref, comment = m["ref"], m["comment"]
        if ref.startswith("./"):
            continue
        name, _, pin = ref.partition("@")
        if not name or not SHA.fullmatch(pin):
            problems.append(f"{where}: {ref} is not pinned to a full 40-hex commit SHA")
        if not comment or not RELEASE_COMMENT.fullmatch(comment):
            problems.append(f"{where}: {ref} needs a trailing `# vX.Y.Z` release comment")
    return problems


def pin_consistency_problems(path: Path) -> list[str]:
    """Across all workflows beside `path`: one SHA per action, one release name per SHA."""
    shas: dict[str, set[str]] = {}
    comments: dict[str, set[str]] = {}
    for wf in sorted(path.parent.glob("*.y*ml")):
        for line in wf.read_text(encoding="utf-8").splitlines():
            m = USES_LINE.match(line)
            if not m or m["ref"].startswith("./") or "@" not in m["ref"]:
                continue
            name, _, pin = m["ref"].partition("@")
            shas.setdefault(name, set()).add(pin)
            comments.setdefault(m["ref"], set()).add(m["comment"] or "")
    problems = [
        f"{name} is pinned to several commits: {sorted(pins)}"
        for name, pins in shas.items()
        if len(pins) > 1
    ]
    problems += [
        f"{ref} carries several release comments: {sorted(names)}"
        for ref, names in comments.items()
        if len(names) > 1
    ]
    return problems


def checkout_problems(path: Path) -> list[str]:
    problems = []
    for job_id, step in all_steps(load(path)):
        if uses_action(step, "actions/checkout"):
            value = (step.get("with") or {}).get("persist-credentials")
            if value not in (False, "false"):
                problems.append(
                    f"{path.name}: job {job_id}: checkout needs `persist-credentials: false` "
                    f"(found {value!r})"
                )
    return problems


def permission_problems(path: Path) -> list[str]:
    problems = []
    doc = load(path)
    if "permissions" not in doc:
        problems.append(f"{path.name}: no top-level `permissions:` (use `permissions: {{}}`)")
    else:
        top = doc["permissions"]
        if not isinstance(top, dict) or any(v not in ("read", "none") for v in top.values()):
            problems.append(f"{path.name}: top-level permissions must grant no write: {top!r}")
    for job_id, job in jobs(doc).items():
        if "permissions" not in job:
            problems.append(f"{path.name}: job {job_id} declares no `permissions:`")
            continue
        perms = job["permissions"]
        if not isinstance(perms, dict):
            problems.append(f"{path.name}: job {job_id}: permissions must be a mapping: {perms!r}")
            continue
        allowed: set[str] = set()
        for step in steps(job):
            allowed |= WRITE_SCOPES_NEEDED_BY.get(action(str(step.get("uses", ""))), set())
        for scope, level in perms.items():
            if level == "write" and scope not in allowed:
                problems.append(f"{path.name}: job {job_id} does not need `{scope}: write`")
            elif level not in ("read", "write", "none"):
                problems.append(f"{path.name}: job {job_id}: `{scope}: {level}` is not valid")
    return problems


def run_template_problems(path: Path) -> list[str]:
    """No `${{ }}` in scripts (template injection): values go through `env:`."""
    return [
        f"{path.name}: job {job_id}: `${{{{` inside run: {run!r} (pass it through env:)"
        for job_id, step in all_steps(load(path))
        if (run := run_of(step)) is not None and "${{" in run
    ]


def run_problems(path: Path) -> list[str]:
    """Only the README's make targets run, and each workflow runs the ones it is for."""
    runs = [(job_id, run) for job_id, step in all_steps(load(path)) if (run := run_of(step))]
    problems = [
        f"{path.name}: job {job_id}: `{run}` is not one of {sorted(ALLOWED_RUNS)}"
        for job_id, run in runs
        if run not in ALLOWED_RUNS
    ]
    missing = EXPECTED_RUNS.get(path.name, set()) - {run for _, run in runs}
    if missing:
        problems.append(f"{path.name}: never runs {sorted(missing)}")
    return problems


def setup_problems(path: Path) -> list[str]:
    """setup-python and the content cache are configured the same way in every job."""
    problems = []
    for job_id, job in jobs(load(path)).items():
        where = f"{path.name}: job {job_id}"
        job_steps = steps(job)
        for step in job_steps:
            if uses_action(step, "actions/setup-python"):
                got = step.get("with") or {}
                want = {
                    "python-version": PYTHON_VERSION,
                    "cache": "pip",
                    "cache-dependency-path": "constraints.txt",
                }
                for key, value in want.items():
                    if got.get(key) != value:
                        problems.append(f"{where}: setup-python {key} is {got.get(key)!r}")
        runs = {run_of(s) for s in job_steps}
        if runs & {"make build", "make test", "bash .ci/run"}:
            if not any(uses_action(s, "actions/setup-python") for s in job_steps):
                problems.append(f"{where}: builds without actions/setup-python")
            caches = [s.get("with") or {} for s in job_steps if uses_action(s, "actions/cache")]
            if not caches:
                problems.append(f"{where}: builds without the .cache/ content cache")
            for cache in caches:
                paths = set(str(cache.get("path", "")).split())
                key = str(cache.get("key", ""))
                restore = str(cache.get("restore-keys", "")).split("\n")
                restore = [prefix.strip() for prefix in restore if prefix.strip()]
                if not paths >= CONTENT_CACHE_PATHS:
                    problems.append(f"{where}: cache path lacks {CONTENT_CACHE_PATHS - paths}")
                if CONTENT_CACHE_HASH not in key:
                    problems.append(f"{where}: cache key must hash {CONTENT_CACHE_HASH}: {key}")
                if not restore or not all(key.startswith(prefix) for prefix in restore):
                    problems.append(f"{where}: restore-keys must be prefixes of the key")
    return problems


def ci_problems(path: Path) -> list[str]:
    doc = load(path)
    problems = [
        f"{path.name}: not triggered on {event}"
        for event in ("push", "pull_request")
        if event not in triggers(doc)
    ]
    uploads = {
        str((step.get("with") or {}).get("path", "")).rstrip("/"): step.get("with") or {}
        for _, step in all_steps(doc)
        if uses_action(step, "actions/upload-artifact")
    }
    if "site" not in uploads:
        problems.append(f"{path.name}: the built site/ is not uploaded")
    shots = uploads.get("test-artifacts")
    if shots is None:
        problems.append(f"{path.name}: the test-artifacts/ screenshots are not uploaded")
    elif shots.get("if-no-files-found") != "warn":
        problems.append(f"{path.name}: test-artifacts/ upload needs if-no-files-found: warn")
    return problems


def pages_problems(path: Path) -> list[str]:
    doc = load(path)
    problems = []
    on = triggers(doc)
    if "main" not in ((on.get("push") or {}).get("branches") or []):
        problems.append(f"{path.name}: not triggered on push to main")
    if "workflow_dispatch" not in on:
        problems.append(f"{path.name}: no workflow_dispatch")
    if not any(isinstance(s, dict) and s.get("cron") for s in on.get("schedule") or []):
        problems.append(f"{path.name}: no schedule cron")
    concurrency = doc.get("concurrency")
    if not isinstance(concurrency, dict) or not concurrency.get("group"):
        problems.append(f"{path.name}: needs a concurrency group")
    elif concurrency.get("cancel-in-progress") is not False:
        problems.append(f"{path.name}: a started deployment must not be cancelled")

    deploys = 0
    for job_id, job in jobs(doc).items():
        where = f"{path.name}: job {job_id}"
        ids: dict[str, str] = {}  # action -> step id, for the steps seen so far
        for step in steps(job):
            name = action(str(step.get("uses", "")))
            if name:
                ids[name] = str(step.get("id", ""))
            if name == "actions/upload-pages-artifact" and (step.get("with") or {}).get(
                "path"
            ) not in ("site", "site/"):
                problems.append(f"{where}: upload-pages-artifact must upload site")
            if run_of(step) == "make build":
                want = f"${{{{ steps.{ids.get('actions/configure-pages')}.outputs.base_url }}}}"
                got = (step.get("env") or {}).get("SITE_URL")
                if "actions/configure-pages" not in ids or got != want:
                    problems.append(f"{where}: make build needs env SITE_URL: {want} (got {got!r})")
            if name == "actions/deploy-pages":
                deploys += 1
                env = job.get("environment") or {}
                want = f"${{{{ steps.{step.get('id')}.outputs.page_url }}}}"
                if not isinstance(env, dict) or env.get("name") != "github-pages":
                    problems.append(f"{where}: deploy needs environment github-pages")
                elif env.get("url") != want:
                    problems.append(f"{where}: environment url must be {want}")
                perms = job.get("permissions") or {}
                if perms.get("pages") != "write" or perms.get("id-token") != "write":
                    problems.append(f"{where}: deploy needs pages: write and id-token: write")
    if deploys != 1:
        problems.append(f"{path.name}: {deploys} actions/deploy-pages steps, expected 1")
    return problems


RULES: dict[str, Check] = {
    "pins": pin_problems,
    "pin-consistency": pin_consistency_problems,
    "checkout": checkout_problems,
    "permissions": permission_problems,
    "run-templates": run_template_problems,
    "runs": run_problems,
    "setup": setup_problems,
}


# --------------------------------------------------------------------------- the real files


def test_both_workflows_exist():
    found = sorted(p.name for p in WORKFLOWS_DIR.glob("*.y*ml"))
    assert found == sorted(WORKFLOW_NAMES)


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=WORKFLOW_NAMES)
def test_schema(workflow: Path):
    problems = schema_problems(workflow)
    assert not problems, "\n".join(problems)


def test_zizmor_offline():
    problems = zizmor_problems(WORKFLOWS_DIR)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("workflow", WORKFLOWS, ids=WORKFLOW_NAMES)
def test_rule(workflow: Path, rule: str):
    problems = RULES[rule](workflow)
    assert not problems, "\n".join(problems)


def test_ci_workflow():
    problems = ci_problems(WORKFLOWS_DIR / "ci.yml")
    assert not problems, "\n".join(problems)


def test_pages_workflow():
    problems = pages_problems(WORKFLOWS_DIR / "pages.yml")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- the checks bite


@dataclass(frozen=True)
class Mutation:
    id: str
    workflow: str
    pattern: str  # a multiline regex, replaced `count` times (0: everywhere)
    replacement: str
    check: Check
    expect: str  # a piece of the problem report that the mutation must cause
    count: int = 1


JOB_PERMISSIONS = r"^    permissions:\n(?:      .*\n)+"
CHECKOUT_WITH = r"^ *with:\n *persist-credentials: false\n"
ANY_PIN = r"@[0-9a-f]{40}(?= # v)"

MUTATIONS = [
    # check-jsonschema
    Mutation(
        "schema:runs-on-typo",
        "ci.yml",
        r"runs-on:",
        "run-on:",
        schema_problems,
        "'runs-on' is a required property",
    ),
    Mutation(
        "schema:bad-trigger",
        "pages.yml",
        r"workflow_dispatch:",
        "dispatch:",
        schema_problems,
        "$.on",
    ),
    Mutation(
        "schema:cancel-not-bool",
        "pages.yml",
        r"cancel-in-progress: false",
        "cancel-in-progress: never",
        schema_problems,
        "cancel-in-progress",
    ),
    # zizmor
    Mutation("zizmor:artipacked", "ci.yml", CHECKOUT_WITH, "", zizmor_problems, "artipacked"),
    Mutation(
        "zizmor:template-injection",
        "ci.yml",
        r"run: make lint",
        'run: echo "${{ github.event.pull_request.title }}"',
        zizmor_problems,
        "template-injection",
    ),
    Mutation(
        "zizmor:default-permissions",
        "ci.yml",
        rf"^permissions: \{{\}}\n|{JOB_PERMISSIONS}",
        "",
        zizmor_problems,
        "excessive-permissions",
        count=0,
    ),
    Mutation(
        "zizmor:unpinned",
        "pages.yml",
        r"(actions/deploy-pages)@[0-9a-f]{40}",
        r"\1@main",
        zizmor_problems,
        "unpinned-uses",
    ),
    # pins
    Mutation(
        "pins:tag-not-sha",
        "ci.yml",
        ANY_PIN,
        "@v7",
        pin_problems,
        "not pinned to a full 40-hex commit SHA",
    ),
    Mutation(
        "pins:short-sha",
        "pages.yml",
        r"@([0-9a-f]{7})[0-9a-f]{33}",
        r"@\1",
        pin_problems,
        "not pinned to a full 40-hex commit SHA",
    ),
    Mutation(
        "pins:no-comment",
        "ci.yml",
        r"(@[0-9a-f]{40}) # v.*",
        r"\1",
        pin_problems,
        "release comment",
    ),
    Mutation(
        "pins:comment-not-release",
        "pages.yml",
        r"(@[0-9a-f]{40}) # v.*",
        r"\1 # latest",
        pin_problems,
        "release comment",
    ),
    Mutation(
        "pins:quoted-tag",
        "pages.yml",
        r"uses: (actions/configure-pages)@[0-9a-f]{40}",
        r'uses: "\1@v5"',
        pin_problems,
        "not pinned to a full 40-hex commit SHA",
    ),
    Mutation(
        "pins:flow-style",
        "pages.yml",
        r"^      - name: Deploy\n.*\n *uses: (\S+).*",
        r"      - {name: Deploy, id: deployment, uses: \1}",
        pin_problems,
        "`uses:` lines",
    ),
    Mutation(
        "pins:two-shas",
        "ci.yml",
        r"(actions/checkout@)[0-9a-f]{40}",
        r"\g<1>" + "0" * 40,
        pin_consistency_problems,
        "several commits",
    ),
    Mutation(
        "pins:two-names",
        "pages.yml",
        r"(actions/checkout@[0-9a-f]{40}) # v.*",
        r"\1 # v0.0.1",
        pin_consistency_problems,
        "several release comments",
    ),
    # checkout
    Mutation(
        "checkout:persist-true",
        "ci.yml",
        r"persist-credentials: false",
        "persist-credentials: true",
        checkout_problems,
        "persist-credentials: false",
    ),
    Mutation(
        "checkout:persist-unset",
        "pages.yml",
        CHECKOUT_WITH,
        "",
        checkout_problems,
        "persist-credentials: false",
    ),
    # permissions
    Mutation(
        "permissions:job-undeclared",
        "ci.yml",
        JOB_PERMISSIONS,
        "",
        permission_problems,
        "declares no `permissions:`",
    ),
    Mutation(
        "permissions:no-top-level",
        "pages.yml",
        r"^permissions: \{\}\n",
        "",
        permission_problems,
        "no top-level `permissions:`",
    ),
    Mutation(
        "permissions:top-write-all",
        "ci.yml",
        r"^permissions: \{\}",
        "permissions: write-all",
        permission_problems,
        "top-level permissions must grant no write",
    ),
    Mutation(
        "permissions:top-write",
        "pages.yml",
        r"^permissions: \{\}",
        "permissions:\n  contents: write",
        permission_problems,
        "top-level permissions must grant no write",
    ),
    Mutation(
        "permissions:job-write-all",
        "ci.yml",
        JOB_PERMISSIONS,
        "    permissions: write-all\n",
        permission_problems,
        "permissions must be a mapping",
    ),
    Mutation(
        "permissions:build-writes",
        "pages.yml",
        r"contents: read",
        "contents: write",
        permission_problems,
        "does not need `contents: write`",
    ),
    Mutation(
        "permissions:deploy-extra-write",
        "pages.yml",
        r"(      id-token: write.*\n)",
        r"\1      contents: write\n",
        permission_problems,
        "does not need `contents: write`",
    ),
    # run templates
    Mutation(
        "run-templates:inline",
        "pages.yml",
        r"run: make build",
        'run: SITE_URL="${{ steps.pages.outputs.base_url }}" make build',
        run_template_problems,
        "inside run",
    ),
    Mutation(
        "run-templates:block",
        "ci.yml",
        r"run: make lint",
        "run: |\n          echo ${{ github.ref }}\n          make lint",
        run_template_problems,
        "inside run",
    ),
    # runs
    Mutation(
        "runs:ad-hoc-pip",
        "ci.yml",
        r"run: make lint",
        "run: pip install ruff && ruff check .",
        run_problems,
        "is not one of",
    ),
    Mutation(
        "runs:lint-dropped",
        "ci.yml",
        r"run: make lint",
        "run: make test",
        run_problems,
        "never runs ['make lint']",
    ),
    Mutation(
        "runs:pages-no-build",
        "pages.yml",
        r"run: make build",
        "run: make lint",
        run_problems,
        "never runs ['make build']",
    ),
    # setup
    Mutation(
        "setup:other-python",
        "ci.yml",
        r'python-version: "3.11"',
        'python-version: "3.12"',
        setup_problems,
        "python-version is '3.12'",
    ),
    Mutation(
        "setup:float-python",
        "pages.yml",
        r'python-version: "3.11"',
        "python-version: 3.11",
        setup_problems,
        "python-version is 3.11",
    ),
    Mutation(
        "setup:no-pip-cache",
        "ci.yml",
        r"^ *cache: pip\n",
        "",
        setup_problems,
        "setup-python cache is None",
    ),
    Mutation(
        "setup:cache-dep-path",
        "pages.yml",
        r"cache-dependency-path: constraints.txt",
        "cache-dependency-path: pyproject.toml",
        setup_problems,
        "cache-dependency-path is 'pyproject.toml'",
    ),
    Mutation(
        "setup:cache-path",
        "pages.yml",
        r"^ *\.cache/data\n",
        "",
        setup_problems,
        "cache path lacks",
    ),
    Mutation(
        "setup:cache-key",
        "ci.yml",
        re.escape(CONTENT_CACHE_HASH),
        "hashFiles('constraints.txt')",
        setup_problems,
        "cache key must hash",
        count=0,
    ),
    Mutation(
        "setup:restore-key",
        "pages.yml",
        r"(restore-keys: \|\n\s*)content-",
        r"\1other-",
        setup_problems,
        "restore-keys must be prefixes",
    ),
    Mutation(
        "setup:no-cache-step",
        "pages.yml",
        r"uses: actions/cache@",
        "uses: actions/cachex@",
        setup_problems,
        "builds without the .cache/ content cache",
    ),
    # ci
    Mutation(
        "ci:no-pr",
        "ci.yml",
        r"^  pull_request:\n",
        "",
        ci_problems,
        "not triggered on pull_request",
    ),
    Mutation(
        "ci:no-site-upload",
        "ci.yml",
        r"path: site/",
        "path: site-copy/",
        ci_problems,
        "site/ is not uploaded",
    ),
    Mutation(
        "ci:screenshots-error",
        "ci.yml",
        r"if-no-files-found: warn",
        "if-no-files-found: error",
        ci_problems,
        "if-no-files-found: warn",
    ),
    Mutation(
        "ci:no-screenshots",
        "ci.yml",
        r"path: test-artifacts/",
        "path: screenshots/",
        ci_problems,
        "screenshots are not uploaded",
    ),
    # pages
    Mutation(
        "pages:cancel",
        "pages.yml",
        r"cancel-in-progress: false",
        "cancel-in-progress: true",
        pages_problems,
        "must not be cancelled",
    ),
    Mutation(
        "pages:no-concurrency",
        "pages.yml",
        r"^concurrency:\n(?:  .*\n)+",
        "",
        pages_problems,
        "needs a concurrency group",
    ),
    Mutation(
        "pages:no-schedule",
        "pages.yml",
        r"^  schedule:\n.*\n",
        "",
        pages_problems,
        "no schedule cron",
    ),
    Mutation(
        "pages:no-dispatch",
        "pages.yml",
        r"^  workflow_dispatch:\n",
        "",
        pages_problems,
        "no workflow_dispatch",
    ),
    Mutation(
        "pages:other-branch",
        "pages.yml",
        r"branches: \[main\]",
        "branches: [trunk]",
        pages_problems,
        "not triggered on push to main",
    ),
    Mutation(
        "pages:fixed-site-url",
        "pages.yml",
        r"SITE_URL: \$\{\{.*\}\}",
        "SITE_URL: https://example.org/",
        pages_problems,
        "make build needs env SITE_URL",
    ),
    Mutation(
        "pages:no-environment",
        "pages.yml",
        r"^    environment:\n(?:      .*\n)+",
        "",
        pages_problems,
        "deploy needs environment github-pages",
    ),
    Mutation(
        "pages:env-url",
        "pages.yml",
        r"outputs\.page_url",
        "outputs.url",
        pages_problems,
        "environment url must be",
    ),
    Mutation(
        "pages:upload-path",
        "pages.yml",
        r"(upload-pages-artifact.*\n.*\n\s*path:) site",
        r"\1 _site",
        pages_problems,
        "must upload site",
    ),
    Mutation(
        "pages:no-id-token",
        "pages.yml",
        r"^      id-token: write.*\n",
        "",
        pages_problems,
        "needs pages: write and id-token: write",
    ),
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.id for m in MUTATIONS])
def test_mutation_is_caught(mutation: Mutation, tmp_path: Path):
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    for wf in WORKFLOWS:
        (folder / wf.name).write_text(wf.read_text(encoding="utf-8"), encoding="utf-8")
    target = folder / mutation.workflow

    # Control: the unmodified copy passes in this location, so a failure below is the mutation's.
    control = mutation.check(target)
    assert not control, "\n".join(control)

    original = target.read_text(encoding="utf-8")
    mutated, n = re.subn(
        mutation.pattern, mutation.replacement, original, count=mutation.count, flags=re.M
    )
    assert n >= 1 and mutated != original, f"{mutation.id}: the pattern no longer matches"
    target.write_text(mutated, encoding="utf-8")
    report = "\n".join(mutation.check(target))
    assert report, f"{mutation.id}: the mutated workflow was not caught"
    assert mutation.expect in report, (
        f"{mutation.id}: caught, but not for the expected reason:\n{report}"
    )
