"""Untrusted names: any byte sequence as a file name, option-like names on the command
line, invisible characters in exports and progress lines, and which notebook Gradescope
grades when a submission holds several."""

import csv
import json
import os
import shutil

import nbformat
import pytest
from hostile import EX_BINARY

from nbcourse.grading.batch import grade_batch, output_names
from nbcourse.grading.generate import student_path

INVISIBLE = ["\u202e", "\u202d", "\u2066", "\u2069", "\u200b", "\u200d", "\ufeff", "\x1b",
             "\x07", "\u2028", "\x9b"]


def _visible(text):
    return not any(c in text for c in INVISIBLE)


@pytest.mark.sandbox
def test_any_byte_sequence_is_a_file_name_and_shows_escaped(tmp_path, capsys):
    from nbcourse.grading.cli import grade_main

    subs = tmp_path / "subs"
    subs.mkdir()
    raw = [b"caf\xe9.ipynb", b"\xff\xfe.ipynb", "\u202eevil\u200b.ipynb".encode(),
           b"\x1b[2Kx.ipynb", "café.ipynb".encode()]
    for name in raw:
        fd = os.open(os.fsencode(subs) + b"/" + name, os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, b"not a notebook")  # invalid: graded without a kernel
        os.close(fd)
    # the folder as the command line gives it: grade finds every notebook in it
    assert grade_main(["--assignment", str(EX_BINARY), "--out", str(tmp_path / "out"),
                       str(subs)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert all(_visible(line) for line in printed)
    names = sorted(["caf%E9.ipynb", "%FF%FE.ipynb", "%E2%80%AEevil%E2%80%8B.ipynb",
                    "%1B%5B2Kx.ipynb", "café.ipynb"])
    assert sum(any(name in line for line in printed) for name in names) == len(raw)
    text = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8")
    assert _visible(text)
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["submission"].removeprefix("'") for r in rows) == names
    assert all(r["status"] == "invalid" for r in rows)
    for name in names:
        assert (tmp_path / "out" / name / "results.json").is_file()


def test_non_utf8_names_stay_distinct_from_their_escaped_spelling(tmp_path):
    paths = [os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9.ipynb"),
             str(tmp_path / "caf%E9.ipynb"), str(tmp_path / "café.ipynb")]
    assert output_names(paths) == ["caf%E9.ipynb", "caf%25E9.ipynb", "café.ipynb"]


@pytest.mark.sandbox
def test_option_like_submission_names_are_refused_before_double_dash(tmp_path, monkeypatch,
                                                                    capsys):
    from nbcourse.grading.cli import grade_main

    monkeypatch.chdir(tmp_path)
    out = tmp_path / "grades"
    for name in ("--out=elsewhere.ipynb", "--regrade"):
        (tmp_path / name).write_bytes(b"not a notebook")
    for name in ("--out=elsewhere.ipynb", "--regrade"):
        with pytest.raises(SystemExit) as info:
            grade_main(["--assignment", str(EX_BINARY), "--out", str(out), name])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert f"argument submissions: {name!r} starts with '-' and names a file" in err
        assert "'--' before any submission" in err
    assert not out.exists() and not (tmp_path / "elsewhere.ipynb").exists()
    with pytest.raises(SystemExit):  # a prefix of an option is not taken for it either
        grade_main(["--assignment", str(EX_BINARY), "--out", str(out), "--qu", "x.ipynb"])
    capsys.readouterr()
    assert grade_main(["--assignment", str(EX_BINARY), "--out", str(out), "--",
                       "--out=elsewhere.ipynb"]) == 0
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        (row,) = csv.DictReader(f)
    assert row["submission"] == "'--out%3Delsewhere.ipynb" and row["status"] == "invalid"


def test_written_exports_and_merged_comments_carry_no_invisible_characters(tmp_path):
    from nbcourse.grading.gradebook import Written
    from nbcourse.grading.written import export_written

    nb = nbformat.read(student_path(EX_BINARY), as_version=4)
    cell = next(c for c in nb.cells if "*Write your answer here.*" in c.source)
    answer = "yes" + "".join(INVISIBLE) + "\nline 2\tend"
    cell.source = answer
    path = tmp_path / "a.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    csv_path, html_path = export_written(EX_BINARY, [path], ["a.ipynb"], out)
    with open(csv_path, encoding="utf-8", newline="") as f:
        (row,) = csv.DictReader(f)
    assert row["answer"] == "yes" + "?" * len(INVISIBLE) + "\nline 2\tend"
    assert _visible(csv_path.read_text(encoding="utf-8"))
    assert _visible(html_path.read_text(encoding="utf-8"))
    tests = Written({"q5": 1.0}, {"a.ipynb": {"q5": [1, "good" + "".join(INVISIBLE)]}},
                    True).tests("a.ipynb")
    assert _visible(tests[0]["output"]) and tests[0]["output"].startswith("good")


LOOK_ALIKES = {"alice.ipynb": "alice.ipynb",
               "\u0430lice.ipynb": "%D0%B0lice.ipynb",      # Cyrillic а
               "\uff41lice.ipynb": "%EF%BD%81lice.ipynb",   # fullwidth ａ
               "\u212bsa.ipynb": "%E2%84%ABsa.ipynb",       # the Ångström sign
               "\u00c5sa.ipynb": "\u00c5sa.ipynb",           # Å, the letter
               "bo\u0431.ipynb": "bo%D0%B1.ipynb",           # Cyrillic б (looks like 6)
               "jos\u00e9.ipynb": "jos\u00e9.ipynb",         # é is kept
               "jose\u0301.ipynb": "jose%CC%81.ipynb"}       # e and a combining accent


@pytest.mark.sandbox
def test_look_alike_names_are_visibly_distinct_in_every_export(tmp_path):
    """Names that differ only by a character that looks like another (Cyrillic а for a,
    fullwidth ａ, the Ångström sign for Å) show differently in grades.csv and the
    written-answers CSV and HTML: the look-alike character is percent-encoded."""
    import html
    import unicodedata

    subs = tmp_path / "subs"
    subs.mkdir()
    for name in LOOK_ALIKES:
        (subs / name).write_bytes(b"not a notebook")  # invalid: graded without a kernel
    out = tmp_path / "out"
    results = grade_batch(EX_BINARY, sorted(subs.iterdir()), out, progress=None)
    assert sorted(r.name for r in results) == sorted(LOOK_ALIKES.values())
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        shown = [r["submission"].removeprefix("'") for r in csv.DictReader(f)]
    with open(out / "written-answers.csv", encoding="utf-8", newline="") as f:
        written = {r["submission"].removeprefix("'") for r in csv.DictReader(f)}
    page = html.unescape((out / "written-answers.html").read_text(encoding="utf-8"))
    assert sorted(shown) == sorted(written) == sorted(LOOK_ALIKES.values())
    assert all(f"<td>{name}</td>" in page for name in LOOK_ALIKES.values())

    def looks(name):  # what a reader sees: compatibility forms folded, accents dropped
        folded = unicodedata.normalize("NFKD", name).translate({0x430: "a", 0x431: "6"})
        return "".join(c for c in folded if not unicodedata.combining(c))

    assert len({looks(n) for n in shown}) == len(shown)


def test_gradescope_shows_look_alike_names_escaped():
    from nbcourse.grading.gradescope import shown_name

    assert shown_name("\u0430lice.ipynb") == "\\u0430lice.ipynb"
    assert shown_name("jos\u00e9.ipynb") == "jos\u00e9.ipynb"


# --- Gradescope: several notebooks in one submission -----------------------------------


def _submission(folder, files):
    folder.mkdir(parents=True)
    for name, content in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            shutil.copy(content, target)
    return folder


@pytest.mark.parametrize("files, graded, why", [
    ({"02-binary-discriminant.ipynb": student_path(EX_BINARY), "a.ipynb": EX_BINARY / "solution.ipynb"},
     "02-binary-discriminant.ipynb", "the one named after the assignment"),
    ({"notes.ipynb": b"{", "work.ipynb": student_path(EX_BINARY)}, "work.ipynb",
     "the only one that is a readable notebook"),
    ({"b.ipynb": student_path(EX_BINARY), "a.ipynb": student_path(EX_BINARY)}, "a.ipynb",
     "the first readable notebook in alphabetical order"),
    ({"b.ipynb": b"x", "a\u202e.ipynb": b"y"}, "a\\u202e.ipynb",
     "the first in alphabetical order; none is a readable notebook"),
])
def test_gradescope_picks_one_of_several_notebooks_and_says_which(files, graded, why,
                                                                   tmp_path):
    from nbcourse.grading.gradescope import pick_submission

    folder = _submission(tmp_path / "submission", files)
    chosen, note = pick_submission(folder, "02-binary-discriminant")
    assert note.startswith(f"You submitted {len(files)} notebooks (")
    assert f"graded {graded}, {why}. Submit only 02-binary-discriminant.ipynb" in note
    assert _visible(note)


@pytest.mark.sandbox
def test_gradescope_results_tell_the_student_which_notebook_was_graded(tmp_path):
    from test_grading import LIMITS_FOR_BUNDLE, _unpack

    from nbcourse.grading.gradescope import build_bundle, run

    build_bundle(EX_BINARY, tmp_path / "bundle.zip", LIMITS_FOR_BUNDLE)
    root = tmp_path / "autograder"
    _unpack(tmp_path / "bundle.zip", root)
    (root / "submission" / "draft.ipynb").write_bytes(b"{")
    shutil.copy(EX_BINARY / "solution.ipynb", root / "submission" / "final.ipynb")
    assert run(root) == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["output"].startswith("You submitted 2 notebooks (draft.ipynb, final.ipynb); "
                                        "graded final.ipynb, the only one that is a readable "
                                        "notebook.")
    assert results["score"] == 12
