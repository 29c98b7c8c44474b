"""Build the tree students open (Binder, downloads): ``make student`` writes ``_build/student/``.

What goes in, and nothing else:

- ``book/``: every document of ``_toc.yml`` as a notebook that reads right in plain Jupyter,
  written by the Sphinx builder ``studentnb`` (``tools/studentnb.py``) from the doctree Sphinx
  resolved for the book, through the same ``jupyter-book build`` entry as the HTML book: the
  numbers, citations, glossary links and glued values are those of the HTML and PDF editions.
  Each exercise's solution is replaced by one line saying where its worked solution is.
- ``exercises/<name>/``: the files of :func:`nbcourse.grading.assignment.student_files` for each
  assignment (the student notebook and the public tests), never the instructor's files
  (solution source, hidden tests).
- ``nbcourse/``, ``pyproject.toml``, ``binder/`` and a short ``README.md``: what Binder needs to
  install the environment.

Every notebook gets a first code cell that installs the package on Colab (:func:`colab_cell`).
Run ``python -m tools.build_student_tree [--out DIR] [--commit-branch student]``; the output
folder is replaced.  Sphinx keeps its work beside it (``.DIR-sphinx/``), so a second build reads
only the chapters that changed.  ``--commit-branch`` records the tree as the next commit of a
branch (see :func:`commit_tree`), which the Binder buttons open once it is pushed.
"""

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

from nbcourse.grading.assignment import PUBLIC_TESTS, instructor_files, student_files
from nbcourse_book.build import jupyter_book, toc_documents

ROOT = Path.cwd()  # the book: the commands run from the repository root
DEFAULT_OUT = ROOT / "_build" / "student"
BUILDER = "studentnb"


def student_notebooks(root: Path, work: Path) -> Path:
    """Run the ``studentnb`` builder over the book at ``root``; return its output folder.

    ``work`` holds Sphinx's output and its cache of read documents between runs.  Warnings
    are errors, as for the HTML book.
    """
    command = jupyter_book(BUILDER, "--path-output", str(work), root=root)
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        log = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)
        problems = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
        raise RuntimeError(f"jupyter-book build --custom-builder {BUILDER} failed "
                           f"(exit {done.returncode}):\n" + "\n".join(problems or [log[-4000:]]))
    return work / "_build" / BUILDER


