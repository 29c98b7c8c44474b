"""The Gradescope bundle installs what grading needs and nothing that builds or tests the book:
``requirements-grader.txt`` is complete (every package's own requirements are in it), pinned
as ``requirements.txt`` is, and is what the bundle's ``setup.sh`` installs."""

import importlib.metadata as metadata
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from conftest import ROOT

GRADER = ROOT / "requirements-grader.txt"
ASSIGNMENT = ROOT / "exercises" / "02-binary-discriminant"


def pins(text):
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "-")):
            name, version = line.split("==")
            out[canonicalize_name(name)] = version
    return out


def missing_requirements(pinned):
    """``{package: [requirements of it (for this platform, no extras) that are not pinned]}``."""
    missing = {}
    for name in pinned:
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
                continue
            if canonicalize_name(requirement.name) not in pinned:
                missing.setdefault(name, []).append(requirement.name)
    return missing


def test_the_grader_pins_equal_the_book_pins():
    grader = pins(GRADER.read_text(encoding="utf-8"))
    book = pins((ROOT / "requirements.txt").read_text(encoding="utf-8"))
    differ = {n: (v, book.get(n)) for n, v in grader.items() if book.get(n) != v}
    assert not differ, f"requirements-grader.txt differs from requirements.txt: {differ}"
    assert len(grader) < len(book)


def test_the_grader_requirements_are_complete():
    assert missing_requirements(pins(GRADER.read_text(encoding="utf-8"))) == {}


def test_the_completeness_check_finds_a_missing_requirement():
    grader = pins(GRADER.read_text(encoding="utf-8"))
    del grader["tornado"]  # ipykernel and jupyter_client need it
    assert "ipykernel" in missing_requirements(grader)


def test_the_grader_requirements_hold_the_kernel_and_the_grader_not_the_book_tools():
    grader = pins(GRADER.read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = [Requirement(d).name for d in project["dependencies"]]
    needed += ["ipykernel", "nbformat", "PyYAML"]
    assert {canonicalize_name(n) for n in needed} <= set(grader)
    book_tools = {"jupyter-book", "sphinx", "myst-nb", "nbval", "pytest", "pydata-sphinx-theme",
                  "jupyter-cache", "nbclient", "coverage"}
    assert not book_tools & set(grader)


def test_the_bundle_installs_the_grader_requirements(tmp_path):
    from nbcourse.grading.gradescope import build_bundle

    bundle = build_bundle(ASSIGNMENT, tmp_path / "bundle.zip")
    with zipfile.ZipFile(bundle) as archive:
        shipped = archive.read("requirements.txt").decode("utf-8")
        setup = archive.read("setup.sh").decode("utf-8")
    assert shipped == GRADER.read_text(encoding="utf-8")
    assert '-r "$SRC/requirements.txt"' in setup


@pytest.mark.slow
@pytest.mark.network
@pytest.mark.sandbox
def test_the_lean_image_grades_the_solution(tmp_path):
    """The bundle's setup.sh, run into a fresh folder (packages from the index, no cache),
    gives an environment in which run_autograder grades the solution with full marks."""
    from nbcourse.grading.gradescope import build_bundle

    os.chmod(tmp_path, 0o755)  # the sandboxed kernel runs as another user and uses the venv
    root = tmp_path / "autograder"
    with zipfile.ZipFile(build_bundle(ASSIGNMENT, tmp_path / "bundle.zip")) as archive:
        archive.extractall(root / "source")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHON": sys.executable,
           "NBCOURSE_AUTOGRADER_ROOT": str(root)}
    done = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    installed = subprocess.run([str(root / "venv" / "bin" / "python"), "-m", "pip", "list",
                                "--format=json"], capture_output=True, text=True, check=True)
    names = {canonicalize_name(p["name"]) for p in json.loads(installed.stdout)}
    assert "sphinx" not in names and "jupyter-book" not in names and "ipykernel" in names
    for folder in ("submission", "results"):
        (root / folder).mkdir()
    shutil.copy(ASSIGNMENT / "solution.ipynb", root / "submission" / "solution.ipynb")
    (root / "submission_metadata.json").write_text(
        json.dumps({"users": [{"email": "example-student", "sid": None}]}))
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")],
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                               "NBCOURSE_AUTOGRADER_ROOT": str(root)},
                          cwd=root / "submission", capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 12.0, results
