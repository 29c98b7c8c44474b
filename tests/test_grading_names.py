"""Untrusted names: any byte sequence as a file name, option-like names on the command
line, invisible characters in exports and progress lines, and which notebook Gradescope
grades when a submission holds several."""

import csv
import json
import os
import shutil

import nbformat
import pytest
from grading_helpers import unpack_bundle
from hostile import EX_BINARY, HONEST_LIMITS

from nbcourse.grading import Limits
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.generate import student_path
from nbcourse.grading.names import output_names, safe_component

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
                    "%1B%5B2%4Bx.ipynb", "café.ipynb"])
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
    assert output_names(paths) == ["caf%E9.ipynb", "caf%25%459.ipynb", "café.ipynb"]


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
               "\u00c5sa.ipynb": "%C3%85sa.ipynb",           # Å, the letter: a capital
               "bo\u0431.ipynb": "bo%D0%B1.ipynb",           # Cyrillic б (looks like 6)
               "jos\u00e9.ipynb": "jos\u00e9.ipynb",         # é, a small letter, is kept
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
    from nbcourse.grading.gradescope import build_bundle, run

    build_bundle(EX_BINARY, tmp_path / "bundle.zip", Limits(**HONEST_LIMITS))
    root = tmp_path / "autograder"
    unpack_bundle(tmp_path / "bundle.zip", root)
    (root / "submission" / "draft.ipynb").write_bytes(b"{")
    shutil.copy(EX_BINARY / "solution.ipynb", root / "submission" / "final.ipynb")
    assert run(root) == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["output"].startswith("You submitted 2 notebooks (draft.ipynb, final.ipynb); "
                                        "graded final.ipynb, the only one that is a readable "
                                        "notebook.")
    assert results["score"] == 12


# --- file systems that ignore case or Unicode normalisation -----------------------------

def _fold(name):
    """A name as a file system that ignores case and normalisation compares it."""
    import unicodedata

    return unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())


COLLIDING = ["alice.ipynb", "Alice.ipynb", "ALICE.ipynb", "grades.csv", "GRADES.CSV",
             "Grades.csv", "Written-Answers.HTML", "written-answers.csv.ipynb", "RESULTS.JSON",
             "\u00e9.ipynb", "e\u0301.ipynb", "\u00c9.ipynb", "x.", "x", "con.ipynb", "CON",
             "Nul", "\u00df.ipynb", "ss.ipynb", "SS.ipynb", "\ufb01.ipynb", "fi.ipynb",
             "\u212a.ipynb", "k.ipynb", "K.ipynb", ".NBCOURSE", ".nbcourse"]


def test_names_stay_distinct_and_unreserved_without_case_or_normalisation(tmp_path):
    devices = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
               *(f"lpt{i}" for i in range(10))}
    names = output_names([tmp_path / n for n in COLLIDING])
    folded = [_fold(n) for n in names]
    assert len(set(folded)) == len(COLLIDING)
    reserved = {"grades.csv", "results.json", "written-answers.csv", "written-answers.html"}
    for name in folded:
        assert name not in reserved and not name.startswith((".", "written-answers."))
        assert name.split(".")[0] not in devices and not name.endswith(".")
    assert names[:2] == ["alice.ipynb", "%41lice.ipynb"]


def test_names_are_injective_after_case_folding_for_any_text():
    import unicodedata

    from hypothesis import given, settings
    from hypothesis import strategies as st


    component = st.text(min_size=1, max_size=12).filter(lambda t: "/" not in t and "\0" not in t)
    # a second name that a case- or normalisation-insensitive file system may take for it
    changes = [str.upper, str.lower, str.swapcase, str.casefold, str.title,
               lambda t: unicodedata.normalize("NFD", t), lambda t: unicodedata.normalize("NFC", t),
               lambda t: unicodedata.normalize("NFKC", t)]

    @settings(max_examples=400, deadline=None)
    @given(component, st.sampled_from(changes), component)
    def distinct(a, change, other):
        for b in (change(a), other):
            if b != a and "/" not in b and "\0" not in b:
                assert _fold(safe_component(a)) != _fold(safe_component(b)), (a, b)

    distinct()