def write_json(path: Path, nb: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


STUDENT_README = """\
# Naive Bayes with discrete features: notebooks

Open `book/intro.ipynb` to start reading, or a chapter under `book/part1/`, `book/part2/` or `book/part3/`.
Every chapter runs as it is: Kernel → Restart Kernel and Run All Cells.

Graded assignments are in `exercises/<name>/<name>.ipynb`. Replace each `...` or
`raise NotImplementedError(...)` and run the `check("qN")` cell under it for instant feedback
from the public tests. Before you submit, restart the kernel and run all cells.

To run the notebooks on your own machine (Python 3.11 or newer), install the course's package
with the JupyterLab it was tested with, from this folder:

```bash
python -m venv .venv && . .venv/bin/activate
pip install ".[lab]" && jupyter lab
```

On Colab, the first cell of every notebook installs the package from the student branch; it
does nothing anywhere else.
"""

STUDENT_BRANCH = "student"
"""The branch the student tree is published on (``make student-branch``)."""

COLAB_CELL = """\
# On Colab: install the course's package from its student branch (elsewhere this does nothing).
import sys

if "google.colab" in sys.modules:
    %pip install --quiet "nbcourse @ git+{url}@{branch}"
"""
"""First code cell of every student notebook; ``url`` is ``repository.url`` of _config.yml."""


def colab_cell(root: Path, branch: str = STUDENT_BRANCH) -> dict:
    """The guarded install cell for the repository at ``root`` and the student ``branch``."""
    config = yaml.safe_load((Path(root) / "_config.yml").read_text(encoding="utf-8"))
    url = ((config.get("repository") or {}).get("url") or "").rstrip("/")
    if not url.startswith("https://"):
        raise ValueError(f"_config.yml repository.url: expected an https address, got {url!r}")
    return {"cell_type": "code", "execution_count": None, "id": "colab-install",
            "metadata": {"tags": ["colab-install"]}, "outputs": [],
            "source": COLAB_CELL.format(url=url, branch=branch)}


def with_colab_cell(nb: dict, cell: dict) -> dict:
    """``nb`` with ``cell`` as its first code cell (after the title), if it has code at all."""
    cells = nb["cells"]
    if not any(c["cell_type"] == "code" for c in cells):
        return nb
    at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0
    nb["cells"] = [*cells[:at], copy.deepcopy(cell), *cells[at:]]
    return nb


def build(out: Path = DEFAULT_OUT, root: Path = ROOT, branch: str = STUDENT_BRANCH) -> Path:
    """Write the student tree to ``out`` (replacing it) and return ``out``.

    ``branch`` is the branch the tree is published on; each notebook's Colab cell installs the
    package from it.  The package in the tree carries each assignment's public tests
    (``nbcourse/public_tests/<name>/tests.py``), so ``check()`` works wherever it is installed.
    """
    out, root = Path(out), Path(root)
    if out.resolve() in (root.resolve(), *root.resolve().parents):
        raise ValueError(f"out: expected a folder outside the repository root, got {str(out)!r}")
    install = colab_cell(root, branch)
    built = student_notebooks(root, out.parent / f".{out.name}-sphinx")
    if out.exists():
        shutil.rmtree(out)
    for doc in toc_documents(root / "_toc.yml"):
        nb = json.loads((built / f"{doc}.ipynb").read_text(encoding="utf-8"))
        write_json(out / f"{doc}.ipynb", with_colab_cell(nb, install))
    for folder in sorted(p for p in (root / "exercises").iterdir() if p.is_dir()):
        private = {f.name for f in instructor_files(folder)}
        for source in student_files(folder):
            if source.name in private:
                raise ValueError(f"student_files: {source.name} must never reach students ({folder})")
            (out / "exercises" / folder.name).mkdir(parents=True, exist_ok=True)
            target = out / "exercises" / folder.name / source.name
            if source.suffix == ".ipynb":
                nb = json.loads(source.read_text(encoding="utf-8"))
                write_json(target, with_colab_cell(nb, install))
            else:
                shutil.copy2(source, target)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(root / "nbcourse", out / "nbcourse", ignore=ignore)
    for tests in sorted((out / "exercises").glob(f"*/{PUBLIC_TESTS}")):
        packaged = out / "nbcourse" / "public_tests" / tests.parent.name / PUBLIC_TESTS
        packaged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(tests, packaged)
    shutil.copytree(root / "binder", out / "binder", ignore=ignore)
    shutil.copy2(root / "pyproject.toml", out / "pyproject.toml")
    (out / "README.md").write_text(STUDENT_README, encoding="utf-8")
    return out


def commit_tree(tree: Path, branch: str, repo: Path = ROOT, message: str | None = None) -> str:
    """Commit the contents of ``tree`` as the whole of ``branch`` in ``repo``; return the commit.

    The commit's parent is the branch's previous tip, so the branch keeps a history students can
    pull.  Neither the working tree, the index nor ``HEAD`` of ``repo`` is touched: the files are
    staged in a temporary index.
    """
    tree, repo = Path(tree), Path(repo)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", branch) or ".." in branch:
        raise ValueError(f"branch: expected a plain branch name such as 'student', got {branch!r}")
    if not tree.is_dir():
        raise ValueError(f"tree: expected a folder, got {str(tree)!r}")

    def git(*args, env=None):
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                              text=True, env=env).stdout.strip()

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        git("--work-tree", str(tree.resolve()), "add", "--all", "--force", ".", env=env)
        tree_id = git("write-tree", env=env)
    try:
        parent = git("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}")
    except subprocess.CalledProcessError:
        parent = ""
    source = git("rev-parse", "--short", "HEAD")
    message = message or f"Student tree built from {source}"
    commit = git("commit-tree", tree_id, *(["-p", parent] if parent else []), "-m", message)
    git("update-ref", f"refs/heads/{branch}", commit)
    return commit


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (replaced)")
    parser.add_argument("--commit-branch", metavar="BRANCH",
                        help="also commit the tree as the whole of BRANCH (nothing is pushed)")
    args = parser.parse_args(argv)
    out = build(args.out, branch=args.commit_branch or STUDENT_BRANCH)
    print(f"student tree written to {out}")
    if args.commit_branch:
        commit = commit_tree(out, args.commit_branch)
        print(f"committed as {commit} on branch {args.commit_branch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
