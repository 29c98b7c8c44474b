"""The pinned environment: requirements are exact pins of a Jupyter Book 1.x toolchain.

What Binder installs is ``binder/``, not this file; ``tests/test_student_tree.py`` builds that
environment from scratch and runs every student chapter in it.
"""

import re

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
    own = [line for line in lines[1:] if line.startswith("-e ./")]  # the project's packages
    assert all((ROOT / line[5:] / "pyproject.toml").is_file() for line in own), own
    loose = [line for line in lines[1:] if not PIN.match(line) and line not in own]
    assert not loose, f"not pinned exactly: {loose}"


def test_runtime_txt_names_python_311():
    assert (ROOT / "runtime.txt").read_text().strip() == "python-3.11"
