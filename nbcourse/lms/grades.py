"""A batch's gradebook (``grades.csv`` of ``python -m nbcourse grade``) in the grade-import
formats of learning-management systems.

``grades.csv`` is read by column name (``submission``, ``total``, ``max``, ``status``,
``reason``, ``student_id``, ``id_source``; the question columns are those between
``submission`` and ``total``), so columns added later are ignored. Each row becomes one
student's grade for the assignment, keyed by the identifier the grader used:

* ``canvas`` — Canvas's gradebook import: the columns ``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section`` and one column for the assignment, named by its title
  (``Title (id)`` names an existing assignment by its Canvas id), then a ``Points Possible``
  row; the identifier goes in the column ``id_column`` names (``SIS Login ID`` by default);
* ``moodle`` — Moodle's "Import grades from CSV file": an identifier column named as Moodle's
  own export names the user field (``Email address``, ``ID number`` or ``Username``), the
  grade column (the title) and a ``Feedback`` column with the points per question, to map to
  the user field, the grade item and its feedback on Moodle's import page;
* ``csv`` — a plain table: ``student_id``, ``score``, ``max_score``, ``status``,
  ``submission``.

Left out, and listed in the summary: rows without an identifier; rows whose identifier is the
notebook's own claim (``id_source`` ``notebook``: no roster or Gradescope named the owner)
unless ``allow_unverified``; rows the instructor excludes; and an identifier that starts as a
spreadsheet formula does. Two rows for one student are refused (exclude one).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CANVAS_ID_COLUMNS", "EXPORT_FORMATS", "MOODLE_ID_FIELDS", "Export", "export_grades",
           "read_gradebook"]

EXPORT_FORMATS = ("canvas", "moodle", "csv")
CANVAS_ID_COLUMNS = {"sis_login_id": "SIS Login ID", "sis_user_id": "SIS User ID", "id": "ID"}
MOODLE_ID_FIELDS = {"email": "Email address", "idnumber": "ID number", "username": "Username"}
CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
REQUIRED = ("submission", "total", "max", "status", "student_id", "id_source")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "|", "%")
MAX_GRADES_BYTES = 256 * 1024 * 1024


@dataclass
class Export:
    """What an export wrote: the ``rows`` exported and those ``left_out`` with the reason,
    ``[(submission, reason)]``; ``notes`` are rows exported with something to check."""

    path: Path
    rows: list = field(default_factory=list)
    left_out: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _cell(text):
    """A grades.csv text cell as written before the grader protected it from spreadsheets
    (a leading apostrophe before a formula character)."""
    text = text or ""
    if text.startswith("'") and text[1:2] and text[1:2] in FORMULA_START:
        return text[1:]
    return text


def read_gradebook(grades):
    """``(columns, rows)`` of a grades.csv (``grades`` is the file or the folder holding it);
    each row a dict of its cells. Raises ValueError naming the file for a missing column."""
    from nbcourse.grading.files import NotebookError, read_regular_file

    path = Path(grades)
    if path.is_dir():
        path = path / "grades.csv"
    try:
        text = read_regular_file(path, MAX_GRADES_BYTES).decode("utf-8-sig")
    except (NotebookError, UnicodeDecodeError) as exc:
        raise ValueError(f"grades must be a grades.csv written by nbcourse grade (or its "
                         f"folder), got {str(path)!r}: {exc}") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    columns = list(reader.fieldnames or [])
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise ValueError(f"grades must have the columns {list(REQUIRED)}, got {columns} in "
                         f"{path} (missing {missing})")
    rows = []
    for row in reader:
        row = {k: _cell(v) for k, v in row.items() if k is not None}
        rows.append(row)
    return columns, rows


def _questions(columns):
    return columns[columns.index("submission") + 1:columns.index("total")]


def _choose(rows, allow_unverified, exclude):
    """The rows to export and those left out, ``[(submission, reason)]``."""
    from nbcourse.grading.variants import canonical_id

    chosen, left_out, owners = [], [], {}
    excluded = set(exclude or ())
    unknown = excluded - {r["submission"] for r in rows}
    if unknown:
        raise ValueError(f"exclude must name submissions of the gradebook, got "
                         f"{sorted(unknown)}")
    for row in rows:
        name, student = row["submission"], row["student_id"].strip()
        if name in excluded:
            left_out.append((name, "excluded"))
        elif not student:
            left_out.append((name, "no identifier: the notebook names nobody and no roster "
                                   "entry names its owner"))
        elif row["id_source"] == "notebook" and not allow_unverified:
            left_out.append((name, f"unverified: {student!r} is the notebook's own claim "
                                   f"(grade with --roster, or pass --allow-unverified)"))
        elif student.startswith(FORMULA_START):
            left_out.append((name, f"identifier {student!r} starts as a spreadsheet formula"))
        else:
            key = canonical_id(student)
            if key in owners:
                raise ValueError(f"grades must hold one row per student: {owners[key]!r} and "
                                 f"{name!r} are both {student!r}; exclude one of them "
                                 f"(--exclude SUBMISSION)")
            owners[key] = name
            chosen.append(row)
    return chosen, left_out


def _points_possible(rows):
    values = {row["max"] for row in rows}
    if len(values) > 1:
        raise ValueError(f"grades must have one maximum for every row, got {sorted(values)}")
    return values.pop() if values else ""


def _feedback(row, questions):
    parts = [f"{q} {row.get(q, '')}" for q in questions]
    text = f"{row['total']} of {row['max']} points ({row['status']})"
    if parts:
        text += ". Per question: " + ", ".join(parts)
    return text + "."


def export_grades(grades, fmt, output, title=None, id_column="sis_login_id",
                  id_field="email", allow_unverified=False, exclude=None):
    """Write the gradebook ``grades`` (a grades.csv or its folder) in format ``fmt`` to
    ``output``; returns an :class:`Export`.

    ``title`` names the assignment in the LMS (default: the assignment recorded with the
    grades, else the folder's name); ``id_column`` is Canvas's column for the identifier
    (:data:`CANVAS_ID_COLUMNS`) and ``id_field`` Moodle's user field (:data:`MOODLE_ID_FIELDS`).
    """
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"format must be one of {list(EXPORT_FORMATS)}, got {fmt!r}")
    if id_column not in CANVAS_ID_COLUMNS:
        raise ValueError(f"id_column must be one of {list(CANVAS_ID_COLUMNS)}, got {id_column!r}")
    if id_field not in MOODLE_ID_FIELDS:
        raise ValueError(f"id_field must be one of {list(MOODLE_ID_FIELDS)}, got {id_field!r}")
    columns, rows = read_gradebook(grades)
    chosen, left_out = _choose(rows, allow_unverified, exclude)
    title = title or _assignment_name(grades)
    if not title.strip() or "\n" in title or "\r" in title:
        raise ValueError(f"title must be a one-line assignment name, got {title!r}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if fmt == "canvas":
        writer.writerow(CANVAS_HEADER + [title])
        writer.writerow(["Points Possible", "", "", "", "", _points_possible(chosen)])
        at = CANVAS_HEADER.index(CANVAS_ID_COLUMNS[id_column])
        for row in chosen:
            cells = [row["student_id"], "", "", "", "", row["total"]]
            cells[at] = row["student_id"]
            writer.writerow(cells)
    elif fmt == "moodle":
        writer.writerow([MOODLE_ID_FIELDS[id_field], title, "Feedback"])
        questions = _questions(columns)
        for row in chosen:
            writer.writerow([row["student_id"], row["total"], _feedback(row, questions)])
    else:
        writer.writerow(["student_id", "score", "max_score", "status", "submission"])
        for row in chosen:
            writer.writerow([row["student_id"], row["total"], row["max"], row["status"],
                             row["submission"]])
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(buffer.getvalue(), encoding="utf-8", newline="")
    notes = [(r["submission"], f"status {r['status']}: {r.get('reason', '')}".rstrip(": "))
             for r in chosen if r["status"] != "graded"]
    notes += [(r["submission"], f"the notebook claims another identifier ({r['id_check']})")
              for r in chosen if r.get("id_check") in ("differs", "look-alike")]
    return Export(output, chosen, left_out, notes)


def _assignment_name(grades):
    import json

    folder = Path(grades)
    folder = folder if folder.is_dir() else folder.parent
    try:
        record = json.loads((folder / ".nbcourse" / "batch.json").read_text(encoding="utf-8"))
        name = record.get("assignment")
    except (OSError, ValueError, AttributeError):
        name = None
    return name if isinstance(name, str) and name else folder.resolve().name
