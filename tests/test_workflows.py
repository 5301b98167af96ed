"""The GitHub Actions workflows, checked offline.

- check-jsonschema validates each workflow against the vendored GitHub workflow schema;
- zizmor (offline, medium severity and up) audits each workflow;
- every action is pinned to a full 40-hex commit SHA;
- least privilege: nothing granted at the top, each job declares its permissions, and only
  the Pages deployment may write (``pages``, ``id-token``);
- CI runs ``bash .ci/run``, and ``.ci/run`` ends in ``make test``; on every push, one job
  runs ``make test-fast`` then ``make test-site``.

``test_mutation_is_caught`` breaks a copy of a workflow one way at a time (parse the YAML,
change the data, dump it) and asserts that the check meant for it fails, so a check that
silently stops biting fails the suite.
"""

from __future__ import annotations

import copy
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
CI_RUN = ROOT / ".ci" / "run"
BIN = Path(sys.executable).parent
SHA = re.compile(r"[^@\s]+@[0-9a-f]{40}")
WRITE_SCOPES_NEEDED_BY = {
    "actions/deploy-pages": {"pages", "id-token"},
    # pushes the executed notebooks to the `colab` branch (pages.yml, job colab)
    "peaceiris/actions-gh-pages": {"contents"},
}


def load(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in doc:  # YAML 1.1 reads the bare key `on` as True
        doc["on"] = doc.pop(True)
    return doc


def dump(doc: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def tool(*args: str | Path) -> tuple[int, str]:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def schema_problems(path: Path) -> list[str]:
    rc, out = tool(BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", path)
    return [] if rc == 0 else [out]


def zizmor_problems(path: Path) -> list[str]:
    rc, out = tool(BIN / "zizmor", "--offline", "--min-severity", "medium", "--no-progress", path)
    return [] if rc == 0 else [out]


def steps(doc: dict[str, Any]):
    for job_id, job in (doc.get("jobs") or {}).items():
        for step in job.get("steps") or []:
            yield job_id, step


def pin_problems(path: Path) -> list[str]:
    doc = load(path)
    uses = [str(job["uses"]) for job in doc["jobs"].values() if "uses" in job]
    uses += [str(step["uses"]) for _, step in steps(doc) if "uses" in step]
    return [f"{path.name}: {u} is not pinned to a commit SHA" for u in uses if not SHA.fullmatch(u)]


def permission_problems(path: Path) -> list[str]:
    doc = load(path)
    top = doc.get("permissions", "missing")
    problems = []
    if not isinstance(top, dict) or set(top.values()) - {"read", "none"}:
        problems.append(f"{path.name}: top-level permissions must be {{}} or read-only: {top!r}")
    for job_id, job in doc["jobs"].items():
        perms = job.get("permissions")
        if not isinstance(perms, dict):
            problems.append(f"{path.name}: job {job_id} must declare its permissions")
            continue
        allowed = set().union(
            *(
                WRITE_SCOPES_NEEDED_BY.get(str(s.get("uses", "")).split("@")[0], set())
                for s in job.get("steps") or []
            )
        )
        problems += [
            f"{path.name}: job {job_id} does not need `{scope}: {level}`"
            for scope, level in perms.items()
            if level not in ("read", "none") and scope not in allowed
        ]
    return problems


def ci_run_problems(path: Path, ci_run: Path = CI_RUN) -> list[str]:
    """The CI workflow runs `bash .ci/run`, whose last command is `make test`; and on every
    push (a job with no `if`) `make test-fast`, then `make test-site`."""
    problems = []
    if path.name == "ci.yml":
        doc = load(path)
        runs = {str(step.get("run", "")).strip() for _, step in steps(doc)}
        if "bash .ci/run" not in runs:
            problems.append(f"{path.name}: no step runs `bash .ci/run`")
        every_push = [
            [str(step.get("run", "")).strip() for step in job.get("steps") or []]
            for job in doc["jobs"].values()
            if "if" not in job
        ]
        wanted = ["make test-fast", "make test-site"]
        if not any([r for r in job if r in wanted] == wanted for job in every_push):
            problems.append(f"{path.name}: no job runs {wanted} on every push")
    commands = [
        line.strip()
        for line in ci_run.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not commands or shlex.split(commands[-1]) != ["make", "test"]:
        problems.append(f"{ci_run}: must end with `make test`, ends with {commands[-1:]}")
    return problems


CHECKS: dict[str, Callable[[Path], list[str]]] = {
    "schema": schema_problems,
    "zizmor": zizmor_problems,
    "pins": pin_problems,
    "permissions": permission_problems,
    "ci-run": ci_run_problems,
}


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.name for w in WORKFLOWS])
def test_workflow_is_clean(workflow: Path, check: str):
    assert WORKFLOWS, "no workflows found"
    assert CHECKS[check](workflow) == []


# -- mutations: each must make its check fail --------------------------------------------------


def _first_step_using(doc, name):
    return next(s for _, s in steps(doc) if str(s.get("uses", "")).startswith(name))


def _unpin(doc):
    step = _first_step_using(doc, "actions/checkout")
    step["uses"] = "actions/checkout@v4"


def _write_all(doc):
    doc["permissions"] = "write-all"


def _job_write(doc):
    next(iter(doc["jobs"].values()))["permissions"]["contents"] = "write"


def _no_job_permissions(doc):
    next(iter(doc["jobs"].values())).pop("permissions")


def _bad_key(doc):
    next(iter(doc["jobs"].values()))["runs-on-typo"] = "ubuntu-latest"


def _injection(doc):
    job = next(iter(doc["jobs"].values()))
    job["steps"].append({"name": "echo", "run": "echo ${{ github.event.pull_request.title }}"})


def _drop_ci_run(doc):
    for _, step in steps(doc):
        if str(step.get("run", "")).strip() == "bash .ci/run":
            step["run"] = "make lint"


def _site_tests_only_on_main(doc):
    for job in doc["jobs"].values():
        if any(str(s.get("run", "")).strip() == "make test-site" for s in job.get("steps") or []):
            job["if"] = "github.ref == 'refs/heads/main'"


MUTATIONS = [
    ("ci.yml", _unpin, "pins"),
    ("pages.yml", _unpin, "pins"),
    ("ci.yml", _write_all, "permissions"),
    ("ci.yml", _job_write, "permissions"),
    ("pages.yml", _no_job_permissions, "permissions"),
    ("ci.yml", _bad_key, "schema"),
    ("ci.yml", _injection, "zizmor"),
    ("ci.yml", _drop_ci_run, "ci-run"),
    ("ci.yml", _site_tests_only_on_main, "ci-run"),
]


@pytest.mark.parametrize(
    ("name", "mutate", "check"), MUTATIONS, ids=[f"{n}-{m.__name__[1:]}" for n, m, _ in MUTATIONS]
)
def test_mutation_is_caught(tmp_path: Path, name: str, mutate, check: str):
    source = ROOT / ".github" / "workflows" / name
    original = load(source)
    doc = copy.deepcopy(original)
    mutate(doc)
    assert doc != original, "the mutation changed nothing"
    clean = dump(original, tmp_path / "clean/.github/workflows" / name)
    assert CHECKS[check](clean) == [], "the dumped original must pass, or the test proves nothing"
    assert CHECKS[check](dump(doc, tmp_path / "broken/.github/workflows" / name)) != []


def test_ci_run_must_end_in_make_test(tmp_path: Path):
    broken = tmp_path / "run"
    shutil.copy2(CI_RUN, broken)
    broken.write_text(CI_RUN.read_text().replace("make test", "make lint"), encoding="utf-8")
    assert ci_run_problems(ROOT / ".github/workflows/ci.yml", broken) != []
