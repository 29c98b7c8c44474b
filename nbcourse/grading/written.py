"""Written answers: export them for a person to score, and merge the scores back.

Every ``*Write your answer here.*`` cell of a student notebook belongs to the question
whose ``## Question N`` heading precedes it. After a batch is graded, :func:`export_written`
writes, next to ``grades.csv``:

* ``written-answers.csv``: one row per submission × question with the answer's text and
  empty ``points`` and ``comment`` columns for the grader to fill in;
* ``written-answers.html``: the same answers as a page to read (all text escaped), after
  the scoring rubric of each question.

The rubric is the instructor's file ``<assignment>/rubric.yml`` (:func:`load_rubric`), kept
out of the student tree like the solutions: for each written question its points, the
elements that earn them and a model answer. The export fills each row's ``max_points`` with
the question's points from the rubric, so the merge gives every answer the same maximum.

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

from .assignment import RUBRIC
from .generate import student_path

__all__ = ["PLACEHOLDER", "RUBRIC", "WrittenExport", "check_rubric", "export_written",
           "load_rubric", "merge_scores", "written_answers", "written_questions"]

PLACEHOLDER = "*Write your answer here.*"
MAX_ANSWER = 20_000
CSV_NAME, HTML_NAME = "written-answers.csv", "written-answers.html"
RUBRIC_STORE = "written-rubric.json"  # in OUT/.nbcourse/, so a merge shows the rubric too
WRITTEN = " (written answer)"
_HEADING = re.compile(r"^\s*#{1,6}\s*Question\s+(\d+)\b", re.I)
_QUESTION = re.compile(r"^q[1-9][0-9]*$")


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


def _positive(value, what, path):
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} in {path} must be a number > 0, got {value!r}")
    return float(value)


def _text(value, what, path):
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} in {path} must be a non-empty string, got {value!r}")
    return value.strip()


def load_rubric(folder):
    """The scoring rubric of the written answers of the assignment in ``folder``.

    ``<folder>/rubric.yml`` maps each written question (``q5``) to its ``points``, a list
    of ``elements`` (each ``points`` and a ``criterion``) whose points sum to the
    question's, and a ``model_answer``. Returns ``{question: {"points": float,
    "elements": [(points, criterion), ...], "model_answer": str}}``, or ``{}`` if the
    assignment has no rubric file.

    Raises ValueError naming the file and the entry for a rubric of any other form.
    """
    path = Path(folder) / RUBRIC
    if not path.is_file():
        return {}
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ValueError(f"rubric must be readable YAML, got an error in {path}: {exc}") from None
    if not isinstance(data, dict) or not data:
        raise ValueError(f"rubric {path} must map written questions (q1, q2, ...) to their "
                         f"rubric, got {type(data).__name__}")
    rubric = {}
    for question, entry in data.items():
        if not isinstance(question, str) or not _QUESTION.match(question):
            raise ValueError(f"rubric {path}: keys must be questions such as 'q5', "
                             f"got {question!r}")
        if not isinstance(entry, dict) or set(entry) != {"points", "elements", "model_answer"}:
            got = sorted(entry) if isinstance(entry, dict) else type(entry).__name__
            raise ValueError(f"{question} in {path} must have exactly points, elements and "
                             f"model_answer, got {got}")
        points = _positive(entry["points"], f"{question}: points", path)
        elements = entry["elements"]
        if not isinstance(elements, list) or not elements:
            raise ValueError(f"{question}: elements in {path} must be a non-empty list, "
                             f"got {elements!r}")
        parsed = []
        for k, element in enumerate(elements, start=1):
            if not isinstance(element, dict) or set(element) != {"points", "criterion"}:
                raise ValueError(f"{question}: element {k} in {path} must have exactly points "
                                 f"and criterion, got {element!r}")
            parsed.append((_positive(element["points"], f"{question}: element {k} points", path),
                           _text(element["criterion"], f"{question}: element {k} criterion",
                                 path)))
        total = sum(p for p, _ in parsed)
        if not math.isclose(total, points, rel_tol=0, abs_tol=1e-9):
            raise ValueError(f"{question}: the points of the elements in {path} must sum to the "
                             f"question's points ({points:g}), got {total:g}")
        rubric[question] = {"points": points, "elements": parsed,
                            "model_answer": _text(entry["model_answer"],
                                                  f"{question}: model_answer", path)}
    return rubric


def check_rubric(folder):
    """The rubric of ``folder`` (:func:`load_rubric`), checked against its written
    questions: every written question has an entry and every entry is a written question.

    Raises ValueError naming the questions that are missing or unknown.
    """
    rubric = load_rubric(folder)
    wanted = set(written_questions(folder))
    missing = sorted(wanted - set(rubric), key=_question_order)
    unknown = sorted(set(rubric) - wanted, key=_question_order)
    if missing or unknown:
        raise ValueError(f"rubric of {folder} must cover exactly its written questions "
                         f"{sorted(wanted, key=_question_order)}, got no entry for {missing} and "
                         f"entries for questions without a written answer {unknown}")
    return rubric


def _submission_cells(path):
    """The cells of a submission (type, id and source only: read with bounded memory by
    :func:`~nbcourse.grading.cells.read_cells`), or None if it cannot be read."""
    from .cells import read_cells
    from .files import NotebookError

    try:
        return read_cells(path)
    except NotebookError:
        return None


def export_written(folder, notebooks, names, out_dir):
    """Write ``written-answers.csv`` and ``.html`` into ``out_dir`` for ``notebooks`` (with
    their output ``names``), keeping the rows of other submissions already there; return
    the two paths, or None if the assignment has no written answers."""
    export = WrittenExport(folder, out_dir)
    for path, name in zip(notebooks, names, strict=True):
        export.update(name, path, write=False)
    return export.finish()


_COLUMNS = ["submission", "question", "answer", "points", "max_points", "comment"]


class WrittenExport:
    """``written-answers.csv`` and ``.html`` of an output folder, updated one submission at
    a time: the rows of other submissions stay, and a submission graded again gets its new
    answer with the ``points``, ``max_points`` and ``comment`` already filled in kept."""

    def __init__(self, folder, out_dir):
        self.folder, self.out_dir = folder, Path(out_dir)
        self.questions = written_questions(folder)
        has_rubric = self.questions and (Path(folder) / RUBRIC).is_file()
        self.rubric = check_rubric(folder) if has_rubric else {}
        self.rows = self._read() if self.questions else {}

    def _read(self):
        return read_written_csv(self.out_dir)

    def update(self, name, path, write=True):
        """Take the answers of the notebook at ``path`` (output name ``name``)."""
        if not self.questions:
            return
        cells = _submission_cells(path)
        answers = (written_answers(self.folder, cells) if cells is not None
                   else dict.fromkeys(self.questions, "(notebook could not be read)"))
        for q in self.questions:
            old = self.rows.get((name, q), {})
            row = {**dict.fromkeys(_COLUMNS, ""), **old, "submission": name,
                   "question": q, "answer": _csv_text(answers[q])}
            if not row["max_points"] and q in self.rubric:
                row["max_points"] = _points_text(self.rubric[q]["points"])
            self.rows[(name, q)] = row
        if write:
            self.finish()

    def order(self, names):
        """Put the rows of the submissions ``names`` in that order, the others after them."""
        rank = {n: k for k, n in enumerate(names)}
        keys = sorted(self.rows, key=lambda key: rank.get(key[0], len(rank)))
        self.rows = {key: self.rows[key] for key in keys}

    def finish(self):
        """Write both files; return their paths (None without written questions)."""
        from .files import _write_atomic, csv_cell

        if not self.questions:
            return None
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(_COLUMNS)
        for row in self.rows.values():
            writer.writerow([csv_cell(row["submission"]), _plain(row["question"]),
                             _csv_text(row["answer"])]
                            + [_csv_text(row[c]) for c in _COLUMNS[3:]])
        csv_path = _write_atomic(self.out_dir / CSV_NAME, buffer.getvalue())
        html_rows = [(r["submission"], r["question"], _unquoted(r["answer"]))
                     for r in self.rows.values()]
        if self.rubric:
            from .gradebook import STATE

            (self.out_dir / STATE).mkdir(parents=True, exist_ok=True)
            _write_atomic(self.out_dir / STATE / RUBRIC_STORE,
                          json.dumps(self.rubric, indent=1, sort_keys=True) + "\n")
        html_path = _write_atomic(self.out_dir / HTML_NAME, _html(html_rows, self.rubric))
        return csv_path, html_path


def read_written_csv(out_dir):
    """``{(submission, question): row}`` of ``out_dir/written-answers.csv`` ({} if none)."""
    from .files import MAX_NOTEBOOK_BYTES, NotebookError, read_regular_file

    path = Path(out_dir) / CSV_NAME
    if not path.exists():
        return {}
    try:
        text = read_regular_file(path, 16 * MAX_NOTEBOOK_BYTES).decode("utf-8")
    except (NotebookError, UnicodeDecodeError) as exc:
        raise ValueError(f"out must hold a readable {CSV_NAME}, got {path}: {exc}") from None
    rows = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        row = {c: row.get(c) or "" for c in _COLUMNS}
        row["submission"] = row["submission"].removeprefix("'")
        rows[(row["submission"], row["question"])] = row
    return rows


_FORMULA = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def _plain(text):
    """``text`` with every character that is not printable, other than newlines and tabs,
    replaced by ``?``: terminal control sequences, bidirectional overrides and isolates,
    zero-width characters, line separators."""
    return "".join(c if c.isprintable() or c in "\n\t" else "?" for c in text)


def _csv_text(answer):
    """The answer with newlines kept (CSV quotes them), never read as a formula."""
    answer = _plain(answer)
    return "'" + answer if answer.startswith(_FORMULA) else answer


def _unquoted(answer):
    """An answer as read back from the CSV, without the apostrophe :func:`_csv_text` added."""
    return answer[1:] if answer.startswith("'") and answer[1:].startswith(_FORMULA) else answer


def _points_text(points):
    return f"{points:g}"


def _rubric_html(rubric):
    """The rubric as HTML sections, one per question (all text escaped)."""
    parts = []
    for q in sorted(rubric, key=_question_order):
        entry = rubric[q]
        items = "".join(f"<li><strong>{_points_text(p)}</strong>: {html.escape(c)}</li>"
                        for p, c in entry["elements"])
        parts.append(f"<section class=\"rubric\"><h2>{html.escape(q)}: rubric "
                     f"({_points_text(entry['points'])} points)</h2><ul>{items}</ul>"
                     f"<p>Model answer:</p><pre>{html.escape(entry['model_answer'])}</pre>"
                     f"</section>")
    return "\n".join(parts)


def _html(rows, rubric=None):
    body = []
    for name, question, answer in rows:
        text = html.escape(_plain(answer)) if answer else "<em>(no answer)</em>"
        body.append(f"<tr><td>{html.escape(_plain(name))}</td>"
                    f"<td>{html.escape(_plain(question))}</td>"
                    f"<td><pre>{text}</pre></td><td></td></tr>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Written answers</title><style>td{vertical-align:top;border:1px solid #999;"
            "padding:4px}pre{white-space:pre-wrap;font-family:inherit;margin:0}</style></head>"
            "<body><h1>Written answers</h1><p>Score them in written-answers.csv (points, "
            "max_points, comment), then run <code>python -m nbcourse grade-merge</code>.</p>"
            + _rubric_html(rubric or {})
            + "<h2>Answers</h2><table><tr><th>submission</th><th>question</th><th>answer</th><th>points</th></tr>"
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
    """``{submission: {question: (points, max_points or None, comment, row)}}`` from a
    scores CSV; ``max_points`` is None where its cell is empty.

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
            top = _number(top_text, "max_points", row_number) if top_text else None
            name = row["submission"].strip().removeprefix("'")
            scores.setdefault(name, {})[row["question"].strip()] = (
                points, top, (row.get("comment") or "").strip(), row_number)
    return scores


