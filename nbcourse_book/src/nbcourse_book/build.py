"""The build commands, run from the book's root: ``python -m nbcourse_book.build html|pdf``
(``--branch``: the branch every launch link opens) and ``... student`` (the tree students
open; ``--commit-branch``: also the whole of that branch).  See ``docs/building.md``."""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml
from sphinx_external_toc.parsing import parse_toc_yaml

from nbcourse.grading.assignment import PUBLIC_TESTS, student_files

from .launch import binder_url
from .notebooks import write_json

STUDENT_BRANCH = "student"
"""The branch the student tree is published on (``make student-branch``)."""
STUDENT_README = Path(__file__).with_name("student-README.md")
COLAB_CELL = """\
# On Colab: install the course's package from its student branch (elsewhere this does nothing).
import sys

if "google.colab" in sys.modules:
    %pip install --quiet "nbcourse @ git+{url}@{branch}"
"""
"""First code cell of every student notebook; ``url`` is ``repository.url`` of _config.yml."""


def book_config(root: Path) -> dict:
    return yaml.safe_load((Path(root) / "_config.yml").read_text(encoding="utf-8"))


def check_branch(branch: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", branch) or ".." in branch:
        raise ValueError(f"branch: expected a branch name such as 'student', got {branch!r}")
    return branch


def run_jupyter_book(root: Path, builder: str, *options: str, branch: str | None = None,
                     capture: bool = False) -> subprocess.CompletedProcess:
    """Run ``jupyter-book build`` for ``builder`` (``html``, ``pdflatex`` or this package's
    ``studentnb``), warnings as errors; with ``branch``, on a copy of ``_config.yml`` whose
    ``repository.branch`` is ``branch``, so that every launch link opens that branch."""
    root = Path(root)
    named = (["--builder", "custom", "--custom-builder", builder] if builder == "studentnb"
             else ["--builder", builder])
    with tempfile.TemporaryDirectory(prefix="nbcourse-config-") as tmp:
        if branch is not None:
            config = book_config(root)
            config.setdefault("repository", {})["branch"] = check_branch(branch)
            path = Path(tmp) / "_config.yml"
            path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
            options = (*options, "--config", str(path))
        return subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build",
                               str(root), *named, *options, "-W", "-n", "--keep-going"],
                              cwd=root, text=True, capture_output=capture)


def student_notebooks(root: Path, work: Path) -> Path:
    """Run the ``studentnb`` builder over the book at ``root``; return its output folder.

    ``work`` keeps Sphinx's output and its cache of read documents between runs.
    """
    done = run_jupyter_book(root, "studentnb", "--path-output", str(work), capture=True)
    if done.returncode != 0:
        log = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)
        problems = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
        raise RuntimeError(f"jupyter-book build --custom-builder studentnb failed "
                           f"(exit {done.returncode}):\n" + "\n".join(problems or [log[-4000:]]))
    return work / "_build" / "studentnb"


def colab_cell(root: Path, branch: str = STUDENT_BRANCH) -> dict:
    """The guarded install cell for the repository at ``root`` and the student ``branch``."""
    url = ((book_config(root).get("repository") or {}).get("url") or "").rstrip("/")
    if not url.startswith("https://"):
        raise ValueError(f"_config.yml repository.url: expected an https address, got {url!r}")
    return {"cell_type": "code", "execution_count": None, "id": "colab-install",
            "metadata": {"tags": ["colab-install"]}, "outputs": [],
            "source": COLAB_CELL.format(url=url, branch=branch)}


def with_colab_cell(nb: dict, cell: dict) -> dict:
    """``nb`` with ``cell`` as its first code cell (after the title), if it has code at all."""
    cells = nb["cells"]
    if any(c["cell_type"] == "code" for c in cells):
        at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0
        nb["cells"] = [*cells[:at], copy.deepcopy(cell), *cells[at:]]
    return nb


