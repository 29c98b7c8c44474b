"""The instructor's material: rubrics of the written answers, the question bank and the
lecture outlines. All of it stays out of the student tree."""

import csv
import json
import math
import re

import nbformat
import numpy as np
import pytest
import yaml

import nbcourse
from conftest import ROOT, toc_files
from nbcourse.grading.generate import student_path
from nbcourse.grading.written import (
    RUBRIC,
    check_rubric,
    export_written,
    load_rubric,
    merge_scores,
    written_questions,
)

ASSIGNMENTS = sorted(p for p in (ROOT / "exercises").iterdir() if p.is_dir())
WITH_WRITTEN = [p for p in ASSIGNMENTS if written_questions(p)]
BANK = ROOT / "instructor" / "question_bank.yml"
OUTLINES = ROOT / "instructor" / "lecture_outlines.md"
CHAPTERS = [d for d in toc_files()
            if d.startswith(("book/part1/", "book/part2/", "book/part3/", "book/part4/"))]
PART3 = {d for d in CHAPTERS if d.startswith("book/part3/")}  # the optional fourth week
PART4 = {d for d in CHAPTERS if d.startswith("book/part4/")}  # the optional fifth week


# --------------------------------------------------------------------------- rubrics

def raw_rubric(folder):
    return yaml.safe_load((folder / RUBRIC).read_text(encoding="utf-8"))


def test_the_assignments_have_written_questions():
    assert len(WITH_WRITTEN) >= 7 and sum(len(written_questions(p)) for p in WITH_WRITTEN) >= 9


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_every_written_question_has_a_rubric_whose_elements_sum_to_its_points(folder):
    questions = written_questions(folder)
    if not questions:
        assert not (folder / RUBRIC).exists(), "a rubric for an assignment without written answers"
        return
    raw = raw_rubric(folder)
    assert sorted(raw) == sorted(questions)
    for q, entry in raw.items():
        assert entry["points"] > 0
        assert math.isclose(sum(e["points"] for e in entry["elements"]), entry["points"]), q
        assert all(len(e["criterion"].split()) >= 8 for e in entry["elements"]), q
        assert len(entry["model_answer"].split()) >= 20, q
    assert check_rubric(folder) == load_rubric(folder)


def _fake_answers(folder, tmp_path):
    """The student notebook with every written answer filled in."""
    nb = nbformat.read(student_path(folder), as_version=4)
    for cell in nb.cells:
        if "*Write your answer here.*" in cell.source:
            cell.source = "My answer is short."
    path = tmp_path / "a.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.parametrize("folder", WITH_WRITTEN, ids=lambda p: p.name)
def test_the_export_carries_the_rubric(folder, tmp_path):
    import html

    out = tmp_path / "out"
    out.mkdir()
    csv_path, html_path = export_written(folder, [_fake_answers(folder, tmp_path)], ["a.ipynb"],
                                         out)
    raw = raw_rubric(folder)
    with open(csv_path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["question"]: float(r["max_points"]) for r in rows} == \
        {q: float(e["points"]) for q, e in raw.items()}
    page = html.unescape(html_path.read_text(encoding="utf-8"))
    for q, entry in raw.items():
        assert f"{q}: rubric" in page
        assert entry["model_answer"].strip() in page
        for element in entry["elements"]:
            assert element["criterion"].strip() in page
    assert page.index("rubric") < page.index("My answer is short.")


