"""Claims bound to computed verdicts: no chapter states the outcome of a comparison in fixed words.

A sentence of a chapter that compares computed results takes its verdict ("beats", "ties with",
"the lower log loss") from a value glued by the notebook (``nbcourse.publish.verdict``), so that a
refresh whose numbers contradict the prose changes a stored output and fails nbval.  This test reads
the prose of every chapter and of the book's Markdown pages (markdown cells, with glue roles,
mathematics and code removed) and fails on a verdict phrase written as plain text, naming the
notebook and the sentence.

It is not a ban on the words.  A sentence that reports a cited source's finding (it holds a
``{cite...}`` role) speaks for the source.  A phrase that says in how many cases something happened
or where it happened, followed closely by a glued count or position ("has the lower log loss in
{glue} of the 10 folds", "is lowest at $K =$ {glue}"), is as true as the glued number.  The few
sentences where a verdict phrase states a mathematical fact or a decision rule, not a computed
comparison, are listed in ``NOT_COMPUTED`` with the reason.  The list of phrases is what the book
uses to announce the result of comparing two models or methods, and the qualitative words that stand
in for a computed difference ("nearly the same", "hardly moves", "changes little", "almost never
disagree"); a new phrase of that kind belongs in it.  Every phrase of a sentence is read: a glued
count backs the phrase it follows, not one written earlier in the sentence.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "book").glob("part*/*.ipynb")) + sorted((ROOT / "book").glob("appendix/*.ipynb"))
#: The book's Markdown pages (introduction, course plan, primer, answers): prose that may report results.
PAGES = sorted((ROOT / "book").glob("*.md"))

VERDICT = re.compile(
    r"\b(beats?|beaten|ties? with|loses? to|lost to|outperform\w*"
    r"|(?:did|does|do) (?:best|better|worse)"
    r"|(?:is|are|was|were) (?:\w+ly )?(?:better|worse|more accurate|less accurate) than"
    r"|(?:is|are|was|were|stays?|stayed) (?:\w+ly )?(?:ahead|behind)|ahead of"
    r"|cannot be told apart|cannot tell \w+ (?:\w+ )?apart|cannot separate"
    r"|(?:the )?(?:lower|higher) (?:log loss|median|error rate|accuracy)"
    r"|no better than|no worse than|as good as"
    r"|(?:more|less) often right than|(?:not )?distinguishable from"
    r"|(?:gives?|gave|does|did|is|are|was|were) much the same"
    r"|needs? an? (?:even |still )?(?:lower|higher) one|an even (?:lower|higher|better|worse)"
    r"|gains? and loses? about as many"
    r"|(?:nearly|almost|about|roughly|much|essentially|practically|virtually) the same"
    r"|(?:hardly|barely|scarcely) \w+"
    r"|(?:changes?|changed|moves?|moved|differs?|differed|matters?) (?:very |only )?little"
    r"|(?:almost|nearly) never (?:disagree|differ|agree|change|move)\w*"
    r"|far (?:better|worse) than|not far from the best)\b",
    re.IGNORECASE)

#: (notebook, words of the sentence) -> why the verdict phrase is not a computed comparison.
NOT_COMPUTED = {
    ("part1/02_linear_discriminant", "where both beat every other class"):
        "the definition of a decision region: where a class's discriminant is the largest",
    ("part1/02_linear_discriminant", "losing an ordinary message is worse than"):
        "a judgement of costs that the reader's loss matrix states, not a result",
    ("part2/03_bounds", "the right-hand side alone already beats"):
        "a step of a proof: one side of an inequality exceeds the other",
    ("part2/04_experiments", "beats class MATH on observation MATH when"):
        "the decision rule of the categorical model, stated as an inequality",
    ("part3/04_missing_values", "it beats a strategy whose log loss is higher by more than"):
        "the rule by which the table's verdicts are read, not a verdict",
}

GLUE = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")
MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.DOTALL)
CODE = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)
CITE = re.compile(r"\{cite(?::\w+)?\}")
#: A glued count ("in {glue} of the folds") or position ("at $K =$ {glue}") close after the phrase.
COUNTED = re.compile(r"^(?:\W*\w+){0,8}?\W+(?:(?:in|on) (?:only )?GLUED(?: and GLUED)? of|at (?:MATH )?GLUED)")
SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z(*\-{\[])|\n\s*\n|\n- ")


def _sentences(text):
    """The sentences of a markdown cell, with glue roles, mathematics and code taken out."""
    text = GLUE.sub("GLUED", text)
    text = MATH.sub("MATH", text)
    for sentence in SENTENCE_END.split(text):
        cited = bool(CITE.search(sentence))
        yield " ".join(CODE.sub("CODE", sentence).split()), cited


def unbound_verdicts(path):
    """``[(sentence, phrase)]`` of the plain-text verdict phrases in one chapter's prose."""
    if path.suffix == ".md":
        cells = [{"cell_type": "markdown", "source": [path.read_text(encoding="utf-8")]}]
    else:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    name = path.relative_to(ROOT / "book").with_suffix("").as_posix()
    found = []
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for sentence, cited in _sentences("".join(cell["source"])):
            if cited or any(chapter == name and words in sentence for chapter, words in NOT_COMPUTED):
                continue
            matches = list(VERDICT.finditer(sentence))
            # a glued count backs the phrase it follows, not one written before that phrase
            ends = [m.start() for m in matches[1:]] + [len(sentence)]
            found.extend((sentence, match.group(0)) for match, end in zip(matches, ends[:len(matches)],
                                                                          strict=True)
                         if not COUNTED.search(sentence[match.end():end]))
    return found


