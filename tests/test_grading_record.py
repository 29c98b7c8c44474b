"""The gradebook remembers how it was made (assignment, roster, base) and refuses a later
batch that contradicts it; a merge of shards checks each row against its results.json and
merges empty shards. Notebooks here are invalid files, graded without a kernel."""

import csv
import json

import pytest
from hostile import EX_BINARY, HONEST_LIMITS

from nbcourse.__main__ import main
from nbcourse.grading import Limits, read_roster
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.shards import grade_shard, merge_shards, shard_plan

pytestmark = pytest.mark.sandbox  # grade_batch requires the sandbox, even for files it rejects
LIMITS = Limits(**HONEST_LIMITS)
OPTS = dict(workers=1, limits=LIMITS, progress=None)


def _files(folder, names):
    paths = []
    for n in names:
        path = folder / n
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"not a notebook")
        paths.append(path)
    return paths


def _roster(path, rows):
    path.write_text("submission,student_id\n" + "".join(f"{a},{b}\n" for a, b in rows),
                    encoding="utf-8")
    return read_roster(path)


def _rows(out):
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        return {r["submission"].removeprefix("'"): r for r in csv.DictReader(f)}


def test_a_run_that_would_change_a_graded_owner_is_refused_saying_what_to_pass(tmp_path):
    subs = _files(tmp_path / "subs", ["ada.ipynb", "bob.ipynb", "carol.ipynb"])
    roster = _roster(tmp_path / "roster.csv", [("ada.ipynb", "ada"), ("bob.ipynb", "bob")])
    out = tmp_path / "out"
    grade_batch(EX_BINARY, subs[:2], out, roster=roster, **OPTS)
    assert {n: (r["student_id"], r["id_source"]) for n, r in _rows(out).items()} == {
        "ada.ipynb": ("ada", "roster"), "bob.ipynb": ("bob", "roster")}
    # a regrade or a late file without the roster: refused, naming the roster to pass
    for run in (dict(notebooks=subs[:1], regrade=True), dict(notebooks=subs[2:])):
        with pytest.raises(ValueError, match=r"^roster: .* holds 'ada.ipynb', graded for 'ada' "
                                             r"from the roster; without --roster it would be "
                                             r"checked for the notebook's own STUDENT_ID.*pass "
                                             r"the roster this gradebook was graded with "
                                             r"\(--roster .*roster.csv \(sha256 "):
            grade_batch(EX_BINARY, run["notebooks"], out, regrade=run.get("regrade", False),
                        **OPTS)
    # a roster that gives a graded submission another owner: refused too
    changed = _roster(tmp_path / "changed.csv", [("ada.ipynb", "ada"), ("bob.ipynb", "rob")])
    with pytest.raises(ValueError, match=r"holds 'bob.ipynb', graded for 'bob' from the roster; "
                                         r"with the roster .*changed.csv .* its owner would be "
                                         r"'rob'"):
        grade_batch(EX_BINARY, subs[2:], out, roster=changed, **OPTS)
    assert set(_rows(out)) == {"ada.ipynb", "bob.ipynb"}  # nothing was graded
    # a roster that only adds the late student is accepted and recorded
    grown = _roster(tmp_path / "grown.csv", [("ada.ipynb", "ada"), ("bob.ipynb", "bob"),
                                             ("carol.ipynb", "carol")])
    grade_batch(EX_BINARY, subs[2:], out, roster=grown, **OPTS)
    assert _rows(out)["carol.ipynb"]["student_id"] == "carol"
    record = json.loads((out / ".nbcourse" / "batch.json").read_text())
    assert record["roster"] == {"sha256": grown.digest, "path": str(tmp_path / "grown.csv")}
    assert record["assignment"] == "02-binary-discriminant"
    # the same entries in another file, in another order, are the same roster
    again = _roster(tmp_path / "again.csv", [("carol.ipynb", "carol"), ("bob.ipynb", "bob"),
                                             ("ada.ipynb", "ada")])
    assert again.digest == grown.digest
    assert [r.name for r in grade_batch(EX_BINARY, subs[:1], out, roster=again, regrade=True,
                                        **OPTS)] == ["ada.ipynb"]


def test_a_gradebook_made_without_a_roster_refuses_one_that_lists_its_rows(tmp_path, capsys):
    subs = _files(tmp_path / "subs", ["ada.ipynb", "bob.ipynb"])
    out = tmp_path / "out"
    grade_batch(EX_BINARY, subs[:1], out, **OPTS)
    roster = tmp_path / "roster.csv"
    _roster(roster, [("ada.ipynb", "ada"), ("bob.ipynb", "bob")])
    assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(out), "--roster",
                 str(roster), "--", str(subs[1])]) == 2
    err = capsys.readouterr().err
    assert "holds 'ada.ipynb', graded for the notebook's own STUDENT_ID (no roster entry); with " \
           "the roster" in err and "its owner would be 'ada'" in err
    assert "(no --roster)" in err


