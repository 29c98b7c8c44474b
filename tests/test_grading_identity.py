"""Identities from the roster, not from the notebook: per-student numbers checked for the
owner, claims of another identifier flagged in every output, identifiers compared after
NFKC, case folding and UTS #39 confusable folding, and a per-student question everywhere."""

import csv
import json
import subprocess
import sys
import unicodedata

import numpy as np
import pytest
from hostile import HONEST_LIMITS, ROOT, code_cells, notebook, with_student_id

from nbcourse.grading import Limits, load_assignment, personal_seed, read_roster
from nbcourse.grading.batch import grade_batch, gradescope_results
from nbcourse.grading.generate import student_path
from nbcourse.grading.grader import grade_notebook
from nbcourse.grading.variants import (
    CONFUSABLES,
    Identity,
    canonical_id,
    id_status,
    same_id,
    skeleton,
)

LIMITS = Limits(**HONEST_LIMITS)
EX07 = ROOT / "exercises" / "07-smoothing"
ASSIGNMENTS = sorted(p.parent for p in (ROOT / "exercises").glob("*/tests.py"))


# --- comparing identifiers ------------------------------------------------------------------

@pytest.mark.parametrize("look_alike", [
    "\u0430d\u0430",            # Cyrillic a, Latin d, Cyrillic a
    "\u0391DA",                 # Greek capital alpha
    "\uff41\uff44\uff41",       # fullwidth
    "ad\u200ba",                # zero-width space
    "\u200dada\u2060",          # zero-width joiner, word joiner
    "ADA",
])
def test_look_alikes_of_an_identifier_are_the_same_identifier(look_alike):
    assert same_id("ada", look_alike)
    assert not same_id("ada", "adb") and not same_id("ada", "ad")


def test_canonical_form_folds_width_case_and_format_characters_only():
    assert canonical_id("\uff21da\u200b") == "ada"
    assert canonical_id("\u0430da") != "ada"  # a Cyrillic letter stays itself: not a seed of 'ada'
    assert skeleton("\u0430da") == skeleton("ada")


def test_confusables_data_is_the_unicode_file_and_is_read_without_network():
    head = CONFUSABLES.read_text(encoding="utf-8-sig")[:600]
    assert "Unicode Security Mechanisms for UTS #39" in head and "Version:" in head
    # one mapping checked against the file itself: CYRILLIC SMALL LETTER A -> LATIN SMALL LETTER A
    line = next(x for x in CONFUSABLES.read_text(encoding="utf-8-sig").splitlines()
                if x.startswith("0430 ;"))
    assert line.split(";")[1].strip() == "0061"
    assert unicodedata.name(skeleton("\u0430")) == "LATIN SMALL LETTER A"


# --- rosters --------------------------------------------------------------------------------

def _roster(tmp_path, rows, header="submission,student_id"):
    path = tmp_path / "roster.csv"
    path.write_text(header + "\n" + "".join(f"{a},{b}\n" for a, b in rows), encoding="utf-8")
    return path


def test_a_roster_maps_file_names_and_submission_names(tmp_path):
    roster = read_roster(_roster(tmp_path, [("ada.ipynb", "ada"), ("bob/hw.ipynb", "bob")]))
    assert roster.lookup("ada.ipynb", tmp_path / "x" / "ada.ipynb") == Identity("ada", "roster")
    assert roster.lookup("bob/hw.ipynb", tmp_path / "bob" / "hw.ipynb") == Identity("bob", "roster")
    assert roster.lookup("eve.ipynb", tmp_path / "eve.ipynb") == Identity()  # unverified fallback


def test_a_file_name_that_matches_two_submissions_is_refused(tmp_path):
    roster = read_roster(_roster(tmp_path, [("hw.ipynb", "ada")]))
    with pytest.raises(ValueError, match="its row for 'hw.ipynb' matches 2 submissions"):
        roster.owners(["alice/hw.ipynb", "bob/hw.ipynb"],
                      [tmp_path / "alice" / "hw.ipynb", tmp_path / "bob" / "hw.ipynb"])
    named = read_roster(_roster(tmp_path, [("alice/hw.ipynb", "alice"), ("hw.ipynb", "bob")]))
    assert named.owners(["alice/hw.ipynb", "bob/hw.ipynb"],
                        [tmp_path / "alice" / "hw.ipynb", tmp_path / "bob" / "hw.ipynb"]) == [
        Identity("alice", "roster"), Identity("bob", "roster")]