def build_student_tree(out: Path, root: Path, branch: str = STUDENT_BRANCH) -> Path:
    """Write the student tree for ``branch`` (which its Colab cells and README's badge use)
    to ``out``, replaced; each assignment gives :func:`student_files` only."""
    out, root = Path(out), Path(root)
    if out.resolve() in (root.resolve(), *root.resolve().parents):
        raise ValueError(f"out: expected a folder outside the repository root, got {str(out)!r}")
    install = colab_cell(root, branch)
    built = student_notebooks(root, out.parent / f".{out.name}-sphinx")
    if out.exists():
        shutil.rmtree(out)
    for doc in parse_toc_yaml(root / "_toc.yml"):
        nb = json.loads((built / f"{doc}.ipynb").read_text(encoding="utf-8"))
        write_json(out / f"{doc}.ipynb", with_colab_cell(nb, install))
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(root / "nbcourse", out / "nbcourse", ignore=ignore)
    for folder in sorted(p for p in (root / "exercises").iterdir() if p.is_dir()):
        notebook, tests = student_files(folder)  # the public tests also in the package (Colab)
        write_json(out / "exercises" / folder.name / notebook.name,
                   with_colab_cell(json.loads(notebook.read_text("utf-8")), install))
        for target in (out / "exercises", out / "nbcourse" / "public_tests"):
            (target / folder.name).mkdir(parents=True, exist_ok=True)
            shutil.copy2(tests, target / folder.name / PUBLIC_TESTS)
    shutil.copytree(root / "binder", out / "binder", ignore=ignore)
    shutil.copy2(root / "pyproject.toml", out / "pyproject.toml")
    config = book_config(root)
    badge = binder_url(config["repository"]["url"], branch, "book/intro.ipynb",
                       config.get("launch_buttons"))
    (out / "README.md").write_text(STUDENT_README.read_text("utf-8").format(badge=badge), "utf-8")
    return out


def commit_tree(tree: Path, branch: str, repo: Path, message: str | None = None) -> str:
    """Commit ``tree`` as the whole of ``branch`` in ``repo``, after its tip (a tree equal to
    the tip's adds no commit), staged in a temporary index; return the branch's tip."""
    tree, repo, branch = Path(tree), Path(repo), check_branch(branch)
    if not tree.is_dir():
        raise ValueError(f"tree: expected a folder, got {str(tree)!r}")

    def git(*args, env=None, check=True):
        return subprocess.run(["git", "-C", str(repo), *args], check=check, capture_output=True,
                              text=True, env=env).stdout.strip()

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        git("--work-tree", str(tree.resolve()), "add", "--all", "--force", ".", env=env)
        tree_id = git("write-tree", env=env)
    parent = git("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}", check=False)
    if parent and git("rev-parse", f"{parent}^{{tree}}") == tree_id:
        return parent
    message = message or f"Student tree built from {git('rev-parse', '--short', 'HEAD')}"
    commit = git("commit-tree", tree_id, *(["-p", parent] if parent else []), "-m", message)
    git("update-ref", f"refs/heads/{branch}", commit)
    return commit


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("html", "the HTML book, into _build/html"),
                       ("pdf", "the PDF edition, into _build/latex")):
        command = commands.add_parser(name, help=text)
        command.add_argument("--branch", help="the branch every launch link opens "
                                               "(default: repository.branch of _config.yml)")
    student = commands.add_parser("student", help="the tree students open")
    student.add_argument("--out", type=Path, default=Path("_build/student"),
                         help="output folder (replaced)")
    student.add_argument("--commit-branch", metavar="BRANCH",
                         help="also commit the tree as the whole of BRANCH (nothing is pushed)")
    args = parser.parse_args(argv)
    root = Path.cwd()
    if args.command == "student":
        out = build_student_tree(args.out, root, branch=args.commit_branch or STUDENT_BRANCH)
        print(f"student tree written to {out}")
        if args.commit_branch:
            print(f"branch {args.commit_branch} at {commit_tree(out, args.commit_branch, root)}")
        return 0
    builder = {"html": "html", "pdf": "pdflatex"}[args.command]
    code = run_jupyter_book(root, builder, branch=args.branch).returncode
    print(f"book build ({builder}): exit {code}")
    return code


if __name__ == "__main__":
    sys.exit(main())