def test_a_late_file_outside_the_base_needs_base_or_a_name(tmp_path, capsys):
    subs = _files(tmp_path / "subs", ["alice/hw.ipynb", "bob/hw.ipynb"])
    out = tmp_path / "out"
    grade_batch(EX_BINARY, subs, out, **OPTS)
    # carol's late hw.ipynb, saved elsewhere: not silently named 'hw.ipynb'
    (late,) = _files(tmp_path / "downloads", ["hw.ipynb"])
    with pytest.raises(ValueError, match=r"^submissions must lie in '.*subs', the folder .* "
                                         r"names submissions relative to .*pass --base FOLDER"
                                         r".*or --name NAME"):
        grade_batch(EX_BINARY, [late], out, **OPTS)
    assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(out), "--quiet",
                 "--name", "carol/hw.ipynb", "--", str(late)]) == 0
    assert list(_rows(out)) == ["alice/hw.ipynb", "bob/hw.ipynb", "carol/hw.ipynb"]
    # a second late hw.ipynb under another name is graded, not taken for the first
    (dave,) = _files(tmp_path / "more" / "dave", ["hw.ipynb"])
    graded = grade_batch(EX_BINARY, [dave], out, base=tmp_path / "more", **OPTS)
    assert [r.name for r in graded] == ["dave/hw.ipynb"] and not graded.kept
    # a --base that would rename notebooks the recorded base holds is refused
    with pytest.raises(ValueError, match=r"^base: .* names submissions relative to .*subs.*"
                                         r"leave --base out"):
        grade_batch(EX_BINARY, [subs[0]], out, base=tmp_path / "subs" / "alice", **OPTS)
    for bad in (["--name", "x/../y.ipynb"], ["--name", "a b.ipynb"]):
        assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(out), *bad, "--",
                     str(late)]) == 2
        assert "argument --name: expected a submission name as grades.csv shows it" in \
            capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["grade", "--assignment", str(EX_BINARY), "--out", str(out), "--name",
              "carol/hw.ipynb", "--shard", "0/2", "--", str(late)])
    assert "argument --name: not allowed with --shard" in capsys.readouterr().err


def test_the_summary_lists_submissions_not_on_the_roster(tmp_path, capsys):
    _files(tmp_path / "subs", ["ada.ipynb", "eve.ipynb", "zed.ipynb"])
    roster = tmp_path / "roster.csv"
    _roster(roster, [("ada.ipynb", "ada")])
    assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(tmp_path / "out"),
                 "--roster", str(roster), "--quiet", str(tmp_path / "subs")]) == 0
    printed = capsys.readouterr().out
    assert ("2 submissions not on the roster (checked for the notebook's own STUDENT_ID, "
            "flagged unverified): eve.ipynb, zed.ipynb") in printed
    # the same on a shard: the shard's rows
    assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(tmp_path / "s"),
                 "--roster", str(roster), "--quiet", "--shard", "0/1", str(tmp_path / "subs")
                 ]) == 0
    assert "2 submissions not on the roster" in capsys.readouterr().out
    assert {r["id_source"] for n, r in _rows(tmp_path / "out").items() if n != "ada.ipynb"} \
        == {"notebook"}
    assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(tmp_path / "none"),
                 "--quiet", str(tmp_path / "subs")]) == 0
    assert "no --roster: per-student answers were checked" in capsys.readouterr().out


# --- merging shards -------------------------------------------------------------------------


def _shards(subs, folder, count, roster=None):
    folders = [folder / f"s{k}" for k in range(count)]
    for k in range(count):
        grade_shard(EX_BINARY, subs, folders[k], k, count, roster=roster, **OPTS)
    return folders


def test_empty_shards_merge_even_when_listed_first(tmp_path):
    subs = _files(tmp_path / "subs", [f"s{i}.ipynb" for i in range(3)])
    roster = _roster(tmp_path / "roster.csv", [("s0.ipynb", "ada"), ("s1.ipynb", "bob")])
    _, _, members = shard_plan(subs, 16)
    empty = [k for k in range(16) if not members[k]]
    full = [k for k in range(16) if members[k]]
    folders = _shards(subs, tmp_path, 16, roster)
    single = tmp_path / "single"
    grade_batch(EX_BINARY, subs, single, roster=roster, **OPTS)
    order = [folders[k] for k in empty + full]  # an empty shard first
    assert merge_shards(tmp_path / "merged", order) == 3
    merged, one = _rows(tmp_path / "merged"), _rows(single)
    for rows in (merged, one):
        for row in rows.values():
            row.pop("seconds")
    assert merged == one and list(merged) == ["s0.ipynb", "s1.ipynb", "s2.ipynb"]
    assert merged["s0.ipynb"]["student_id"] == "ada"
    # the merged folder remembers the roster: a late file without it is refused
    (late,) = _files(tmp_path / "subs", ["s3.ipynb"])
    with pytest.raises(ValueError, match=r"^roster: .* graded for 'ada' from the roster"):
        grade_batch(EX_BINARY, [late], tmp_path / "merged", **OPTS)
    grade_batch(EX_BINARY, [late], tmp_path / "merged", roster=roster, **OPTS)
    # merging again (after a shard was resumed) keeps the late row
    assert merge_shards(tmp_path / "merged", order) == 3
    assert list(_rows(tmp_path / "merged")) == [f"s{i}.ipynb" for i in range(4)]


