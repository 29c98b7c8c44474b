"""What students and instructors meet in the assignment loop: Run All on the notebooks as
they ship, feedback wording, failed defining cells, and written answers."""

import csv
import json

import nbformat
import numpy as np
import pytest
from hostile import EX01, EX02, ROOT, code_cells, notebook

from nbcourse.grading import Call, Test, Value, checker, close
from nbcourse.grading.generate import student_path

ASSIGNMENTS = sorted(p.parent for p in (ROOT / "exercises").glob("*/tests.py"))


# --- Run All on the untouched student notebooks ----------------------------------------


def _outputs_text(cell):
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
    return "".join(parts)


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_run_all_on_the_shipped_student_notebook_runs_every_check(folder):
    from nbclient import NotebookClient

    nb = nbformat.read(student_path(folder), as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(folder)}})
    client.execute()  # raises CellExecutionError at the first cell that fails
    checks = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check(")]
    assert len(checks) >= 5
    for cell in checks:
        assert cell.execution_count is not None, cell.source
        text = _outputs_text(cell)
        question = cell.source.split('"')[1]
        assert text.startswith(f"{question} — "), (cell.source, text)
        assert "check() needs the course repository" not in text
