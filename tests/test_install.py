"""The package installs from a wheel into a clean virtualenv and runs the notebooks' code there,
as the notebooks' Colab cell expects (sitebuild/_internal/colab.py). Slow (a fresh environment with
TensorFlow), so it runs once per test session; CI runs it with the rest of the suite.

The wheel is built from this checkout with `pip wheel --no-deps`; its dependencies resolve
from the configured package index, pinned by constraints.txt. The code runs from an empty
folder, so `import attention_explained` can only find the installed wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from site_build import DEFAULT_LANG, DOCS, REPO, lang_of_source

from attention_explained.sitebuild._internal.colab import install_source
from attention_explained.sitebuild._internal.notebooks import code_cells

pytestmark = pytest.mark.venv

NOTEBOOKS = sorted(
    p for p in (DOCS / "notebooks").glob("*.md") if lang_of_source(p.name) == DEFAULT_LANG
)


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, check=False, **kwargs)
    assert result.returncode == 0, (
        f"{' '.join(cmd)}\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
    )
    return result


@pytest.fixture(scope="module")
def clean_env(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("install")
    # Build from a copy of what the wheel is made of, so setuptools' build/ stays out of the
    # checkout (pip builds in the source tree).
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "LICENSE-docs"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(
        REPO / "attention_explained",
        source / "attention_explained",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp / "dist"),
            str(source),
        ]
    )
    wheels = list((tmp / "dist").glob("attention_explained-*.whl"))
    assert len(wheels) == 1, wheels
    # The installer `make` uses (uv, beside this Python), else pip: both install the pins.
    uv = shutil.which("uv", path=str(Path(sys.executable).parent))
    venv.create(tmp / "venv", with_pip=uv is None, clear=True)
    python = tmp / "venv" / "bin" / "python"
    installer = [uv, "pip", "install", "--python", str(python)] if uv else [
        str(python), "-m", "pip", "install", "--disable-pip-version-check",
    ]  # fmt: skip
    run([*installer, "--quiet", "-c", str(REPO / "constraints.txt"), str(wheels[0])])
    return python


@pytest.mark.parametrize("source", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_notebook_runs_from_the_installed_wheel(clean_env, source, tmp_path):
    outside_colab = install_source(
        "https://github.com/attention-explained/attention_explained", "0" * 40
    )
    script = tmp_path / "notebook.py"
    script.write_text(
        "\n\n".join(
            [
                outside_colab,  # the notebook's first cell: does nothing outside Colab
                "import attention_explained, pathlib, sys\n"
                "assert 'site-packages' in pathlib.Path(attention_explained.__file__).parts, "
                "attention_explained.__file__",
                *code_cells(source.read_text(encoding="utf-8")),
            ]
        ),
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(MPLBACKEND="Agg", TF_CPP_MIN_LOG_LEVEL="2")
    run([str(clean_env), str(script)], cwd=tmp_path, env=env, timeout=900)