def test_a_hand_edited_shard_row_or_a_mixed_roster_is_not_merged(tmp_path):
    subs = _files(tmp_path / "subs", [f"s{i}.ipynb" for i in range(4)])
    roster = _roster(tmp_path / "roster.csv", [("s0.ipynb", "ada")])
    folders = _shards(subs, tmp_path, 2, roster)
    assert merge_shards(tmp_path / "ok", folders) == 4
    grades = folders[1] / "grades.csv"
    text = grades.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    header = lines[0].rstrip("\r\n").split(",")
    cells = lines[1].rstrip("\r\n").split(",")
    name = cells[0]
    cells[header.index("total")] = "12"
    grades.write_text(text.replace(lines[1], ",".join(cells) + "\r\n"), encoding="utf-8")
    with pytest.raises(ValueError, match=rf"^shards: the row of '{name}' in .*grades.csv' "
                                         rf"disagrees with its results.json: total '12' where "
                                         rf"results.json says 0"):
        merge_shards(tmp_path / "edited", folders)
    assert not (tmp_path / "edited" / "grades.csv").exists()
    cells[header.index("total")] = "0"
    cells[header.index("id_source")] = "roster"
    cells[header.index("student_id")] = "bob"
    grades.write_text(text.replace(lines[1], ",".join(cells) + "\r\n"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"student_id 'bob' where results.json says"):
        merge_shards(tmp_path / "edited", folders)
    grades.write_text(text, encoding="utf-8")
    # a shard graded without the roster does not merge with shards graded with it
    other = _shards(subs, tmp_path / "plain", 2)
    with pytest.raises(ValueError, match=r"^shards: expected shards graded with one roster, got "
                                         r".* \(roster sha256 [0-9a-f]{12}\) and .* \(without a "
                                         r"roster\)"):
        merge_shards(tmp_path / "mixed", [folders[0], other[1]])
    # resuming a shard with another roster is refused
    with pytest.raises(ValueError, match=r"^roster: .* holds shard 0/2 graded with the roster"):
        grade_shard(EX_BINARY, subs, folders[0], 0, 2, **OPTS)


def test_a_roster_row_that_matches_two_submissions_is_refused_on_every_shard(tmp_path):
    subs = _files(tmp_path / "subs", ["alice/hw.ipynb", "bob/hw.ipynb"])
    roster = _roster(tmp_path / "roster.csv", [("hw.ipynb", "ada")])
    _, names, members = shard_plan(subs, 2)
    for k in range(2):
        with pytest.raises(ValueError, match=r"its row for 'hw.ipynb' matches 2 submissions"):
            grade_shard(EX_BINARY, subs, tmp_path / f"s{k}", k, 2, roster=roster, **OPTS)


def test_progress_shows_the_maximum_of_grades_csv_once_written_scores_are_merged(tmp_path):
    subs = _files(tmp_path / "subs", ["ada.ipynb", "bob.ipynb"])
    out = tmp_path / "out"
    lines = []
    grade_batch(EX_BINARY, subs[:1], out, workers=1, limits=LIMITS, progress=lines.append)
    assert lines[-1].endswith("ada.ipynb: 0/12 in " + lines[-1].split(" in ")[1])
    scores = tmp_path / "scores.csv"
    scores.write_text("submission,question,points,max_points\nada.ipynb,q5,1.5,2\n",
                      encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 0
    lines.clear()
    grade_batch(EX_BINARY, subs[:1], out, workers=1, limits=LIMITS, progress=lines.append,
                regrade=True)
    grade_batch(EX_BINARY, subs[1:], out, workers=1, limits=LIMITS, progress=lines.append)
    shown = [line.split("] ", 1)[1].split(" in ")[0] for line in lines if line.startswith("[")]
    assert shown == ["ada.ipynb: 1.5/14", "bob.ipynb: 0/14"]
    assert {(r["total"], r["max"]) for r in _rows(out).values()} == {("1.5", "14"), ("0", "14")}