def test_every_part_of_the_book_is_read():
    parts = {p.parent.name for p in CHAPTERS}
    assert {"part1", "part2", "part3", "part4", "appendix"} <= parts, sorted(parts)
    assert len([p for p in CHAPTERS if p.parent.name == "part4"]) == 4
    assert {"intro.md", "course_plan.md", "tools_primer.md"} <= {p.name for p in PAGES}


@pytest.mark.parametrize("path", CHAPTERS + PAGES, ids=lambda p: p.relative_to(ROOT / "book").as_posix())
def test_every_verdict_in_a_chapter_is_glued(path):
    found = unbound_verdicts(path)
    assert not found, "\n".join(
        f"{path.relative_to(ROOT)}: '{phrase}' is written, not computed, in: {sentence[:300]}"
        for sentence, phrase in found)


def test_the_check_finds_a_written_verdict_and_passes_a_glued_one(tmp_path):
    def chapter(text):
        nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": [text]}],
              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        folder = tmp_path / "book" / "part9"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "x.ipynb"
        path.write_text(json.dumps(nb), encoding="utf-8")
        return path

    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        written = unbound_verdicts(chapter("On the e-mails naive Bayes beats logistic regression."))
        assert [phrase for _, phrase in written] == ["beats"]
        assert unbound_verdicts(chapter("Naive Bayes has the lower log loss (0.2 against 0.3)."))
        glued = "On the e-mails naive Bayes {glue:md}`nb_vs_lr` logistic regression."
        assert unbound_verdicts(chapter(glued)) == []
        cited = "{cite:t}`ng2002` found naive Bayes ahead of logistic regression on small samples."
        assert unbound_verdicts(chapter(cited)) == []
        assert unbound_verdicts(chapter("In mathematics only: $x \\text{ beats } y$.")) == []
        counted = "PoB beats the categorical model in {glue:text}`n_folds` of the 10 folds."
        assert unbound_verdicts(chapter(counted)) == []
        far = "PoB beats the categorical model, which we fitted with much care and many checks, in {glue:text}`n` of 10."
        assert [phrase for _, phrase in unbound_verdicts(chapter(far))] == ["beats"]
        mcnemar = "Complement naive Bayes is more often right than the multinomial model."
        assert [phrase for _, phrase in unbound_verdicts(chapter(mcnemar))] == ["more often right than"]
        same = "With the 100 words of largest $\\chi^2$ the multinomial model gives much the same."
        assert [phrase for _, phrase in unbound_verdicts(chapter(same))] == ["gives much the same"]
        lower = "The Bayes threshold lowers the cost, and an over-confident model needs an even lower one."
        assert [phrase for _, phrase in unbound_verdicts(chapter(lower))] == ["needs an even lower one"]
        moves = "On the Titanic TAN gains and loses about as many test cases."
        assert [phrase for _, phrase in unbound_verdicts(chapter(moves))] == ["gains and loses about as many"]
        # qualitative words for a computed difference: each sentence as a chapter once had it, then
        # as the chapter now writes it, with the number or the reading glued
        written_and_glued = [
            ("The table shows the cost in log loss while the accuracies differ by at most 0.005. That is"
             " the typical signature of the PoB mistake: the decisions are nearly the same; the"
             " probabilities are not.", "nearly the same",
             "The two models pick different classes for at most {glue:text}`cal_dis_max:.1%` of the"
             " cases, while PoB's log loss is the higher at {glue:text}`cal_ll_n_higher` of the three."),
            ("The categorical model hardly cares about $\\alpha$ until it becomes large.", "hardly cares",
             "The categorical model's log loss stays within {glue:text}`sm_cat_spread:.4f` of its best."),
            ("On 2,201 or 592 cases a few pseudo-counts change little.", "change little",
             "On 2,201 cases ten pseudo-counts move no estimate by more than {glue:text}`shift:.3f`."),
            ("PoB's accuracy is 0.783 at $\\alpha = 1$ and 0.744 at $\\alpha = 1000$: the decisions hardly"
             " move until the smoothing swamps the counts.", "hardly move",
             "Against $\\alpha = 1$, the decisions of {glue:text}`sm_moved_30` of the 2,201 people change"
             " at $\\alpha = 30$."),
            ("With this many records the smoothing hardly moves the dots.", "hardly moves",
             "From $\\alpha = 0.1$ to $\\alpha = 10$ no dot moves by more than {glue:text}`sk_shift:.3f`."),
            ("This is the case the equation describes: more confidence, nearly the same decisions.",
             "nearly the same",
             "The decisions of all but {glue:text}`flips:d` of the {glue:text}`n_test:,d` e-mails stay."),
            ("The chi-square approximation gives nearly the same p-values.", "nearly the same",
             "The chi-square p-values lie within {glue:text}`chi_gap:.4f` of the exact ones,"
             " {glue:md}`chi_reading`."),
            ("Imputing the mode gives the adult value itself: almost the same here.", "almost the same",
             "Imputing the mode gives the adult value, {glue:text}`gap:.4f` from the marginal."),
            ("On the Titanic the two models almost never disagree, yet PoB has the higher log loss in"
             " {glue:text}`ti_worse` of the 10 folds.", "almost never disagree",
             "On the Titanic the two models pick different classes for {glue:text}`ti_disagree:.1%`"
             " of the people."),
            ("Both filters rank the test e-mails far better than chance: the AUC is 0.830 and 0.844.",
             "far better than",
             "{glue:md}`ww_rank_vs_chance`: the AUC is {glue:text}`auc_nb:.3f` and {glue:text}`auc_lr:.3f`."),
            ("With a small pseudo-count the accuracies, 0.788 and 0.782, are not far from the best.",
             "not far from the best",
             "At the best pseudo-count the accuracies are {glue:text}`best_acc:.3f` and {glue:text}`b:.3f`."),
            ("The missing category stays at 0.4712, barely above the 0.4706 of the complete data.",
             "barely above",
             "The missing category stays at {glue:text}`cat:.4f`, {glue:text}`over:+.4f` against the"
             " complete data."),
        ]
        page = tmp_path / "book" / "page.md"
        page.write_text("# A page\n\nOn the e-mails the two filters give nearly the same decisions.\n",
                        encoding="utf-8")
        assert [phrase for _, phrase in unbound_verdicts(page)] == ["nearly the same"]
        two_counts = "The categorical model beats PoB in {glue:text}`n_ti` and {glue:text}`n_he` of the 10 folds."
        assert unbound_verdicts(chapter(two_counts)) == []
        for old_prose, phrase, new_prose in written_and_glued:
            assert [p for _, p in unbound_verdicts(chapter(old_prose))] == [phrase], old_prose
            assert unbound_verdicts(chapter(new_prose)) == [], new_prose
    finally:
        ROOT = saved