@pytest.mark.parametrize("rows, header, message", [
    ([("a.ipynb", "ada")], "file,student", "roster must have the columns submission and student_id"),
    ([("a.ipynb", "ada"), ("a.ipynb", "bob")], None, "submission 'a.ipynb' is listed twice"),
    ([("a.ipynb", "ada"), ("b.ipynb", "\u0430da")], None, "looks like 'ada' of another row"),
    ([("a.ipynb", "")], None, "line 2: student_id must be an identifier as a non-empty string"),
    ([], None, "roster must list at least one submission"),
])
def test_a_bad_roster_is_refused_naming_the_row(tmp_path, rows, header, message):
    path = _roster(tmp_path, rows, header or "submission,student_id")
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        read_roster(path)


def test_gradescope_owner_is_taken_from_the_metadata():
    meta = {"users": [{"email": "ada@uni.example", "sid": "123", "name": "Ada"},
                      {"email": "bob@uni.example", "sid": "456", "name": "Bob"}]}
    group = Identity.from_gradescope(meta)
    assert group == Identity("ada@uni.example", "gradescope", ("bob@uni.example",))
    # a group member's notebook names them: their numbers; anyone else's claim: the first user's
    bob = {"ok": True, "value": "BOB@uni.example"}
    assert group.resolve(bob) == Identity("bob@uni.example", "gradescope")
    assert id_status(group, bob)["check"] == "same"
    eve = {"ok": True, "value": "eve@uni.example"}
    assert group.resolve(eve) == Identity("ada@uni.example", "gradescope")
    assert id_status(group, eve)["check"] == "differs"
    assert Identity.from_gradescope(meta, "sid") == Identity("123", "gradescope", ("456",))
    assert Identity.from_gradescope({}) == Identity()
    assert Identity.from_gradescope({"users": [{"email": ""}]}) == Identity()


def test_id_status_flags_a_claim_of_another_identifier():
    ok = {"ok": True, "value": "Ada"}
    assert id_status(Identity("ada", "roster"), ok)["check"] == "same"
    assert id_status(Identity("ada", "roster"), {"ok": True, "value": "\u0430da"})["check"] \
        == "look-alike"
    assert id_status(Identity("bob", "roster"), ok) == {
        "student_id": "bob", "source": "roster", "check": "differs", "claimed": "Ada"}
    assert id_status(Identity("bob", "roster"), {"ok": True, "value": None})["check"] == "missing"
    assert id_status(None, ok) == {"student_id": "Ada", "source": "notebook",
                                   "check": "unverified", "claimed": "Ada"}
    # a bidirectional override or a zero-width space in a claim is shown escaped, never hidden
    hidden = id_status(Identity("ada", "roster"), {"ok": True, "value": "ad\u202ea\u200b"})
    assert hidden["claimed"] == "ad\\u202ea\\u200b" and hidden["check"] == "same"
    assert id_status(None, {"ok": True, "value": "b\u200bob"})["student_id"] == "b\\u200bob"


# --- every assignment has a per-student question --------------------------------------------

@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_every_assignment_has_a_per_student_question(folder):
    """A question reads STUDENT_ID, has a public form test and a hidden test whose expected
    value changes with the owner's identifier."""
    assignment = load_assignment(folder)
    personal_qs = [q for q in assignment.questions
                   if ("value", "STUDENT_ID") in q.probes()]
    assert personal_qs, f"{folder.name} has no per-student question"
    q = personal_qs[0]
    hidden = [t for t in q.tests if t.hidden and len(t.probes) == 2]
    public = [t for t in q.tests if not t.hidden]
    assert hidden and len(public) >= 2
    # the notebook draws with the grader's seed
    source = next(c for c in code_cells(student_path(folder)) if "def personal_seed" in c)
    namespace = {}
    exec(source.split("\n\nif ")[0], namespace)
    for sid in ("ada", "Zoë Ng", "\uff41da\u200b", "x" * 100):
        assert namespace["personal_seed"](sid, q.name) == personal_seed(sid, folder.name, q.name)


# --- grading with a roster ------------------------------------------------------------------

def _theta_of(student_id):
    counts = np.random.default_rng(personal_seed(student_id, "07-smoothing", "q6")).integers(
        0, 8, size=(2, 5))
    return ((counts + 0.5) / (counts.sum(axis=1, keepdims=True) + 2.5)).tolist()


