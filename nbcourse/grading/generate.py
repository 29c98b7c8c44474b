"""Generate the student notebook of an assignment from its solution notebook.

Markers (the syntax otter-grader also uses):

* a block between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` lines in a code cell becomes
  one placeholder line at the marker's indentation: ``...`` at top level,
  ``raise NotImplementedError("...")`` inside a function or other block;
* a line ending in ``# SOLUTION`` becomes ``name = ...`` if it is an assignment,
  ``...`` otherwise;
* in a markdown cell, text between ``<!-- BEGIN SOLUTION -->`` and ``<!-- END SOLUTION -->``
  becomes ``*Write your answer here.*``;
* cells tagged ``solution-only`` are removed.

Outputs and execution counts are cleared. Run ``python -m nbcourse.grading.generate
exercises/<name>`` after editing ``solution.ipynb``; a test fails if the committed
``<name>.ipynb`` is stale.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

__all__ = ["generate", "strip_code", "strip_markdown", "student_path", "write_student"]

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
MD_BEGIN, MD_END = "<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"
LINE_MARK = re.compile(r"^(?P<indent>\s*)(?P<code>.*?)\s*#\s*SOLUTION\s*$")
ASSIGN = re.compile(r"^(?P<lhs>[A-Za-z_][\w\s,\[\]\.]*?)\s*=(?!=)")
PLACEHOLDER_RAISE = 'raise NotImplementedError("replace this line with your code")'


def strip_code(source, where="cell"):
    """Replace solution blocks and lines in Python ``source`` by placeholders.

    >>> print(strip_code("def f(x):\\n    # BEGIN SOLUTION\\n    return 2 * x\\n    # END SOLUTION"))
    def f(x):
        raise NotImplementedError("replace this line with your code")
    >>> strip_code("answer = 42  # SOLUTION")
    'answer = ...'
    """
    out, inside, indent = [], False, ""
    for number, line in enumerate(source.split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if inside:
                raise ValueError(f"{where}, line {number}: nested {BEGIN!r}")
            inside, indent = True, line[: len(line) - len(line.lstrip())]
            out.append(indent + ("..." if not indent else PLACEHOLDER_RAISE))
        elif stripped.startswith(END):
            if not inside:
                raise ValueError(f"{where}, line {number}: {END!r} without {BEGIN!r}")
            inside = False
        elif not inside:
            match = LINE_MARK.match(line)
            if match and match.group("code"):
                lhs = ASSIGN.match(match.group("code"))
                code = f"{lhs.group('lhs').strip()} = ..." if lhs else "..."
                out.append(match.group("indent") + code)
            else:
                out.append(line)
    if inside:
        raise ValueError(f"{where}: {BEGIN!r} without {END!r}")
    return "\n".join(out)


def strip_markdown(source, where="cell"):
    """Replace ``<!-- BEGIN SOLUTION -->`` ... ``<!-- END SOLUTION -->`` in markdown.

    >>> strip_markdown("Why?\\n<!-- BEGIN SOLUTION -->\\nBecause.\\n<!-- END SOLUTION -->")
    'Why?\\n*Write your answer here.*'
    """
    pattern = re.compile(re.escape(MD_BEGIN) + r".*?" + re.escape(MD_END), re.S)
    text = pattern.sub("*Write your answer here.*", source)
    if MD_BEGIN in text or MD_END in text:
        raise ValueError(f"{where}: unbalanced solution markers in markdown")
    return text


def generate(solution):
    """Return the student notebook (a ``nbformat.NotebookNode``) for ``solution``.

    ``solution`` is a notebook node or a path to one.
    """
    import nbformat  # slow to import (its schema validator): only where a notebook is built

    nb = solution if isinstance(solution, nbformat.NotebookNode) else nbformat.read(
        str(solution), as_version=4)
    nb = copy.deepcopy(nb)
    cells = []
    for index, cell in enumerate(nb.cells):
        if "solution-only" in cell.get("metadata", {}).get("tags", []):
            continue
        where = f"cell {index}"
        if cell.cell_type == "code":
            cell.source = strip_code(cell.source, where)
            cell.outputs = []
            cell.execution_count = None
        elif cell.cell_type == "markdown":
            cell.source = strip_markdown(cell.source, where)
        cells.append(cell)
    nb.cells = cells
    nb.metadata.setdefault("nbcourse", {})["generated_from"] = "solution.ipynb"
    return nb


def student_path(folder):
    """``exercises/<name>/<name>.ipynb``: where the student notebook lives."""
    folder = Path(folder)
    return folder / f"{folder.resolve().name}.ipynb"


def student_text(folder):
    """The exact text the student notebook of ``folder`` should have."""
    import nbformat

    nb = generate(Path(folder) / "solution.ipynb")
    return nbformat.writes(nb) + "\n"


def write_student(folder):
    """Write ``<folder>/<name>.ipynb`` from ``<folder>/solution.ipynb``; return its path."""
    target = student_path(folder)
    target.write_text(student_text(folder), encoding="utf-8")
    return target


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nbcourse.grading.generate",
                                     description="Write each assignment's student notebook.")
    parser.add_argument("folders", nargs="+", help="assignment folders (exercises/<name>)")
    parser.add_argument("--check", action="store_true",
                        help="only report stale student notebooks; exit 1 if any")
    args = parser.parse_args(argv)
    stale = 0
    for folder in args.folders:
        target = student_path(folder)
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != student_text(folder):
                print(f"stale: {target}")
                stale += 1
        else:
            print(f"wrote {write_student(folder)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
