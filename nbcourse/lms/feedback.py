"""Feedback for students: one self-contained HTML page per graded submission, made from the
``results.json`` the grader wrote for it (Gradescope's format).

Before grades are published a page shows what Gradescope would show a student: the tests
whose visibility is ``visible`` and the grader's note, not a test visible only
``after_published`` (or ``after_due_date``), nor the total score when such a test counts in
it. ``published=True`` shows those too (never a test whose visibility is ``hidden``). The page
has no script and loads nothing: its style is inline.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Pages", "feedback_page", "write_feedback"]

MAX_RESULTS_BYTES = 16 * 1024 * 1024
LATER = ("after_published", "after_due_date")
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.5; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.4rem; border-bottom: 1px solid #ccc; }
td.points { white-space: nowrap; }
pre { white-space: pre-wrap; margin: 0; font-size: 0.9rem; }
.note { background: #f3f3f3; padding: 0.6rem; }
"""


@dataclass
class Pages:
    """The pages written and the submissions without one, ``[(submission, reason)]``."""

    written: list = field(default_factory=list)
    missing: list = field(default_factory=list)


def _visibility(test, default):
    value = test.get("visibility", default)
    return value if value in ("visible", "hidden", *LATER) else "visible"


def _number(value):
    try:
        value = float(value)
    except (TypeError, ValueError):
        return "?"
    return f"{value:g}"


def feedback_page(results, assignment, student, published=False):
    """The HTML page of one submission's ``results`` (a parsed results.json)."""
    default = results.get("visibility", "visible") if isinstance(results, dict) else "visible"
    tests = [t for t in results.get("tests", []) if isinstance(t, dict)]
    shown = [t for t in tests if _visibility(t, "visible") == "visible"
             or (published and _visibility(t, "visible") in LATER)]
    held = len([t for t in tests if t not in shown and _visibility(t, "visible") != "hidden"])
    total_shown = published or default == "visible" or default not in LATER
    e = html.escape
    lines = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>Feedback: {e(assignment)}</title>", f"<style>{STYLE}</style>", "</head>",
             "<body>", "<main>", f"<h1>Feedback on {e(assignment)}</h1>",
             f"<p>For <strong>{e(student)}</strong>.</p>"]
    if total_shown:
        top = sum(float(t.get("max_score", 0) or 0) for t in tests
                  if _visibility(t, "visible") != "hidden")
        lines.append(f"<p>Score: <strong>{_number(results.get('score'))}</strong> of "
                     f"{_number(top)} points.</p>")
    if results.get("output"):
        lines.append(f'<p class="note">{e(str(results["output"]))}</p>')
    if held:
        lines.append(f"<p>{held} more result{'s are' if held > 1 else ' is'} shown when grades "
                     f"are published{'' if total_shown else ', with the total score'}.</p>")
    lines += ["<h2>Tests</h2>", "<table>",
              '<thead><tr><th scope="col">Test</th><th scope="col">Points</th>'
              '<th scope="col">Details</th></tr></thead>', "<tbody>"]
    for t in shown:
        lines.append(f"<tr><td>{e(str(t.get('name', '')))}</td>"
                     f'<td class="points">{_number(t.get("score"))} / '
                     f"{_number(t.get('max_score'))}</td>"
                     f"<td><pre>{e(str(t.get('output', '')))}</pre></td></tr>")
    lines += ["</tbody>", "</table>", "</main>", "</body>", "</html>", ""]
    return "\n".join(lines)


def write_feedback(grades, output, published=False, assignment=None):
    """Write ``output/<submission>.html`` for every row of the gradebook ``grades`` (a
    grades.csv or its folder) from ``<folder>/<submission>/results.json``.

    A row whose results.json cannot be read gets no page and is listed in
    :attr:`Pages.missing`; every other page is still written.
    """
    from nbcourse.grading.files import NotebookError, _write_atomic, read_regular_file

    from .grades import _assignment_name, read_gradebook

    folder = Path(grades)
    folder = folder if folder.is_dir() else folder.parent
    _, rows = read_gradebook(grades)
    assignment = assignment or _assignment_name(grades)
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    top = output.resolve()
    pages = Pages()
    for row in rows:
        name = row["submission"]
        target = (output / f"{name}.html").resolve()
        if os.path.commonpath([target, top]) != str(top) or ".." in Path(name).parts:
            pages.missing.append((name, "its name leads outside the output folder"))
            continue
        try:
            raw = read_regular_file(folder / name / "results.json", MAX_RESULTS_BYTES)
            results = json.loads(raw.decode("utf-8"))
            if not isinstance(results, dict):
                raise ValueError("not a JSON object")
        except (NotebookError, ValueError, UnicodeDecodeError) as exc:
            pages.missing.append((name, f"no readable results.json ({exc})"))
            continue
        student = row.get("student_id") or name
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(target, feedback_page(results, assignment, student, published))
        pages.written.append(target)
    return pages