@pytest.mark.sandbox
def test_a_claimed_classmate_identity_scores_nothing_and_is_flagged(tmp_path):
    """Bob submits Ada's variant and claims her STUDENT_ID: with the roster his numbers are
    checked for 'bob', the claim is flagged in grades.csv, results.json and the feedback."""
    solution = code_cells(EX07 / "solution.ipynb")
    subs = tmp_path / "subs"
    subs.mkdir()
    notebook(with_student_id(solution, "ada", _theta_of("ada")), subs / "bob.ipynb")
    notebook(with_student_id(solution, "\uff41da"), subs / "ada.ipynb")  # fullwidth: her own
    notebook(with_student_id(solution, "carol"), subs / "carol.ipynb")  # not on the roster
    roster = read_roster(_roster(tmp_path, [("bob.ipynb", "bob"), ("ada.ipynb", "ada")]))
    out = tmp_path / "out"
    grade_batch(EX07, sorted(subs.iterdir()), out, workers=2, limits=LIMITS, progress=None,
                roster=roster)
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        rows = {r["submission"]: r for r in csv.DictReader(f)}
    assert rows["bob.ipynb"]["q6"] == "0.25"  # the form test only
    assert (rows["bob.ipynb"]["student_id"], rows["bob.ipynb"]["id_source"],
            rows["bob.ipynb"]["id_check"]) == ("bob", "roster", "differs")
    assert rows["ada.ipynb"]["q6"] == "2"
    assert (rows["ada.ipynb"]["student_id"], rows["ada.ipynb"]["id_check"]) == ("ada", "same")
    assert (rows["carol.ipynb"]["student_id"], rows["carol.ipynb"]["id_source"],
            rows["carol.ipynb"]["id_check"]) == ("carol", "notebook", "unverified")
    bob = json.loads((out / "bob.ipynb" / "results.json").read_text())
    assert "numbers checked for 'bob' (from the roster)" in bob["output"]
    assert "claims STUDENT_ID 'ada'" in bob["output"] and "flagged" in bob["output"]
    assert bob["extra_data"]["identity"] == {"student_id": "bob", "source": "roster",
                                             "check": "differs", "claimed": "ada"}
    public = next(t for t in bob["tests"] if t["name"] == "q6 (public tests)")
    assert "FAIL STUDENT_ID" in public["output"] and "'bob'" in public["output"]
    carol = json.loads((out / "carol.ipynb" / "results.json").read_text())
    assert "from the notebook's STUDENT_ID, unverified" in carol["output"]


@pytest.mark.sandbox
def test_without_a_roster_the_notebook_identity_is_named_unverified(tmp_path):
    solution = code_cells(EX07 / "solution.ipynb")
    result = grade_notebook(load_assignment(EX07),
                            notebook(with_student_id(solution, "ada"), tmp_path / "a.ipynb"),
                            LIMITS)
    assert result.identity["check"] == "unverified" and result.scores["q6"] == 2.0
    assert "numbers checked for 'ada' (from the notebook's STUDENT_ID, unverified)" in \
        gradescope_results(result)["output"]
    copied = grade_notebook(load_assignment(EX07),
                            notebook(with_student_id(solution, "bob", _theta_of("ada")),
                                     tmp_path / "b.ipynb"), LIMITS,
                            identity=Identity("bob", "roster"))
    assert copied.scores["q6"] == 0.5 and copied.identity["check"] == "same"


def test_the_command_line_takes_a_roster_and_names_a_bad_one(tmp_path):
    bad = _roster(tmp_path, [("a.ipynb", "ada")], "file,student")
    proc = subprocess.run([sys.executable, "-m", "nbcourse", "grade", "--assignment", str(EX07),
                           "--out", str(tmp_path / "out"), "--roster", str(bad), "--",
                           str(student_path(EX07))], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert "argument --roster: roster must have the columns submission and student_id" in \
        proc.stderr


@pytest.mark.sandbox
def test_the_command_line_grades_with_a_roster_and_reports_flagged_claims(tmp_path):
    solution = code_cells(EX07 / "solution.ipynb")
    subs = tmp_path / "subs"
    subs.mkdir()
    notebook(with_student_id(solution, "ada", _theta_of("ada")), subs / "bob.ipynb")
    roster = _roster(tmp_path, [("bob.ipynb", "bob")])
    proc = subprocess.run([sys.executable, "-m", "nbcourse", "grade", "--assignment", str(EX07),
                           "--out", str(tmp_path / "out"), "--roster", str(roster), "--quiet",
                           "--cell-timeout", "60", "--", str(subs / "bob.ipynb")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "1 notebook claims a STUDENT_ID other than the owner's (id_check in grades.csv): " \
           "bob.ipynb" in proc.stdout
    assert "no --roster" not in proc.stdout
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        (row,) = csv.DictReader(f)
    assert (row["student_id"], row["id_check"], row["q6"]) == ("bob", "differs", "0.25")
