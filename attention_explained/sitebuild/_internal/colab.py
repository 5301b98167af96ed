"""Open in Colab: each executed notebook starts by installing the package at its own commit.

Colab opens notebooks from GitHub (``colab.research.google.com/github/<owner>/<repo>/blob/
<ref>/<path>``), but the repository holds only jupytext Markdown. So the build adds a first
cell to every executed ``.ipynb`` it publishes, and the Pages workflow pushes those files,
at their site paths, to the ``colab`` branch; the page's Colab button opens the file there.

The cell installs ``attention_explained @ git+<repo_url>@<commit>`` only inside Colab, with
``--no-deps`` plus the one dependency Colab lacks: Colab already ships NumPy, Matplotlib,
TensorFlow and Keras, and our ``tensorflow-cpu`` requirement would pull a second TensorFlow
over them. The commit is the build's (GITHUB_SHA in Actions, else ``git rev-parse HEAD``), the
URL is ``repo_url`` from mkdocs.yml (REPO_URL in the workflow): never typed by hand. The cell
is added after execution and is not run by the build (it does nothing outside Colab), so the
notebooks' code cells, and their cache, stay the same in both languages and across commits.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

BRANCH = "colab"
TAG = "colab-install"
# Colab lacks only this runtime dependency of the package (see the module docstring).
COLAB_EXTRA = ("koreanize-matplotlib",)


def build_commit(env: dict[str, str] | None = None, repo_dir: Path | None = None) -> str:
    """The commit being built: GITHUB_SHA, else the checkout's HEAD."""
    env = os.environ if env is None else env
    sha = env.get("GITHUB_SHA", "").strip()
    if not sha:
        result = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=repo_dir,
            capture_output=True,
            text=True,
            check=False,
        )
        sha = result.stdout.strip() if result.returncode == 0 else ""
    if not re.fullmatch(r"[0-9a-f]{40}", sha):
        raise ValueError(
            f"GITHUB_SHA: expected a 40-digit commit (or a git checkout to read HEAD), got {sha!r}"
        )
    return sha


def github_repo(repo_url: str) -> str:
    """'owner/name' of a GitHub repository URL."""
    parts = urlsplit(repo_url.strip())
    path = parts.path.strip("/").removesuffix(".git")
    if parts.netloc != "github.com" or path.count("/") != 1:
        raise ValueError(f"repo_url: expected https://github.com/<owner>/<name>, got {repo_url!r}")
    return path


def colab_url(repo_url: str, site_path: str, branch: str = BRANCH) -> str:
    """Colab's URL for the notebook at `site_path` (site-relative) on `branch`."""
    return (
        f"https://colab.research.google.com/github/{github_repo(repo_url)}"
        f"/blob/{branch}/{site_path.lstrip('/')}"
    )


def install_source(repo_url: str, commit: str) -> str:
    """The install cell's code: the same text for every notebook and both languages."""
    spec = f"attention_explained @ git+{repo_url.rstrip('/')}@{commit}"
    args = ", ".join(json.dumps(a) for a in ("--quiet", "--no-deps", spec, *COLAB_EXTRA))
    return (
        "# In Colab: install attention_explained at the commit this notebook was built from.\n"
        "# Elsewhere this cell does nothing: install the package as the README says.\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        'if "google.colab" in sys.modules:\n'
        f'    subprocess.check_call([sys.executable, "-m", "pip", "install", {args}])'
    )


def with_install_cell(notebook: dict, repo_url: str, commit: str) -> dict:
    """`notebook` (nbformat 4 JSON) with the install cell first, replacing an earlier one."""
    cells = [
        c for c in notebook.get("cells", []) if TAG not in c.get("metadata", {}).get("tags", [])
    ]
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "id": "colab-install",
        "metadata": {"tags": [TAG]},
        "outputs": [],
        "source": install_source(repo_url, commit),
    }
    return {**notebook, "cells": [cell, *cells]}


def add_install_cell(path: Path, repo_url: str, commit: str, *, source: Path | None = None) -> None:
    """Write the .ipynb at `path`: `source` (default: `path` itself) with the install cell
    first. Atomically (a reader sees the old file or the new one, never half of it), and
    never into `source`: the build passes the executed notebook's sealed cache entry."""
    from attention_explained.figures.render import write_atomic

    notebook = json.loads(Path(source or path).read_text(encoding="utf-8"))
    notebook = with_install_cell(notebook, repo_url, commit)
    if notebook.get("nbformat_minor", 0) < 5:  # cell ids need nbformat 4.5
        notebook["nbformat_minor"] = 5
    text = json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"
    write_atomic(Path(path), text.encode("utf-8"))
