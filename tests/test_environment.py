"""The pinned environment: requirements are exact, and Binder's install runs every chapter.

The slow test builds a brand-new virtual environment from ``requirements.txt`` alone, as
Binder does, and executes every book notebook in it, so that a dependency missing from the
pins fails here rather than in a reader's Binder session.
"""

import re
import subprocess
import venv

import pytest
from conftest import ROOT

PIN = re.compile(r"^[A-Za-z0-9._\[\]-]+==[A-Za-z0-9.+!-]+$")


def requirement_lines(name):
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_runtime_requirements_are_exact_pins_ending_with_the_package():
    lines = requirement_lines("requirements.txt")
    assert lines[-1] == "-e ."
    loose = [line for line in lines[:-1] if not PIN.match(line)]
    assert not loose, f"not pinned exactly: {loose}"
    names = {line.split("==")[0].lower() for line in lines[:-1]}
    for needed in ["jupyter-book", "numpy", "matplotlib", "ipywidgets", "ipykernel",
                   "scikit-learn", "nbval", "pytest"]:
        assert needed in names, f"{needed} missing from requirements.txt"
    version = next(line for line in lines if line.lower().startswith("jupyter-book=="))
    major = int(version.split("==")[1].split(".")[0])
    assert major == 1, f"Jupyter Book must be 1.x, got {version}"


def test_test_requirements_are_exact_pins():
    lines = requirement_lines("requirements-dev.txt")
    assert lines[0] == "-r requirements.txt"
    loose = [line for line in lines[1:] if not PIN.match(line)]
    assert not loose, f"not pinned exactly: {loose}"


def test_runtime_txt_names_python_311():
    assert (ROOT / "runtime.txt").read_text().strip() == "python-3.11"


@pytest.mark.slow
def test_binder_environment_runs_every_notebook(tmp_path):
    env_dir = tmp_path / "binder-env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-r",
                              "requirements.txt"], cwd=ROOT, capture_output=True, text=True,
                             timeout=1200)
    assert install.returncode == 0, install.stderr[-3000:]
    # The runner itself needs only nbclient and nbformat, which the runtime pins provide.
    run = subprocess.run([str(python), str(ROOT / "tools" / "run_notebooks.py"), "book"],
                         cwd=ROOT, capture_output=True, text=True, timeout=1200,
                         env={"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    print(run.stdout)
    notebooks = sorted((ROOT / "book").rglob("*.ipynb"))
    assert run.stdout.count(".ipynb") == len(notebooks) > 0
