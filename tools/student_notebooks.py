"""Write student versions of the book's chapter notebooks: the same notebook, solutions removed.

Usage::

    python tools/student_notebooks.py [--out students] PATH [PATH ...]

Each PATH is a notebook or a folder searched recursively for ``*.ipynb``.  A notebook at
``book/part1/01_discrete_features.ipynb`` is written to
``students/book/part1/01_discrete_features.ipynb``.  In every markdown cell, each
sphinx-exercise ``solution`` directive (a ```` ```{solution} ```` or ``:::{solution}`` block)
is replaced by a one-line note; the exercises, the text, the code and the outputs are kept.

Binder runs this from the repository's ``postBuild``, so the student versions are made from
the notebooks of the commit it builds and are never stored in the repository.  Each chapter
of the HTML book links its student version on Binder.
"""

import argparse
import re
import sys
from pathlib import Path

import nbformat

SKIP_PARTS = {".ipynb_checkpoints", "_build", ".venv"}
NOTE = "*The solution is on the book's Solutions page.*"
OPENING = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution\}")


def strip_solutions(markdown):
    """``markdown`` with every ``{solution}`` directive replaced by :data:`NOTE`.

    A directive ends at the first line that is its opening fence alone (the same character,
    at least as many times), as in MyST; nested directives use longer fences and so stay
    inside.  An unclosed directive raises ``ValueError``, since cutting to the end of the
    cell would drop text that is not a solution.
    """
    if not isinstance(markdown, str):
        raise TypeError(f"markdown: expected str, got {type(markdown).__name__}")
    lines, out, i = markdown.split("\n"), [], 0
    while i < len(lines):
        opening = OPENING.match(lines[i])
        if not opening:
            out.append(lines[i])
            i += 1
            continue
        fence = opening["fence"]
        close = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = next((j for j in range(i + 1, len(lines)) if close.match(lines[j])), None)
        if end is None:
            raise ValueError(f"markdown: expected a closing {fence} for the solution opened "
                             f"on line {i + 1}, got the end of the cell")
        out.append(NOTE)
        i = end + 1
    return "\n".join(out)


def student_version(nb):
    """A copy of notebook ``nb`` whose markdown cells have no solution directive."""
    copy = nbformat.from_dict(nb)
    for cell in copy.cells:
        if cell.cell_type == "markdown":
            cell.source = strip_solutions(cell.source)
    return copy


def find_notebooks(paths):
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += [p for p in path.rglob("*.ipynb") if not SKIP_PARTS & set(p.parts)]
        elif path.suffix == ".ipynb":
            found.append(path)
        else:
            raise ValueError(f"paths: expected notebooks or folders, got {path}")
    return sorted(found)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="students", type=Path,
                        help="folder that receives the student versions (default: students)")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args(argv)
    for path in find_notebooks(args.paths):
        target = args.out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(student_version(nbformat.read(path, as_version=4)), target)
        print(f"{path} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
