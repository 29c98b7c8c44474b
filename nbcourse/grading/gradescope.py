"""Gradescope autograder bundle, and the command its ``run_autograder`` calls.

The zip holds ``setup.sh`` and ``run_autograder`` at its root (as Gradescope expects), the
pinned ``requirements.txt`` of what grading needs (the repository's
``requirements-grader.txt``: the kernel's and the grader's packages, not the book's build and
test tools), a copy of the ``nbcourse`` package, ``assignment/tests.py`` and
``assignment/hidden_tests.py`` (never the solution notebook) and ``config.json`` with the
limits. Gradescope unpacks it to
``/autograder/source``, runs ``setup.sh`` once, then for each submission runs
``run_autograder``, which grades ``/autograder/submission/*.ipynb`` with the same grader as
``python -m nbcourse grade`` and writes ``/autograder/results/results.json``.

``NBCOURSE_AUTOGRADER_ROOT`` replaces ``/autograder`` (in ``setup.sh`` too) and
``NBCOURSE_AUTOGRADER_PYTHON`` the interpreter of ``run_autograder``, so the bundle can be
tried locally.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
import zipfile
from pathlib import Path

from .assignment import Limits, load_assignment

__all__ = ["build_bundle", "find_notebooks", "pick_submission", "run"]

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
set -euo pipefail
ROOT="${NBCOURSE_AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
PYTHON="${PYTHON:-python3.11}"
if ! command -v "$PYTHON" >/dev/null 2>&1 || ! command -v bwrap >/dev/null 2>&1; then
    apt-get update
    apt-get install -y --no-install-recommends python3.11 python3.11-venv bubblewrap
fi
"$PYTHON" -m venv "$ROOT/venv"
# What grading needs only (requirements-grader.txt of the course repository, pinned as the
# book is): the kernel's packages and the grader's, not the book's build and test tools.
"$ROOT/venv/bin/pip" install --no-cache-dir -r "$SRC/requirements.txt"
# Tests and library stay readable by root only; kernels run as other users.
chmod -R go-rwx "$SRC"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for each submission; it always writes results/results.json.
set -uo pipefail
ROOT="${NBCOURSE_AUTOGRADER_ROOT:-/autograder}"
PYTHON="${NBCOURSE_AUTOGRADER_PYTHON:-$ROOT/venv/bin/python}"
case "$ROOT" in /*) ;; *) ROOT="$PWD/$ROOT" ;; esac
case "$PYTHON" in /*) ;; */*) PYTHON="$PWD/$PYTHON" ;; esac
cd "$ROOT/source"
export PYTHONPATH="$ROOT/source"
exec "$PYTHON" -P -m nbcourse.grading.gradescope run --root "$ROOT"
"""

_RUNTIME_FALLBACK = ["numpy", "scipy", "matplotlib", "pandas", "scikit-learn", "ipywidgets",
                     "ipykernel", "ipython", "jupyter_client", "pyzmq", "nbformat", "PyYAML"]
GRADER_REQUIREMENTS = "requirements-grader.txt"


def _requirements():
    """The pinned requirements of grading (``requirements-grader.txt`` of the checkout), or,
    outside a checkout, the installed versions of the grader's top-level packages."""
    import nbcourse

    pinned = Path(nbcourse.__file__).resolve().parents[1] / GRADER_REQUIREMENTS
    if pinned.is_file():
        return pinned.read_text(encoding="utf-8")
    from importlib.metadata import version

    return "".join(f"{name}=={version(name)}\n" for name in _RUNTIME_FALLBACK)


def _add_tree(archive, folder, prefix):
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            archive.write(path, f"{prefix}/{path.relative_to(folder).as_posix()}")


def _add_text(archive, name, text, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)


def build_bundle(assignment_dir, output, limits=None, allow_per_process_limits=False,
                 identity_field="email"):
    """Write the Gradescope autograder zip for the assignment in ``assignment_dir``.

    ``allow_per_process_limits`` lets the autograder grade where a cgroup cannot hold a
    kernel's process tree (see :func:`~nbcourse.grading.sandbox.require_isolation`).
    ``identity_field`` is the field of each of the submission's ``users`` that per-student
    answers are checked for (``email`` or ``sid``).

    Returns
    -------
    pathlib.Path
        The zip file.
    """
    import nbcourse

    if identity_field not in ("email", "sid"):
        raise ValueError(f"identity_field must be 'email' or 'sid', got {identity_field!r}")
    assignment = load_assignment(assignment_dir, hidden=None)
    limits = limits or assignment.limits
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    config = {"assignment": assignment.name, "limits": limits.__dict__,
              "allow_per_process_limits": bool(allow_per_process_limits),
              "identity_field": identity_field}
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        _add_text(archive, "setup.sh", SETUP_SH, 0o755)
        _add_text(archive, "run_autograder", RUN_AUTOGRADER, 0o755)
        _add_text(archive, "requirements.txt", _requirements())
        _add_text(archive, "config.json", json.dumps(config, indent=2) + "\n")
        _add_tree(archive, Path(nbcourse.__file__).parent, "nbcourse")
        for path in sorted(Path(assignment.path).iterdir()):
            if path.is_file() and path.suffix == ".py":
                archive.write(path, f"assignment/{path.name}")
    return output


