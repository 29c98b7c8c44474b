"""The publishing workflows in .github/workflows: actionlint passes on them (and fails on a
broken one), and they run the README's make targets."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
# The environment's own actionlint (requirements-dev.txt), never one found elsewhere.
ACTIONLINT = Path(sys.executable).parent / "actionlint"


def actionlint(folder):
    """actionlint over the workflows in ``folder``; ShellCheck and pyflakes are left out so
    the result does not depend on what else the machine has."""
    files = sorted(str(p) for p in folder.glob("*.yml"))
    assert files, f"no workflow in {folder}"
    return subprocess.run([str(ACTIONLINT), "-no-color", "-shellcheck=", "-pyflakes=", *files],
                          capture_output=True, text=True, cwd=folder, timeout=120)


def workflow(name):
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def steps(data):
    return [s for job in data["jobs"].values() for s in job.get("steps", [])]


def runs(data):
    return "\n".join(s.get("run", "") for s in steps(data))


def uses(data):
    return [s["uses"].split("@")[0] for s in steps(data) if "uses" in s]


def test_actionlint_passes_on_the_workflows():
    done = actionlint(WORKFLOWS)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name, change, message", [
    ("book.yml", lambda t: t.replace("path: _build/html", "paht: _build/html"),
     'input "paht" is not defined in action "actions/upload-pages-artifact'),
    ("release.yml", lambda t: t.replace("inputs.tag ||", "inputs.tagg ||"),
     'property "tagg" is not defined'),
    ("ci.yml", lambda t: t.replace("runs-on: ubuntu-24.04", "runs-on: [ubuntu-24.04"),
     "could not parse as YAML"),
])
def test_actionlint_fails_on_a_broken_workflow(tmp_path, name, change, message):
    folder = tmp_path / ".github" / "workflows"
    shutil.copytree(WORKFLOWS, folder)
    (folder / name).write_text(change((folder / name).read_text(encoding="utf-8")),
                               encoding="utf-8")
    done = actionlint(folder)
    assert done.returncode != 0 and message in done.stdout, done.stdout + done.stderr


def test_the_workflows_run_the_targets_the_docs_give():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    docs = "".join(p.read_text(encoding="utf-8")
                   for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    for target in ("book", "pdf", "push-student", "slides"):
        assert re.search(rf"^{target}:", makefile, re.M), target
        assert f"make {target}" in docs, target
    book, student = workflow("book.yml"), workflow("student.yml")
    release, ci = workflow("release.yml"), workflow("ci.yml")
    assert re.search(r"^\s*make book BRANCH=student$", runs(book), re.M)  # students' links
    assert re.search(r"^\s*make pdf BRANCH=student$", runs(book), re.M)
    assert re.search(r"^\s*make slides\n\s*cp -r _build/slides _build/html/slides$", runs(book),
                     re.M)
    assert uses(book) == ["actions/checkout", "actions/configure-pages",
                          "actions/upload-pages-artifact", "actions/deploy-pages"]
    upload = next(s for s in steps(book) if s.get("uses", "").startswith(
        "actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_build/html"
    assert book["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "make push-student" in runs(student)
    assert student["permissions"] == {"contents": "write"}
    assert re.search(r"^\s*make pdf$", runs(release), re.M)
    assert "_build/latex/nbcourse.pdf" in runs(release)
    assert release["on"]["push"]["tags"] == ["v*"]
    assert re.search(r"^\s*bash \.ci/run$", runs(ci), re.M)
    assert "pull_request" in ci["on"]
