"""Written answers: export them for a person to score, and merge the scores back.

Every ``*Write your answer here.*`` cell of a student notebook belongs to the question
whose ``## Question N`` heading precedes it. After a batch is graded, :func:`export_written`
writes, next to ``grades.csv``:

* ``written-answers.csv``: one row per submission × question with the answer's text and
  empty ``points`` and ``comment`` columns for the grader to fill in;
* ``written-answers.html``: the same answers as a page to read (all text escaped).

``python -m nbcourse grade-merge --out OUT SCORES.csv`` (:func:`merge_scores`) then adds
the filled-in points to ``OUT/grades.csv`` (one ``written_qN`` column per question, the
total and the maximum updated) and to each ``OUT/<submission>/results.json`` (one
Gradescope test per written answer). Merging again replaces the earlier written scores.

A submission's answer cell is found by its cell id; if the student's Jupyter dropped the
ids, the markdown cells of the question's section that differ from the template are used.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from pathlib import Path

from .generate import student_path

__all__ = ["PLACEHOLDER", "export_written", "merge_scores", "written_answers",
           "written_questions"]

PLACEHOLDER = "*Write your answer here.*"
MAX_ANSWER = 20_000
CSV_NAME, HTML_NAME = "written-answers.csv", "written-answers.html"
WRITTEN = " (written answer)"
_HEADING = re.compile(r"^\s*#{1,6}\s*Question\s+(\d+)\b", re.I)


def _source(cell):
    source = cell.get("source", "") if isinstance(cell, dict) else ""
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        source = "".join(source)
    return source if isinstance(source, str) else ""


def _sections(cells):
    """``(question or None, cell)`` for every markdown cell, in order."""
    question = None
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        match = _HEADING.match(_source(cell))
        if match:
            question = f"q{match.group(1)}"
        yield question, cell


def written_questions(folder):
    """``{question: cell id}`` of the answer cells in the student notebook of ``folder``."""
    nb = json.loads(student_path(folder).read_text(encoding="utf-8"))
    return {q: cell.get("id") for q, cell in _sections(nb["cells"])
            if q is not None and PLACEHOLDER in _source(cell)}


def written_answers(folder, submission_cells):
    """``{question: answer text}`` from a submission's list of cells ("" if unanswered)."""
    template = json.loads(student_path(folder).read_text(encoding="utf-8"))["cells"]
    known = {_source(c).strip() for c in template if c.get("cell_type") == "markdown"}
    wanted = written_questions(folder)
    answers = {}
    for question, cell_id in wanted.items():
        by_id = [c for c in submission_cells if isinstance(c, dict)
                 and c.get("cell_type") == "markdown" and cell_id and c.get("id") == cell_id]
        cells = by_id or [c for q, c in _sections(submission_cells)
                          if q == question and _source(c).strip() not in known]
        text = "\n\n".join(_source(c).strip() for c in cells)
        text = text.replace(PLACEHOLDER, "").strip()
        answers[question] = text[:MAX_ANSWER]
    return answers


def _submission_cells(path):
    from .grader import MAX_NOTEBOOK_BYTES, NotebookError, read_regular_file

    try:
        nb = json.loads(read_regular_file(path, MAX_NOTEBOOK_BYTES).decode("utf-8"))
    except (NotebookError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    return cells if isinstance(cells, list) else None


def export_written(folder, notebooks, names, out_dir):
    """Write ``written-answers.csv`` and ``.html`` into ``out_dir`` for ``notebooks`` (with
    their output ``names``); return the two paths, or None if the assignment has no
    written answers."""
    from .grader import _write_atomic, csv_cell

    questions = written_questions(folder)
    if not questions:
        return None
    rows = []
    for path, name in zip(notebooks, names, strict=True):
        cells = _submission_cells(path)
        answers = (written_answers(folder, cells) if cells is not None
                   else dict.fromkeys(questions, "(notebook could not be read)"))
        rows += [(name, q, answers[q]) for q in questions]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["submission", "question", "answer", "points", "max_points", "comment"])
    for name, question, answer in rows:
        writer.writerow([csv_cell(name), question, _csv_text(answer), "", "", ""])
    out_dir = Path(out_dir)
    csv_path = _write_atomic(out_dir / CSV_NAME, buffer.getvalue())
    html_path = _write_atomic(out_dir / HTML_NAME, _html(rows))
    return csv_path, html_path


def _csv_text(answer):
    """The answer with newlines kept (CSV quotes them), never read as a formula."""
    answer = "".join(c if c.isprintable() or c in "\n\t" else "?" for c in answer)
    return "'" + answer if answer.startswith(("=", "+", "-", "@", "\t", "\r", "|", "%")) \
        else answer