def pick_submission(folder, name):
    """The notebook to grade among those under ``folder`` and a note for the student: the
    one named ``<assignment>.ipynb``, else the only readable notebook, else the first
    readable one in alphabetical order (the first of all if none is readable).

    ``name`` is the assignment's name.  Returns ``(path, note)``: ``path`` is ``None`` if no
    notebook was submitted, and ``note`` is empty if there was exactly one.
    """
    from .files import NotebookError
    from .grader import read_code_cells

    notebooks = sorted(p for p in find_notebooks(folder) if ".ipynb_checkpoints" not in p.parts)
    if not notebooks:
        return None, "no .ipynb file was submitted"
    if len(notebooks) == 1:
        return notebooks[0], ""
    named = [p for p in notebooks if p.name == f"{name}.ipynb"]
    valid = []
    if not named:
        for p in notebooks:
            try:
                read_code_cells(p)
            except NotebookError:
                continue
            valid.append(p)
    if named:
        chosen, why = named[0], "the one named after the assignment"
    elif len(valid) == 1:
        chosen, why = valid[0], "the only one that is a readable notebook"
    elif valid:
        chosen, why = valid[0], "the first readable notebook in alphabetical order"
    else:
        chosen, why = notebooks[0], "the first in alphabetical order; none is a readable notebook"
    listed = [shown_name(p.relative_to(folder)) for p in notebooks]
    text = ", ".join(listed[:10]) + (f" and {len(listed) - 10} more" if len(listed) > 10 else "")
    return chosen, (f"You submitted {len(notebooks)} notebooks ({text}); graded "
                    f"{shown_name(chosen.relative_to(folder))}, {why}. Submit only "
                    f"{name}.ipynb next time")


def shown_name(path):
    r"""A file name to show: printable characters kept, anything else (control, format and
    bidirectional characters, bytes that are not UTF-8, a letter that looks like an ASCII
    one it is not, as Cyrillic ``а``) escaped as in Python (``\u202e``), cut to 100
    characters.

    >>> shown_name("a\u202eb\udce9.ipynb"), shown_name("\u0430lice-é.ipynb")
    ('a\\u202eb\\xe9.ipynb', '\\u0430lice-é.ipynb')
    """
    from .names import accented_latin

    out = []
    for c in str(path)[:100]:
        if 0xDC80 <= ord(c) <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif c.isprintable() and c != "\\" and (c.isascii() or not c.isalnum()
                                                or accented_latin(c)):
            out.append(c)
        else:
            out.append(c.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def find_notebooks(folder):
    """``*.ipynb`` entries under ``folder``, without following symbolic links to folders
    (files that are not regular are listed, and rejected when read)."""
    found = []
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        found.extend(Path(top) / f for f in sorted(files) if f.endswith(".ipynb"))
    return found


def _write(results_dir, data):
    from .files import _write_atomic

    results_dir.mkdir(parents=True, exist_ok=True)
    _write_atomic(results_dir / "results.json", json.dumps(data, indent=2) + "\n")


def _owner(root, field):
    """The submission's owners from ``ROOT/submission_metadata.json`` (its ``users``), or the
    unverified fallback to the notebook's STUDENT_ID if the metadata names nobody."""
    from .variants import Identity

    try:
        metadata = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Identity()
    return Identity.from_gradescope(metadata, field)


def run(root):
    """Grade the submission under ``root`` (Gradescope's layout); always write results."""
    from .batch import gradescope_results
    from .files import clip
    from .grader import grade_notebook, hidden_seconds
    from .sandbox import IsolationError

    root = Path(root).resolve()
    results_dir = root / "results"
    try:
        config = json.loads((root / "source" / "config.json").read_text(encoding="utf-8"))
        assignment = load_assignment(root / "source" / "assignment")
        limits = Limits(**config["limits"])
        notebook, note = pick_submission(root / "submission", assignment.name)
        if notebook is None:
            _write(results_dir, {"score": 0.0, "output": note, "tests": []})
            return 0
        identity = _owner(root, config.get("identity_field", "email"))
        # the student sees how long the run takes: the hidden tests get a fixed time
        fixed = config.get("hidden_seconds") or hidden_seconds(assignment.questions, limits)
        result = grade_notebook(assignment, notebook, limits, notebook.stem,
                                bool(config.get("allow_per_process_limits")), identity,
                                hidden_seconds=fixed)
        data = gradescope_results(result)
        if note:
            data["output"] = f"{clip(note, 1500)}. {data['output']}"
        _write(results_dir, data)
    except IsolationError as exc:
        print(exc, file=sys.stderr)
        _write(results_dir, {"score": 0.0, "tests": [],
                             "output": "The autograder could not isolate your notebook on this "
                                       "machine; please contact the instructor."})
        return 1
    except Exception:  # the student must still get a results file
        traceback.print_exc()
        _write(results_dir, {"score": 0.0, "tests": [],
                             "output": "The autograder failed; please contact the instructor."})
        return 1
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nbcourse.grading.gradescope")
    sub = parser.add_subparsers(dest="command", required=True)
    run_parser = sub.add_parser("run", help="grade ROOT/submission into ROOT/results")
    run_parser.add_argument("--root", default="/autograder")
    args = parser.parse_args(argv)
    return run(args.root)


if __name__ == "__main__":
    sys.exit(main())
