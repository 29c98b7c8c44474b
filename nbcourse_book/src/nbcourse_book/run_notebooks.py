"""Execute book notebooks top to bottom in a fresh kernel, deterministically.

Usage::

    python -m tools.run_notebooks [--inplace] [--timeout SECONDS] PATH [PATH ...]

Each PATH is a notebook or a folder searched recursively for ``*.ipynb``.  Every
notebook runs in its own fresh ``python3`` kernel with its folder as working
directory, ``PYTHONHASHSEED=0`` and ``NBCOURSE_FIGURES=static`` (interactive
figures display the form the book stores, see ``nbcourse.interact``).  Without
``--inplace`` the notebooks are only executed (a smoke test); with it, the stored
outputs are replaced.  Execution
timing metadata is not recorded, so a second run changes nothing but what
legitimately varies.  Prints one line per notebook with its wall time and exits
non-zero if any notebook raised, naming the notebook and the cell.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

SKIP_PARTS = {".ipynb_checkpoints", "_build", ".venv"}


def find_notebooks(paths):
    """Return the sorted notebooks named by ``paths`` (files or folders)."""
    found = []
    for p in map(Path, paths):
        if p.is_dir():
            found += [q for q in p.rglob("*.ipynb") if not SKIP_PARTS & set(q.parts)]
        elif p.suffix == ".ipynb" and p.exists():
            found.append(p)
        else:
            raise SystemExit(f"run_notebooks: {p} is neither a notebook nor a folder")
    return sorted(found)


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def clean_metadata(nb):
    """Drop per-run state so that re-execution is byte-stable.

    Live widget views are dropped from stored outputs: their models (random ids) exist only
    in the kernel that made them, so a stored view could only show "model not found".  The
    other representations of the same output (static HTML control, still image) remain.
    """
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
    return nb


def execute(path, timeout):
    """Execute one notebook; return it and the wall time in seconds."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as err:
        index = next((i for i, c in enumerate(nb.cells)
                      for o in c.get("outputs", []) if o.output_type == "error"), "?")
        raise CellExecutionError(f"cell {index}: {err.ename}: {err.evalue}", err.ename,
                                 err.evalue) from None
    return clean_metadata(nb), time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--inplace", action="store_true", help="store the new outputs")
    parser.add_argument("--timeout", type=float, default=120.0, help="per cell, seconds")
    args = parser.parse_args(argv)
    os.environ["PYTHONHASHSEED"] = "0"
    os.environ["NBCOURSE_FIGURES"] = "static"  # interactive figures in their stored form
    failures = 0
    for path in find_notebooks(args.paths):
        try:
            nb, seconds = execute(path, args.timeout)
        except CellExecutionError as err:
            failures += 1
            print(f"FAILED  {path}, {err.traceback}", flush=True)
            continue
        if args.inplace:
            nbformat.write(nb, path)
        print(f"{seconds:7.2f} s  {path}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