def merge_scores(out_dir, scores_path, max_points=None):
    """Make the written scores of ``scores_path`` those of ``out_dir``: its grades.csv and
    every results.json.

    Every written question gets the same points in every row: its ``max_points`` where the
    scores give one (they must agree), else ``max_points`` here if given, else its points in
    the assignment's rubric (kept in the folder by the export), else 1; an answer without a score
    counts as 0 of those points. The scores replace all earlier ones and are kept in the
    folder, so a later batch into it keeps them.

    Returns the number of submissions scored. Raises ValueError for a submission that is
    not in grades.csv, an unknown question or a malformed scores file (nothing changes).
    """
    from .files import _write_atomic
    from .gradebook import OutputFolder, Written, number

    if max_points is not None and (
            isinstance(max_points, bool) or not isinstance(max_points, int | float)
            or not math.isfinite(max_points) or max_points <= 0):
        raise ValueError(f"max_points must be a finite number > 0 or None, got {max_points!r}")
    folder = OutputFolder(out_dir)
    grades_path = folder.path / "grades.csv"
    if not grades_path.is_file():
        raise ValueError(f"out must be the output folder of nbcourse grade, got {out_dir} "
                         f"(no grades.csv there)")
    scores = read_scores(scores_path)
    with folder.lock():
        rows = folder.read_rows(None)
        unknown = sorted(set(scores) - set(rows))
        if unknown:
            raise ValueError(f"scores name submissions that are not in {grades_path}: "
                             f"{unknown}")
        known = sorted({q for (_, q) in read_written_csv(folder.path)}, key=_question_order)
        rubric = folder._read_json(RUBRIC_STORE) or {}
        given = {q for s in scores.values() for q in s}
        if known and not given <= set(known):
            raise ValueError(f"scores must name written questions of {CSV_NAME} ({known}), got "
                             f"{sorted(given - set(known), key=_question_order)}")
        questions = {}
        for q in sorted(set(known) | given, key=_question_order):
            tops = {(s[q][1], s[q][3]) for s in scores.values()
                    if q in s and s[q][1] is not None}
            values = sorted({t for t, _ in tops})
            if len(values) > 1:
                rows_of = sorted(r for _, r in tops)
                raise ValueError(f"max_points of {q} must be the same in every row, got "
                                 f"{', '.join(f'{v:g}' for v in values)} (rows "
                                 f"{', '.join(map(str, rows_of))})")
            if values:
                questions[q] = values[0]
            elif max_points is None and q in rubric:
                questions[q] = float(rubric[q]["points"])
            else:
                questions[q] = 1.0 if max_points is None else float(max_points)
        for s in scores.values():
            for q, (points, _, _, row) in s.items():
                if points > questions[q]:
                    raise ValueError(f"points must be at most max_points ({questions[q]:g}), "
                                     f"got {points:g} in row {row}")
        written = Written(questions, {name: {q: [v[0], v[2]] for q, v in s.items()}
                                      for name, s in scores.items()}, True)
        folder.save_written(written)
        export = WrittenExport.__new__(WrittenExport)
        export.out_dir, export.rows = folder.path, read_written_csv(folder.path)
        export.questions = known
        export.rubric = rubric
        for name, mine in scores.items():  # the file to keep shows what is merged
            for q, (points, top, comment, _) in mine.items():
                if (name, q) in export.rows:
                    export.rows[(name, q)].update(points=number(points), comment=comment,
                                                  max_points="" if top is None else number(top))
        export.finish()
        folder.write_grades(folder.columns, rows, written)
        for name in rows:
            results = folder.path / name / "results.json"
            if results.is_file() and not results.is_symlink():
                data = json.loads(results.read_text(encoding="utf-8"))
                _write_atomic(results, json.dumps(written.apply(data, name), indent=2) + "\n")
    return len(scores)


def _question_order(q):
    return (len(q), q)