@pytest.fixture
def case_insensitive_folder(tmp_path):
    """A folder on an exFAT file system (case-insensitive, like a FAT stick, Windows or
    macOS) in an image file of the test, through FUSE on a loop device; unmounted after."""
    import subprocess

    tools = ["mkfs.exfat", "mount.exfat-fuse", "losetup", "umount"]
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    missing = [t for t in tools if not shutil.which(t, path=path)]
    why = (f"a case-insensitive file system needs Debian's exfatprogs and exfat-fuse "
           f"(missing: {', '.join(missing)})" if missing else
           "mounting an exFAT image needs root" if os.geteuid() != 0 else None)
    image, mount = tmp_path / "exfat.img", tmp_path / "exfat"
    mount.mkdir()
    env = {**os.environ, "PATH": path}
    loop = None
    if why is None:
        with open(image, "wb") as f:
            f.truncate(64 * 1024 * 1024)
        subprocess.run(["mkfs.exfat", str(image)], check=True, capture_output=True, env=env)
        found = subprocess.run(["losetup", "--find", "--show", str(image)], capture_output=True,
                               text=True, env=env)
        loop = found.stdout.strip() if found.returncode == 0 else None
        mounted = loop and subprocess.run(["mount.exfat-fuse", loop, str(mount)],
                                          capture_output=True, text=True, env=env)
        if not mounted or mounted.returncode != 0:
            why = f"cannot mount an exFAT image here: {(mounted or found).stderr.strip()}"
    if why is not None:
        if loop:
            subprocess.run(["losetup", "-d", loop], env=env)
        if os.environ.get("NBCOURSE_REQUIRE_MOUNTS"):
            pytest.fail(f"NBCOURSE_REQUIRE_MOUNTS is set, but {why}")
        pytest.skip(why)
    try:
        (mount / "Probe").write_bytes(b"")
        assert (mount / "PROBE").exists(), "the exFAT mount is not case-insensitive"
        (mount / "Probe").unlink()
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], env=env, capture_output=True)
        subprocess.run(["losetup", "-d", loop], env=env, capture_output=True)


@pytest.mark.sandbox
def test_a_case_insensitive_out_keeps_each_submission_in_its_own_folder(
        case_insensitive_folder, tmp_path):
    from nbcourse.grading.gradebook import OutputFolder

    subs = tmp_path / "subs"
    names = ["alice.ipynb", "Alice.ipynb", "GRADES.CSV/hw.ipynb", "grades.csv/hw.ipynb",
             "Written-Answers.HTML", ".NBCOURSE/hw.ipynb", "\u00e9.ipynb", "e\u0301.ipynb",
             "\u00c9.ipynb", "con.ipynb", "x."]
    paths = []
    for n in names:
        (subs / n).parent.mkdir(parents=True, exist_ok=True)
        (subs / n).write_bytes(b"not a notebook " + n.encode())  # graded without a kernel
        paths.append(subs / n)
    out = case_insensitive_folder / "out"
    results = grade_batch(EX_BINARY, paths, out, progress=None)
    assert len({_fold(r.name) for r in results}) == len(names)
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        rows = [r["submission"].removeprefix("'") for r in csv.DictReader(f)]
    assert sorted(rows) == sorted(r.name for r in results)
    # every submission has a results.json of its own, naming its own reason
    for result in results:
        data = json.loads((out / result.name / "results.json").read_text(encoding="utf-8"))
        assert data["output"].startswith("Status: invalid.")
    assert len(list(out.rglob("results.json"))) == len(names)
    # the batch resumes on the same file system: everything is kept
    again = grade_batch(EX_BINARY, paths, out, progress=None)
    assert list(again) == [] and len(again.kept) == len(names)
    assert OutputFolder(out).ignores_case() and not OutputFolder(tmp_path / "x").ignores_case()


@pytest.mark.sandbox
def test_a_gradebook_named_by_the_earlier_rule_keeps_its_names_or_is_refused(
        case_insensitive_folder, tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    paths = [subs / "Ada.ipynb", subs / "bob.ipynb"]
    for p in paths:
        p.write_bytes(b"not a notebook")
    for out in (tmp_path / "old", case_insensitive_folder / "old"):
        grade_batch(EX_BINARY, paths[1:], out, progress=None)
        # a gradebook made before names were case-folded: rows and no rule in its record
        record = json.loads((out / ".nbcourse" / "batch.json").read_text())
        del record["names"]
        (out / ".nbcourse" / "batch.json").write_text(json.dumps(record))
    late = grade_batch(EX_BINARY, paths[:1], tmp_path / "old", progress=None)
    assert [r.name for r in late] == ["Ada.ipynb"]  # named as its classmates were
    with pytest.raises(ValueError, match=r"^out must be on a file system that tells capitals "
                                         r"from small letters.*grade every submission again "
                                         r"into a new folder"):
        grade_batch(EX_BINARY, paths[:1], case_insensitive_folder / "old", progress=None)