def test_a_merge_keeps_the_rubric_in_the_sheet_and_the_points_of_the_rubric(tmp_path):
    folder = ROOT / "exercises" / "01-discrete-features"
    out = tmp_path / "out"
    out.mkdir()
    export_written(folder, [_fake_answers(folder, tmp_path)], ["a.ipynb"], out)
    (out / "grades.csv").write_text("submission,q1,total,max,status,reason,seconds\n"
                                    "a.ipynb,1,1,13,graded,,1.0\n", encoding="utf-8")
    with open(out / "written-answers.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    rows[0]["points"] = "1.5"  # q5 scored, q7 not: it counts as 0 of the rubric's points
    scores = tmp_path / "scores.csv"
    with open(scores, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert merge_scores(out, scores) == 1
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        (grades,) = csv.DictReader(f)
    raw = raw_rubric(folder)
    assert float(grades["written_max"]) == raw["q5"]["points"] + raw["q7"]["points"]
    page = (out / "written-answers.html").read_text(encoding="utf-8")
    assert "q5: rubric" in page and "q7: rubric" in page


@pytest.mark.parametrize("change, message", [
    (lambda r: r["q5"]["elements"].pop(), "must sum to the question's points"),
    (lambda r: r["q5"].pop("model_answer"), "must have exactly points, elements and model_answer"),
    (lambda r: r["q5"].update(points=-1), "q5: points in .* must be a number > 0, got -1"),
    (lambda r: r["q5"]["elements"][0].update(criterion=""), "criterion .* non-empty string"),
    (lambda r: r.update(Q9=r["q5"]), "keys must be questions such as 'q5', got 'Q9'"),
])
def test_a_malformed_rubric_is_refused_naming_what_is_wrong(tmp_path, change, message):
    rubric = raw_rubric(ROOT / "exercises" / "02-binary-discriminant")
    change(rubric)
    (tmp_path / RUBRIC).write_text(yaml.safe_dump(rubric), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_rubric(tmp_path)


def test_a_rubric_must_cover_exactly_the_written_questions(tmp_path, monkeypatch):
    import nbcourse.grading.written as written

    rubric = raw_rubric(ROOT / "exercises" / "02-binary-discriminant")
    (tmp_path / RUBRIC).write_text(yaml.safe_dump(rubric), encoding="utf-8")
    monkeypatch.setattr(written, "written_questions", lambda folder: {"q5": "x", "q6": "y"})
    with pytest.raises(ValueError, match=r"no entry for \['q6'\]"):
        check_rubric(tmp_path)
    monkeypatch.setattr(written, "written_questions", lambda folder: {})
    with pytest.raises(ValueError, match=r"without a written answer \['q5'\]"):
        check_rubric(tmp_path)


def test_an_assignment_without_a_rubric_still_exports_its_answers(tmp_path):
    import shutil

    folder = tmp_path / "02-binary-discriminant"
    shutil.copytree(ROOT / "exercises" / "02-binary-discriminant", folder)
    (folder / RUBRIC).unlink()
    out = tmp_path / "out"
    out.mkdir()
    csv_path, html_path = export_written(folder, [_fake_answers(folder, tmp_path)], ["a.ipynb"],
                                         out)
    with open(csv_path, encoding="utf-8", newline="") as f:
        (row,) = csv.DictReader(f)
    assert row["max_points"] == "" and "rubric" not in html_path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- question bank

def bank():
    return yaml.safe_load(BANK.read_text(encoding="utf-8"))


def test_the_bank_has_enough_questions_for_every_chapter():
    entries = bank()
    assert len(entries) >= 40
    ids = [e["id"] for e in entries]
    assert len(set(ids)) == len(ids), "question ids must be unique"
    assert len(CHAPTERS) - len(PART3) - len(PART4) == 13
    for e in entries:
        assert set(e) <= {"id", "chapter", "question", "answer", "values"}, e["id"]
        assert e["chapter"] in CHAPTERS, f"{e['id']}: no chapter {e['chapter']!r} in _toc.yml"
        assert len(e["question"].split()) >= 6 and len(e["answer"].split()) >= 4, e["id"]
    per_chapter = {c: sum(e["chapter"] == c for e in entries) for c in CHAPTERS}
    assert min(per_chapter.values()) >= 2, per_chapter


def _theta_star(theta_j, K):
    return ((K - 2 + theta_j) / (K - 1)) ** (K - 1)


def _clustered_se():
    r, lo, hi = nbcourse.clustered_rate([[True, False], [True, True], [False, False]])
    return [r, (hi - r) / 1.96, math.sqrt(r * (1 - r) / 6)]


def _minimum_risk():
    _, w0 = nbcourse.two_class_discriminant([0.8], [0.5])
    _, w0_risk = nbcourse.two_class_discriminant([0.8], [0.5], loss=[[0, 2], [1, 0]])
    shift = w0 - w0_risk  # the log posterior ratio must exceed this
    return [shift, 1 / (1 + math.exp(-shift))]


def _example3(x):
    w, w0 = nbcourse.two_class_discriminant([0.8] * 3, [0.5] * 3)
    g = float(np.dot(w, x) + w0)
    return [g, 1 / (1 + math.exp(-g))]


def _ece_one_bin():
    y = np.array([0] * 6 + [1] * 4)
    proba = np.tile([0.9, 0.1], (10, 1))
    return [nbcourse.expected_calibration_error(y, proba)]


def _multinomial_like(counts, alpha):
    return list(nbcourse.lidstone(np.array(counts, dtype=float), alpha))


def _word_in_30():
    """120 documents, 60 per class; the word is in 30 of them, all of class 1."""
    return np.r_[np.ones(30), np.zeros(90)][:, None], np.r_[np.ones(60), np.zeros(60)]


def _three_classes_of_tokens():
    """One row of token counts per class over 50 words: "navy" first, the other tokens second."""
    X = np.zeros((3, 50))
    X[:, 0], X[:, 1] = [10, 2, 0], [990, 498, 100]
    return X


def _macro_micro():
    s = nbcourse.class_scores([0] * 90 + [1] * 10, [0] * 90 + [1] * 2 + [0] * 8)
    return [s.micro["f1"], s.macro["f1"]]


# Each numeric answer recomputed: nbcourse where it has the formula, by hand otherwise.
COMPUTED = {
    "p1c1-parameters": lambda: [nbcourse.n_parameters_joint([2] * 10, 2),
                                nbcourse.n_parameters_naive([2] * 10, 2)],
    "p1c1-mixed-values": lambda: [nbcourse.n_feature_vectors([3, 4, 5]),
                                  nbcourse.n_parameters_joint([3, 4, 5], 3),
                                  nbcourse.n_parameters_naive([3, 4, 5], 3)],
    "p1c1-empty-cells": lambda: [nbcourse.expected_empty_cells(1024, 1000)],
    "p1c1-bayes-table": lambda: [0.2 * 0.3 / (0.2 * 0.3 + 0.05 * 0.7)],
    "p1c2-example3-weights": lambda: [
        nbcourse.two_class_discriminant([0.8] * 3, [0.5] * 3)[0][0],
        nbcourse.two_class_discriminant([0.8] * 3, [0.5] * 3)[1]],
    "p1c2-example3-point": lambda: _example3([1, 1, 0]),
    "p1c2-all-on": lambda: _example3([1, 1, 1]),
    "p1c2-minimum-risk": _minimum_risk,
    "p1c4-corners": lambda: [len(nbcourse.cube_corners(3)),
                             int(np.sum(_example3_all() > 0))],
    "p1c4-zero-count": lambda: [nbcourse.bernoulli_smoothed(0, 5, 1.0)],
    "p1c5-loss-and-error": lambda: [
        1 / 4, nbcourse.log_loss([0, 0, 0, 0], np.array([[p, 1 - p] for p in (0.9, 0.6, 0.3, 0.8)]))],
    "p1c5-unseen-yes": lambda: [nbcourse.bernoulli_smoothed(0, 40, 1.0),
                                nbcourse.two_class_discriminant(
                                    [nbcourse.bernoulli_smoothed(0, 40, 1.0)], [0.3])[0][0]],
    "p2c1-parameters": lambda: [3 * (4 - 1), 3 * 4],
    "p2c1-mass-on-codes": lambda: [nbcourse.f_j([0.5, 0.3, 0.2], 0),
                                   sum(nbcourse.f_j([0.5, 0.3, 0.2], j) for j in range(3))],
    "p2c1-posteriors": lambda: [
        nbcourse.posterior_categorical([0.5, 0.5], [[0.6, 0.3, 0.1], [0.2, 0.4, 0.4]], 0)[0],
        nbcourse.posterior_pob([0.5, 0.5], [[0.6, 0.3, 0.1], [0.2, 0.4, 0.4]], 0)[0]],
    "p2c2-value": lambda: [nbcourse.q_minus_j([0.2, 0.3, 0.5], 0)],
    "p2c2-range": lambda: [nbcourse.q_minus_j([0.2, 0.8, 0, 0], 0),
                           nbcourse.q_minus_j_at_centre(0.2, 4)],
    "p2c2-multiplier": lambda: [(1 - 0.8 / 3) ** 2],
    "p2c3-bounds": lambda: [nbcourse.lower_bound(0.3), nbcourse.upper_bound(0.3, 3)],
    "p2c3-threshold": lambda: [_theta_star(0.2, 3)],
    "p2c3-overcounting": lambda: [
        nbcourse.posterior_categorical([0.5, 0.5], [[0.75, 0.25], [0.25, 0.75]], 0)[0],
        nbcourse.posterior_pob([0.5, 0.5], [[0.75, 0.25], [0.25, 0.75]], 0)[0]],
    "p2c4-corner-point": lambda: [math.log(0.6 / 0.3),
                                  math.log(nbcourse.f_j([0.6, 0.4, 0], 0)
                                           / nbcourse.f_j([0.3, 0.7, 0], 0))],
    "p2c4-clustered": _clustered_se,
    "p2c5-two-features": lambda: [0.5 * 0.6,
                                  nbcourse.f_j([0.5, 0.3, 0.2], 0) * nbcourse.f_j([0.1, 0.6, 0.3], 1)],
    "p2c5-calibration": _ece_one_bin,
    "p2c6-gap": lambda: [nbcourse.upper_bound(0.5, 6) - nbcourse.lower_bound(0.5)],
    "p2c6-where-decisions-part": lambda: [math.sqrt(nbcourse.upper_bound(0.3, 3))],
    "p2c7-lidstone": lambda: _multinomial_like([3, 0, 1], 0.5),
    "p2c7-dirichlet": lambda: _multinomial_like([5, 1, 0], 2.0),
    "p2c7-bit-sums": lambda: [float(nbcourse.pob_bit_probabilities(
        np.array([[20, 0, 0, 0, 0]], dtype=float), 0.5).sum())],
    "p2c8-alpha": lambda: _multinomial_like([4, 0, 1], 1.0),
    "p3c1-temperature": lambda: [1 / (1 + math.exp(-4 / 2.5)), 1 / (1 + math.exp(-4))],
    "p3c2-multinomial-estimate": lambda: [(6 + 1) / (200 + 1000 * 1)],
    "p3c2-bernoulli-estimate": lambda: [float(nbcourse.bernoulli_smoothed(12, 30, 1.0))],
    "p3c2-repeat": lambda: [1.2 + 3 * 0.7, 1.2],
    "p3c3-copies": lambda: [math.floor(1.2 / 0.5) + 2],
    "p3c3-mcnemar": lambda: [nbcourse.mcnemar_test([1] * 17, [1] * 12 + [0] * 5,
                                                   [0] * 12 + [1] * 5).p_exact],
    "p3c3-corrected-width": lambda: [math.sqrt((1 / 10 + 1 / 9) / (1 / 10))],
    "p3c4-marginal-posterior": lambda: [0.7 * 0.2 / (0.7 * 0.2 + 0.3 * 0.6)],
    "p3c4-available-cases": lambda: list(nbcourse.lidstone(np.array([5.0, 2.0, 1.0]), 1.0)),
    "p4c1-quadratic-weights": lambda: [nbcourse.gaussian_discriminant([[2.0], [0.0]],
                                                                      [[1.0], [4.0]])[0][0],
                                       nbcourse.gaussian_discriminant([[2.0], [0.0]],
                                                                      [[1.0], [4.0]])[1][0]],
    "p4c1-shared-weights": lambda: _shared_weights(),
    "p4c1-mdl": lambda: _mdl_threshold(),
    "p4c2-cmi-copies": lambda: _cmi_copies(),
    "p4c2-trees": lambda: [4 ** 2, 5 ** 3],
    "p4c2-tan-parameters": lambda: [2 * (3 + 1 + 1), 2 * (3 + 4 * 1 + 4 * 1)],
    "p4c2-likelihood-gain": lambda: [1000 * (0.02 + 0.05)],
    "p4c3-mutual-information": lambda: [nbcourse.mutual_information(*_word_in_30())[0]],
    "p4c3-g-and-chi2": lambda: [2 * 120 * nbcourse.mutual_information(*_word_in_30())[0],
                                nbcourse.chi2_scores(*_word_in_30())[0]],
    "p4c3-complement": lambda: [float(np.exp(nbcourse.ComplementNB(alpha=1.0).fit(
        _three_classes_of_tokens(), [0, 1, 2]).complement_log_prob_[2, 0]))],
    "p4c3-idf": lambda: [math.log(1000 / 10), math.log(1 + 3) * math.log(1000 / 10)],
    "p4c4-threshold": lambda: [nbcourse.posterior_threshold([[0, 1], [4, 0]])],
    "p4c4-adjust": lambda: [nbcourse.adjust_posteriors([[0.6, 0.4]], [0.5, 0.5], [0.2, 0.8])[0, 0]],
    "p4c4-em-step": lambda: [nbcourse.em_priors([[0.8, 0.2], [0.6, 0.4], [0.3, 0.7]], [0.5, 0.5],
                                                max_iter=1).priors[0]],
    "p4c4-macro-micro": _macro_micro,
}


def _shared_weights():
    _, w, w0 = nbcourse.gaussian_discriminant([[1.0], [5.0]], [0.8])
    return [w[0], w0, -w0 / w[0]]


def _mdl_threshold():
    ent = nbcourse.class_entropy
    delta = math.log2(3**2 - 2) - (2 * ent([10, 10]) - 2 * ent([8, 2]) - 2 * ent([2, 8]))
    assert not nbcourse.mdl_accepts([10, 10], [8, 2], [2, 8])
    assert nbcourse.mdl_accepts([30, 30], [24, 6], [6, 24])
    return [ent([10, 10]) - ent([8, 2]), (math.log2(19) + delta) / 20, (math.log2(59) + delta) / 60]


def _cmi_copies():
    coin = [[0, 0], [1, 1]] * 2
    copies = nbcourse.conditional_mutual_information(coin, [0, 0, 1, 1])[0, 1]
    mixed = nbcourse.conditional_mutual_information(
        [[0, 0], [1, 1], [0, 0], [1, 1], [0, 0], [0, 1], [1, 0], [1, 1]],
        [0, 0, 0, 0, 1, 1, 1, 1])[0, 1]
    return [copies, mixed]


def _example3_all():
    w, w0 = nbcourse.two_class_discriminant([0.8] * 3, [0.5] * 3)
    return nbcourse.cube_corners(3) @ w + w0


def _decimals(value):
    text = repr(float(value)).rstrip("0").rstrip(".")
    return len(text.split(".")[1]) if "." in text else 0


def _numbers(text):
    return [float(m.replace("−", "-")) for m in re.findall(r"[−-]?\d+(?:\.\d+)?", text)]


def test_every_numeric_answer_is_recomputed():
    with_values = {e["id"] for e in bank() if "values" in e}
    assert with_values == set(COMPUTED), (sorted(with_values - set(COMPUTED)),
                                          sorted(set(COMPUTED) - with_values))
    assert len(with_values) >= 25


@pytest.mark.parametrize("entry", [e for e in bank() if "values" in e], ids=lambda e: e["id"])
def test_a_numeric_answer_is_right_and_the_answer_states_it(entry):
    computed = [float(v) for v in COMPUTED[entry["id"]]()]
    assert len(computed) == len(entry["values"])
    for stated, exact in zip(entry["values"], computed, strict=True):
        # a stated value is the exact one rounded to the digits it shows
        step = 10.0 ** -_decimals(stated)
        assert abs(stated - exact) <= step / 2 + 1e-12, (entry["id"], stated, exact)
        assert any(math.isclose(n, stated) for n in _numbers(entry["answer"])), \
            f"{entry['id']}: the answer does not state {stated}"


def test_the_rounding_check_catches_a_wrong_digit():
    step = 10.0 ** -_decimals(0.6317)
    assert abs(0.6317 - 0.2 * 0.3 / (0.2 * 0.3 + 0.05 * 0.7)) > step / 2


# --------------------------------------------------------------------------- lecture outlines

def plan_schedules():
    """``{schedule: [(week, meeting, text)]}`` from the course plan's two schedules; each
    meeting's text starts with the part its week's title names first ("Part I ...")."""
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    found = {}
    for name in ("three-week", "two-week"):
        section = plan.split(f"## A {name} schedule", 1)[1].split("\n## ", 1)[0]
        meetings = []
        for title, week, body in re.findall(r"^- \*\*(Week (\d)[^*]*)\*\*(.*?)(?=^- \*\*Week|\Z)",
                                            section, re.S | re.M):
            part = re.search(r"Part I+", title).group(0)
            body = body.split("Due")[0]
            for meeting, text in re.findall(r"Meeting (\d): (.*?)(?=Meeting \d:|\Z)", body, re.S):
                meetings.append((int(week), int(meeting), f"{part} " + " ".join(text.split())))
        found[name] = meetings
    return found


def outlines():
    """``{schedule: {(week, meeting): body}}`` from the lecture outlines."""
    text = OUTLINES.read_text(encoding="utf-8")
    found = {}
    for name, title in (("three-week", "## Three-week schedule"),
                        ("two-week", "## Two-week schedule")):
        section = text.split(title, 1)[1].split("\n## ", 1)[0]
        parts = re.split(r"^### Week (\d), meeting (\d):.*$", section, flags=re.M)
        found[name] = {(int(w), int(m)): body for w, m, body in
                       zip(parts[1::3], parts[2::3], parts[3::3], strict=True)}
    return found


def outline_field(body, label):
    return body.split(f"**{label}:**", 1)[1].split("\n- **", 1)[0]


def outline_chapters(body):
    return set(re.findall(r"`(book/[\w/]+)`", outline_field(body, "Chapters")))


ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}


def plan_chapters(text):
    """The documents a meeting of the course plan names: "Part II chapters 2 and 3", "the
    playground (chapter 4)", "the audit"."""
    docs, part = set(), None
    pattern = (r"(?:Part (IV|I{1,3}) )?chapters? (\d+(?:(?:, | and )\d+)*)"
               r"|the playground \(chapter (\d+)\)|(audit)")
    for m in re.finditer(pattern, text):
        if m.group(4):
            docs.add("book/appendix/audit")
            continue
        part = m.group(1) or part
        for n in re.findall(r"\d+", m.group(2) or m.group(3)):
            prefix = f"book/part{ROMAN[part]}/{int(n):02d}_"
            matched = [d for d in CHAPTERS if d.startswith(prefix)]
            assert len(matched) == 1, (text, prefix)
            docs.add(matched[0])
    return docs


def test_plan_chapters_reads_the_schedule_phrases():
    assert plan_chapters("Part I chapter 5, real data, and Part II chapter 1, two models.") == {
        "book/part1/05_real_data", "book/part2/01_two_models"}
    assert plan_chapters("Part II chapters 2 and 3, and the audit") == {
        "book/part2/02_q_minus_j", "book/part2/03_bounds", "book/appendix/audit"}
    assert plan_chapters("Part I chapter 3 and the playground (chapter 4).") == {
        "book/part1/03_generative_discriminative", "book/part1/04_explore_binary_discriminant"}
    assert plan_chapters("Part IV chapter 2, when features depend.") == {
        "book/part4/02_dependent_features"}
    assert plan_chapters("Part III chapter 4, missing values.") == {"book/part3/04_missing_values"}


@pytest.mark.parametrize("schedule", ["three-week", "two-week"])
def test_every_meeting_of_the_plan_has_an_outline_on_its_chapters(schedule):
    plan, written = plan_schedules()[schedule], outlines()[schedule]
    assert len(plan) == {"three-week": 9, "two-week": 6}[schedule]
    assert sorted(written) == sorted((w, m) for w, m, _ in plan)
    ids = {e["id"]: e["chapter"] for e in bank()}
    for week, meeting, text in plan:
        body = written[(week, meeting)]
        chapters = outline_chapters(body)
        assert chapters == plan_chapters(text), (schedule, week, meeting, text)
        for label in ("Aims", "Plan", "At the board", "Explore"):
            assert len(outline_field(body, label).split()) >= 5, (schedule, week, meeting, label)
        homework = re.findall(r"\b\d\d-[a-z-]*[a-z]", outline_field(body, "Homework"))
        assert homework and all((ROOT / "exercises" / a).is_dir() for a in homework), homework
        quiz = outline_field(body, "Quiz").replace(",", " ").split()
        assert len(quiz) >= 3
        for q in quiz:
            assert q in ids, f"{schedule} week {week} meeting {meeting}: no question {q!r}"
            assert ids[q] in chapters, f"{q} tests {ids[q]}, not a chapter of this meeting"


def test_each_schedule_covers_every_chapter_it_keeps():
    playgrounds = {"book/part1/04_explore_binary_discriminant", "book/part2/06_explore"}
    for schedule, dropped in (("three-week", PART3 | PART4),
                              ("two-week", playgrounds | PART3 | PART4)):
        covered = set().union(*map(outline_chapters, outlines()[schedule].values()))
        assert covered >= set(CHAPTERS) - dropped, sorted(set(CHAPTERS) - dropped - covered)
        assert not covered & dropped, f"{schedule}: meets on what it leaves as reading"


@pytest.mark.parametrize("part, chapters", [("III", PART3), ("IV", PART4)])
def test_each_optional_part_has_an_outline_for_each_chapter(part, chapters):
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    title = f"## Part {part}, an optional continuation"
    weeks = plan.split(title, 1)[1].split("\n## ", 1)[0]
    text = OUTLINES.read_text(encoding="utf-8")
    section = text.split(title, 1)[1].split("\n## ", 1)[0]
    # the plan's meetings and the outlines' carry the same (week, meeting) numbers and chapters
    planned = {}
    for week, body in re.findall(r"^- \*\*Week (\d)[^*]*\*\*(.*?)(?=^- \*\*Week|\Z)", weeks,
                                 re.S | re.M):
        for n, meeting in re.findall(r"Meeting (\d): (.*?)(?=Meeting \d:|Due|\Z)", body, re.S):
            planned[int(week), int(n)] = plan_chapters(meeting)
    parts = re.split(r"^### Week (\d), meeting (\d):.*$", section, flags=re.M)
    written = {(int(w), int(n)): body
               for w, n, body in zip(parts[1::3], parts[2::3], parts[3::3], strict=True)}
    assert list(written) == list(planned), (list(written), list(planned))
    assert {k: outline_chapters(v) for k, v in written.items()} == planned
    ids = {e["id"]: e["chapter"] for e in bank()}
    covered = set()
    for body in written.values():
        outlined = outline_chapters(body)
        covered |= outlined
        for label in ("Aims", "Plan", "At the board", "Explore"):
            assert len(outline_field(body, label).split()) >= 5, label
        quiz = outline_field(body, "Quiz").replace(",", " ").split()
        assert len(quiz) >= 3 and all(ids.get(q) in outlined for q in quiz), quiz
        homework = re.findall(r"\b\d\d-[a-z-]*[a-z]", outline_field(body, "Homework"))
        assert homework and all((ROOT / "exercises" / a).is_dir() for a in homework), homework
        assert all(a in weeks for a in homework), homework
    assert covered == chapters
    assert len(re.findall(rf"Part {part} chapter \d", weeks)) == len(chapters)


def schedule_weeks(section):
    """``[(week, [meeting texts], [assignments due])]`` of one schedule of the course plan."""
    found = []
    for week, body in re.findall(r"^- \*\*Week (\d)[^*]*\*\*(.*?)(?=^- \*\*Week|\Z)", section,
                                 re.S | re.M):
        meetings_text, _, due = body.partition("Due")
        due = due.split(".")[0]
        meetings = re.findall(r"Meeting \d: (.*?)(?=Meeting \d:|\Z)", meetings_text, re.S)
        found.append((int(week), meetings, re.findall(r"\b\d\d-[a-z-]*[a-z]", due)))
    return found


def chapters_each_assignment_needs():
    """``{assignment: {chapter}}`` from the course plan's table of units and assignments."""
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    needs = {}
    for chapter, cell in re.findall(r"^\| \{doc\}`([\w/]+)` \|[^|]*\| (.*?) \|$", plan, re.M):
        for assignment in re.findall(r"\b\d\d-[a-z-]*[a-z]", cell):
            needs.setdefault(assignment, set()).add(f"book/{chapter}")
    return needs


def schedule_problems(section, needs, met=None):
    """What is wrong with one schedule: a week of more than three meetings, or an assignment due
    before a meeting on a chapter it needs (``needs``: assignment -> chapters; ``met``: chapters
    met before the schedule starts, with their week).  A week may appear in several entries (an
    optional part that starts in the week another ends); its meetings are counted together."""
    met, problems, weeks = dict(met or {}), [], schedule_weeks(section)
    meetings_in = {}
    for week, meetings, _ in weeks:
        meetings_in[week] = meetings_in.get(week, 0) + len(meetings)
    for week, count in meetings_in.items():
        if not 1 <= count <= 3:
            problems.append(f"week {week} has {count} meetings")
    starts = [m.start() for m in re.finditer(r"^- \*\*Week \d", section, re.M)]
    for start, (week, meetings, _) in zip(starts, weeks, strict=True):
        part = re.search(r"Part (IV|I{1,3})\.", section[start:]).group(1)
        for text in meetings:
            for chapter in plan_chapters(text if text.startswith("Part") else f"Part {part} {text}"):
                met.setdefault(chapter, week)
    for week, _, due in weeks:
        for assignment in due:
            late = sorted(c for c in needs.get(assignment, ()) if met.get(c, 0) > week)
            if late:
                problems.append(f"{assignment} is due in week {week} before {late}")
    return problems


def optional_parts(plan):
    """The sections of the course plan's optional parts, one after the other."""
    return "\n".join(plan.split(f"## Part {part}, an optional continuation", 1)[1]
                     .split("\n## ", 1)[0] for part in ("III", "IV"))


@pytest.mark.parametrize("schedule", ["A three-week schedule", "A two-week schedule",
                                      "optional parts"])
def test_every_schedule_keeps_three_meetings_a_week_and_sets_work_after_its_chapters(schedule):
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    if schedule == "optional parts":     # Part IV starts in the week Part III ends
        section = optional_parts(plan)
        before = {d: 3 for d in set(CHAPTERS) - PART3 - PART4}
    else:
        section = plan.split(f"## {schedule}", 1)[1].split("\n## ", 1)[0]
        before = {}
    assert schedule_weeks(section), schedule
    assert schedule_problems(section, chapters_each_assignment_needs(), before) == []


def test_the_schedule_check_finds_a_crowded_week_and_work_due_too_early():
    section = """
- **Week 1, Part I.** Meeting 1: chapter 1. Meeting 2: chapter 2. Due: 02-binary-discriminant.
- **Week 2, Part I.** Meeting 1: chapter 3. Meeting 2: chapter 4. Meeting 3: chapter 5.
  Meeting 4: chapter 1. Due: 03-real-data.
"""
    needs = chapters_each_assignment_needs()
    assert "book/part1/03_generative_discriminative" in needs["02-binary-discriminant"]
    assert schedule_problems(section, needs) == [
        "week 2 has 4 meetings",
        "02-binary-discriminant is due in week 1 before ['book/part1/03_generative_discriminative', "
        "'book/part1/04_explore_binary_discriminant']"]


def test_the_schedule_check_counts_a_week_shared_by_two_parts_once():
    section = """
- **Week 5, Part III.** Meeting 1: Part III chapter 4. Due: 12-missing-values.
- **Week 5, Part IV.** Meeting 2: Part IV chapter 1. Meeting 3: Part IV chapter 2.
  Meeting 4: Part IV chapter 3. Due: 13-continuous-features.
- **Week 6, Part IV.** Meeting 1: Part IV chapter 4. Due: 15-text-in-practice.
"""
    needs = {"15-text-in-practice": {"book/part4/03_text_in_practice"},
             "13-continuous-features": {"book/part4/02_dependent_features"},
             "12-missing-values": {"book/part3/04_missing_values"}}
    assert schedule_problems(section, needs) == ["week 5 has 4 meetings"]
    late = section.replace("Meeting 4: Part IV chapter 3. ", "")
    assert schedule_problems(late, {**needs, "13-continuous-features":
                                    {"book/part4/04_priors_that_move"}}) == [
        "13-continuous-features is due in week 5 before ['book/part4/04_priors_that_move']"]


# --------------------------------------------------------------------------- the student tree

def test_instructor_material_is_not_for_students():
    from nbcourse.grading.assignment import instructor_files, student_files

    for folder in ASSIGNMENTS:
        assert folder / RUBRIC in instructor_files(folder)
        assert folder / RUBRIC not in student_files(folder)
