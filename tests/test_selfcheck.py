"""Self-check questions: answer checking in Python and in the static page (Chromium, offline)."""

import json
import re
from html.parser import HTMLParser

import pytest

from conftest import BROWSER_ARGS, CHROMIUM, skip_or_fail_without_browser
from nbcourse.mime import SELFCHECK
from nbcourse.selfcheck import INERT_NOTE, Question, choice, number


class Parsed(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def parse(page):
    p = Parsed()
    p.feed(page)
    return p.tags


def test_choice_checks_by_index_or_text():
    q = choice("Which is larger?", ["0.3", "0.7"], right=1, feedback=["No.", "Yes."])
    assert q.check(1) and q.check("0.7")
    assert not q.check(0) and not q.check("0.3")
    assert q.answer_text() == "0.7. Yes."


def test_number_accepts_answers_within_the_tolerance_only():
    q = number("0.7 × 0.8 = ?", 0.56, tolerance=0.005)
    assert q.check(0.56) and q.check(0.564) and q.check("0,556")
    assert not q.check(0.566) and not q.check(0.5) and not q.check("nan")
    exact = number("How many bits?", 4)
    assert exact.check(4) and not exact.check(4.001)
    assert q.answer_text() == "0.56 (± 0.005)."


def test_html_is_a_labelled_radio_group_with_a_live_region_and_no_network():
    q = choice("Pick one", ["a <b>", "c"], right=0)
    page = q._repr_html_()
    tags = parse(page)
    radios = [a for t, a in tags if t == "input"]
    assert [r["type"] for r in radios] == ["radio", "radio"]
    assert len({r["name"] for r in radios}) == 1
    assert "<legend>Pick one</legend>" in page and "a &lt;b&gt;" in page
    (status,) = [a for t, a in tags if a.get("role") == "status"]
    assert status["aria-live"] == "polite"
    (form,) = [a for t, a in tags if t == "form"]
    assert json.loads(form["data-key"])["right"] == 0
    assert "http" not in page and "src=" not in page
    assert q._repr_html_() == page, "deterministic"


def test_number_field_has_a_label():
    page = number("2 + 2?", 4)._repr_html_()
    (field,) = [a for t, a in parse(page) if t == "input"]
    assert field["type"] == "text"
    assert re.search(rf'<label for="{field["id"]}">Your answer</label>', page)


@pytest.mark.parametrize("call, error, message", [
    (lambda: choice("", ["a", "b"], 0), ValueError, "prompt must be a non-empty str, got ''"),
    (lambda: choice(None, ["a", "b"], 0), TypeError,
     "prompt must be a non-empty str, got NoneType None"),
    (lambda: choice("q", ["a", " "], 0), ValueError, "options[1] must be a non-empty str, got ' '"),
    (lambda: choice("q", ["a"], 0), ValueError,
     "options must be a list of at least two str, got ['a']"),
    (lambda: choice("q", "ab", 0), TypeError, "options must be a list of at least two str, "
                                              "got str 'ab'"),
    (lambda: choice("q", ["a", "a"], 0), ValueError, "options must be distinct, got ['a', 'a']"),
    (lambda: choice("q", ["a", "b"], 2), ValueError,
     "right must be an index in range(2) (0-based), got 2"),
    (lambda: choice("q", ["a", "b"], True), TypeError,
     "right must be an integer index (0-based), got True"),
    (lambda: choice("q", ["a", "b"], 0, feedback=["x"]), ValueError,
     "feedback must be a list of one str per option (2), got 1: ['x']"),
    (lambda: choice("q", ["a", "b"], 0, feedback="xy"), TypeError,
     "feedback must be a list of one str per option (2), got str 'xy'"),
    (lambda: number("q", float("nan")), ValueError, "right must be a finite number, got nan"),
    (lambda: number("q", "1"), TypeError, "right must be a finite number, got str '1'"),
    (lambda: number("q", 1, tolerance=-1), ValueError,
     "tolerance must be a finite number >= 0, got -1.0"),
    (lambda: choice("q", ["a", "b"], 0).check(5), ValueError,
     "answer must be an index in range(2) (0-based), got 5"),
    (lambda: choice("q", ["a", "b"], 0).check(0.5), TypeError,
     "answer must be an option index 0..1 or an option's text, got 0.5"),
    (lambda: choice("q", ["a", "b"], 0).check("z"), ValueError,
     "answer must be one of the options ['a', 'b'], got 'z'"),
    (lambda: number("q", 1).check("one"), ValueError,
     "answer must be a number or its text, got 'one'"),
    (lambda: number("q", 1).check(None), TypeError,
     "answer must be a number or its text, got NoneType None"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        call()


@pytest.mark.browser
def test_right_and_wrong_answers_get_feedback_in_chromium_offline(tmp_path):
    skip_or_fail_without_browser()
    from playwright.sync_api import sync_playwright

    q1 = choice("Which model sums to one over one-hot codes?", ["categorical", "PoB"], right=0,
                feedback=["Its weights sum to one.", "Its codes leave mass elsewhere."])
    q2 = number("0.7 × 0.8 = ?", 0.56, tolerance=0.005, feedback="Product of the two.",
                hint="Multiply the two factors.")
    page_file = tmp_path / "questions.html"
    page_file.write_text('<!doctype html><html lang="en"><head><title>q</title></head><body>'
                         f"<main>{q1._repr_html_()}{q2._repr_html_()}</main></body></html>",
                         encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=BROWSER_ARGS)
        try:
            page = browser.new_page()
            requests, errors = [], []
            page.on("request", lambda r: r.url.startswith("file:") or requests.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            forms = page.locator("form.nbcourse-selfcheck")
            status1 = forms.nth(0).get_by_role("status")
            # keyboard only: Tab to the radio group, arrows between options, Enter submits
            page.keyboard.press("Tab")
            page.keyboard.press("ArrowDown")  # selects the second option, "PoB"
            assert page.get_by_role("radio", name="PoB").is_checked()
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            assert status1.text_content() == "Not quite. Its codes leave mass elsewhere."
            assert "nbcourse-wrong" in status1.get_attribute("class")
            page.get_by_role("radio", name="categorical").check()
            forms.nth(0).get_by_role("button", name="Check").click()
            assert status1.text_content() == "Right. Its weights sum to one."
            assert "nbcourse-right" in status1.get_attribute("class")

            field = page.get_by_role("textbox", name="Your answer")
            button = forms.nth(1).get_by_role("button", name="Check")
            status2 = forms.nth(1).get_by_role("status")
            button.click()
            assert status2.text_content() == "Type a number first."
            field.fill("0.6")
            field.press("Enter")
            assert status2.text_content() == "Not quite. Multiply the two factors."
            field.fill("0,56")
            button.click()
            assert status2.text_content() == "Right. Product of the two."
            assert not requests and not errors
        finally:
            browser.close()


@pytest.mark.browser
@pytest.mark.parametrize("scripts", [False, True])
def test_a_question_that_cannot_run_says_how_to_make_it_work(tmp_path, scripts):
    """Jupyter shows a stored output of a notebook that has not run without its script: the
    question then says how to make it work; where the script runs, that line is gone."""
    skip_or_fail_without_browser()
    from playwright.sync_api import sync_playwright

    q = number("0.7 × 0.8 = ?", 0.56, tolerance=0.005)
    page_file = tmp_path / "question.html"
    page_file.write_text('<!doctype html><html lang="en"><head><title>q</title></head><body>'
                         f"<main>{q._repr_html_()}</main></body></html>", encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=BROWSER_ARGS)
        try:
            page = browser.new_page(java_script_enabled=scripts)
            page.goto(page_file.as_uri())
            note = page.get_by_text(INERT_NOTE)
            if scripts:
                assert note.count() == 0, "the note stays after the script has bound the form"
            else:
                assert note.is_visible(), "a question without its script does not say why"
        finally:
            browser.close()


@pytest.mark.parametrize("question", [
    choice("Is 1 < 2 & 3 > 2?", ["yes, <both>", "no  (two spaces)", "\"quoted\""], right=0,
           feedback=["Right: both hold.", "", "No."]),
    number("θ₁ = ?", 0.25, tolerance=0.005, feedback="a quarter", hint="below ½"),
])
def test_a_question_round_trips_through_its_json_form(question):
    bundle = question._repr_mimebundle_()
    assert set(bundle) == {SELFCHECK, "text/html", "text/plain"}
    stored = json.loads(json.dumps(bundle))  # as a notebook stores it
    assert Question.from_json(stored) == question
    assert Question.from_json(stored[SELFCHECK]) == question
    assert stored[SELFCHECK]["version"] == 1 and stored[SELFCHECK]["kind"] == question.kind


def _form(**changes):
    data = choice("1 + 1?", ["1", "2"], right=1).to_json()
    data.update(changes)
    return {SELFCHECK: data, "text/plain": "Self-check: 1 + 1?"}


@pytest.mark.parametrize(("bundle", "error", "words"), [
    ("<form>", TypeError, "bundle must be a MIME bundle (dict) holding "
                          "'application/vnd.nbcourse.selfcheck+json'"),
    ({"text/html": "<form></form>"}, ValueError, "got a bundle of ['text/html']"),
    ({SELFCHECK: "{}"}, TypeError, "must be a JSON object, got"),
    (_form(version=2), ValueError, "['version'] must be 1"),
    (_form(kind="essay"), ValueError, "['kind'] must be 'choice' or 'number', got 'essay'"),
    (_form(right="1"), TypeError, "['right'] must be int or float, got"),
    (_form(options=["only one"]), ValueError, "options must be a list of at least two str"),
    (_form(right=5), ValueError, "right"),
    (_form(kind="number", feedback=["x"]), ValueError, "must be [when right, when wrong]"),
])
def test_a_malformed_bundle_says_what_was_expected(bundle, error, words):
    with pytest.raises(error) as info:
        Question.from_json(bundle)
    assert words in str(info.value)


def test_a_bundle_without_a_field_names_it():
    data = _form()
    del data[SELFCHECK]["prompt"]
    with pytest.raises(ValueError, match=r"must have the field 'prompt'"):
        Question.from_json(data)