def _html(rows):
    body = []
    for name, question, answer in rows:
        text = html.escape(answer) if answer else "<em>(no answer)</em>"
        body.append(f"<tr><td>{html.escape(name)}</td><td>{html.escape(question)}</td>"
                    f"<td><pre>{text}</pre></td><td></td></tr>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Written answers</title><style>td{vertical-align:top;border:1px solid #999;"
            "padding:4px}pre{white-space:pre-wrap;font-family:inherit;margin:0}</style></head>"
            "<body><h1>Written answers</h1><p>Score them in written-answers.csv (points, "
            "max_points, comment), then run <code>python -m nbcourse grade-merge</code>.</p>"
            "<table><tr><th>submission</th><th>question</th><th>answer</th><th>points</th></tr>"
            + "\n".join(body) + "</table></body></html>\n")


# --- merging manual scores -------------------------------------------------------------


def _number(text, what, row):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} must be a number, got {text!r} in row {row}") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a finite number >= 0, got {text!r} in row {row}")
    return value


def read_scores(path, max_points=1.0):
    """``{submission: {question: (points, max_points, comment)}}`` from a scores CSV.

    Rows with an empty ``points`` are skipped (not scored yet).
    """
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        missing = {"submission", "question", "points"} - set(reader.fieldnames or [])
        if missing:
            raise ValueError(f"scores must be a CSV with columns submission, question, points "
                             f"(and optionally max_points, comment), got columns "
                             f"{reader.fieldnames}")
        scores = {}
        for row_number, row in enumerate(reader, start=2):
            if not (row.get("points") or "").strip():
                continue
            points = _number(row["points"].strip(), "points", row_number)
            top_text = (row.get("max_points") or "").strip()
            top = _number(top_text, "max_points", row_number) if top_text else max_points
            if points > top:
                raise ValueError(f"points must be at most max_points ({top:g}), got "
                                 f"{points:g} in row {row_number}")
            name = row["submission"].strip().removeprefix("'")
            scores.setdefault(name, {})[row["question"].strip()] = (
                points, top, (row.get("comment") or "").strip())
    return scores


def merge_scores(out_dir, scores_path, max_points=1.0):
    """Add the written scores of ``scores_path`` to ``out_dir``'s grades.csv and results.

    Returns the number of submissions updated. Raises ValueError for a submission that is
    not in grades.csv or a malformed scores file.
    """
    from .grader import _write_atomic, clip, csv_cell

    out_dir = Path(out_dir)
    scores = read_scores(scores_path, max_points)
    grades_path = out_dir / "grades.csv"
    with open(grades_path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if header[:1] != ["submission"] or "total" not in header or "max" not in header:
        raise ValueError(f"grades must be a grades.csv written by nbcourse grade, got header "
                         f"{header} in {grades_path}")
    by_name = {r[0].removeprefix("'"): r for r in body}
    unknown = sorted(set(scores) - set(by_name))
    if unknown:
        raise ValueError(f"scores name submissions that are not in {grades_path}: {unknown}")
    questions = sorted({q for s in scores.values() for q in s},
                       key=lambda q: (len(q), q))
    old_written = [h for h in header if h.startswith("written_") and h != "written_max"]
    auto = [h for h in header if h not in old_written and h != "written_max"]
    new_header = auto[:auto.index("total")] + [f"written_{q}" for q in questions] + \
        ["written_max"] + auto[auto.index("total"):]
    out = [new_header]
    for row in body:
        record = dict(zip(header, row, strict=False))
        name = row[0].removeprefix("'")
        before = sum(float(record[h] or 0) for h in old_written)
        before_max = float(record.get("written_max") or 0)
        mine = scores.get(name, {})
        written = {q: mine[q][0] for q in mine}
        top = sum(v[1] for v in mine.values())
        record["total"] = round(float(record["total"]) - before + sum(written.values()), 6)
        record["max"] = round(float(record["max"]) - before_max + top, 6)
        for q in questions:
            record[f"written_{q}"] = written.get(q, "")
        record["written_max"] = top
        out.append([record.get(h, "") for h in new_header])
        results = out_dir / name / "results.json"
        if results.is_file():
            _merge_results(results, mine, _write_atomic, clip)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(out[0])
    for row in out[1:]:
        writer.writerow([row[0], *[csv_cell(v) if isinstance(v, str) else v for v in row[1:]]])
    _write_atomic(grades_path, buffer.getvalue())
    return len(scores)


def _merge_results(path, mine, write, clip):
    data = json.loads(path.read_text(encoding="utf-8"))
    kept = [t for t in data.get("tests", []) if not str(t.get("name", "")).endswith(WRITTEN)]
    old = sum(float(t.get("score", 0)) for t in data.get("tests", [])
              if str(t.get("name", "")).endswith(WRITTEN))
    added = [{"name": f"{q}{WRITTEN}", "score": points, "max_score": top,
              "output": clip(comment or "Scored by hand.", 2000), "visibility": "visible"}
             for q, (points, top, comment) in sorted(mine.items())]
    data["tests"] = kept + added
    data["score"] = round(float(data.get("score", 0)) - old + sum(t["score"] for t in added), 4)
    write(path, json.dumps(data, indent=2) + "\n")
