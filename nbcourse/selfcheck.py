"""Self-check questions that answer in the static book page and in Jupyter alike.

:func:`choice` (multiple choice) and :func:`number` (a numeric answer with a tolerance)
return a :class:`Question` that displays itself as HTML: a labelled radio group or text
field, a "Check" button and a live region (``role="status"``) where the feedback appears.
A few lines of inline JavaScript compare the reader's answer with the key held in the
element's ``data-`` attributes; nothing is fetched from the network, no kernel is needed,
and everything works by keyboard (Tab to the options, arrow keys between radio buttons,
Enter or Space on the button).  In a live kernel the same HTML is shown, and
:meth:`Question.check` gives the same verdict from Python.

Where the script cannot run (a stored output in Jupyter before the notebook has run, which
Jupyter does not trust), the form keeps a line, :data:`INERT_NOTE`, saying how to make the
question work; the script removes that line as soon as it binds the form.

The answer key sits in the page (as in any self-check without a server); the book lists
the answers in an appendix too, for print.  Beside the HTML and a plain-text fallback, a
question's output holds its data under the MIME type :data:`nbcourse.mime.SELFCHECK`
(:meth:`Question.to_json`); the book renders the question from that form (HTML for the web,
text and a pointer to the answers appendix for print, :mod:`nbcourse_book.renderer`) and
:meth:`Question.from_json` and :meth:`Question.answer_text` give the answers appendix its
question and answer.

Structure (for browser tests): ``<form class="nbcourse-selfcheck" data-kind="choice"
or "number">`` holds a ``<fieldset>`` with a ``<legend>`` (the question) and either
``input[type=radio]`` with labels or one labelled ``input[type=text]``, a
``<button type="submit">``, and ``<p role="status" aria-live="polite">``.  After a check the
status element has class ``nbcourse-right`` or ``nbcourse-wrong``.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import numbers
from dataclasses import dataclass

import numpy as np

from ._validation import _describe, check_alpha, check_index, check_text
from .mime import SELFCHECK, VERSION, payload

__all__ = ["INERT_NOTE", "Question", "choice", "number"]

INERT_NOTE = ("This question checks answers once its cell has run: run the notebook's cells "
              "(Run, then Run All Cells), or read it in the HTML book.")
"""Shown in a stored question whose script has not run; removed by the script."""

_SCRIPT = """(function () {
  var me = document.currentScript;
  var form = (me && me.previousElementSibling) || document.getElementById("%(id)s");
  if (!form || form.getAttribute("data-bound")) { return; }
  form.setAttribute("data-bound", "1");
  var inert = form.querySelector(".nbcourse-inert");
  if (inert) { inert.remove(); }
  var status = form.querySelector("[role=status]");
  var key = JSON.parse(form.getAttribute("data-key"));
  function verdict() {
    if (form.getAttribute("data-kind") === "choice") {
      var picked = form.querySelector("input[type=radio]:checked");
      if (!picked) { return [null, key.empty]; }
      var i = parseInt(picked.value, 10);
      return [i === key.right, key.feedback[i] || null];
    }
    var text = form.querySelector("input[type=text]").value.trim().replace(",", ".");
    var x = Number(text);
    if (text === "" || !isFinite(x)) { return [null, key.empty]; }
    return [Math.abs(x - key.value) <= key.tol, null];
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var v = verdict();
    status.classList.remove("nbcourse-right", "nbcourse-wrong");
    if (v[0] === null) { status.textContent = v[1]; return; }
    status.classList.add(v[0] ? "nbcourse-right" : "nbcourse-wrong");
    status.textContent = (v[0] ? "Right. " : "Not quite. ") + (v[1] || (v[0] ? key.right_text : key.wrong_text));
  });
})();"""


def _json_attr(obj) -> str:
    return html.escape(json.dumps(obj, ensure_ascii=False, separators=(",", ":")), quote=True)


@dataclass(frozen=True)
class Question:
    """One self-check question; build it with :func:`choice` or :func:`number`.

    Attributes
    ----------
    prompt : str
        The question (plain text, Unicode for mathematics).
    kind : {'choice', 'number'}
    options : tuple of str
        The options of a multiple-choice question (empty for a number).
    right : int or float
        Index of the right option, or the right number.
    tolerance : float
        Largest accepted distance from ``right`` (numbers only).
    feedback : tuple of str
        Feedback per option (choice), or ``(when right, when wrong)`` (number).
    """

    prompt: str
    kind: str
    options: tuple
    right: float
    tolerance: float
    feedback: tuple

    @property
    def ident(self) -> str:
        """Element id derived from the content, so the HTML is deterministic."""
        text = json.dumps([self.prompt, self.kind, self.options, self.right], default=str)
        return "nbcourse-q-" + hashlib.sha256(text.encode()).hexdigest()[:12]

    def check(self, answer) -> bool:
        """Whether ``answer`` (an option index or text, or a number) is right.

        >>> q = number("2 + 2?", 4)
        >>> q.check(4), q.check("4.0"), q.check(5)
        (True, True, False)
        """
        if self.kind == "choice":
            if isinstance(answer, str):
                if answer not in self.options:
                    raise ValueError(f"answer must be one of the options {list(self.options)}, "
                                     f"got {answer!r}")
                answer = self.options.index(answer)
            if isinstance(answer, bool | np.bool_) or not isinstance(answer, numbers.Integral):
                raise TypeError(f"answer must be an option index 0..{len(self.options) - 1} "
                                f"or an option's text, got {_describe(answer)}")
            return check_index(answer, len(self.options), "answer") == self.right
        if isinstance(answer, str):
            try:
                value = float(answer.replace(",", "."))
            except ValueError:
                raise ValueError(f"answer must be a number or its text, got {answer!r}") from None
        elif isinstance(answer, bool | np.bool_) or not isinstance(answer, numbers.Real):
            raise TypeError(f"answer must be a number or its text, got {_describe(answer)}")
        else:
            value = float(answer)
        return math.isfinite(value) and abs(value - self.right) <= self.tolerance

    def answer_text(self) -> str:
        """The answer in words, for an appendix of answers."""
        if self.kind == "choice":
            return f"{self.options[self.right]}. {self.feedback[self.right]}".strip()
        text = f"{self.right:g}"
        if self.tolerance:
            text += f" (± {self.tolerance:g})"
        return f"{text}. {self.feedback[0]}".strip()

    def to_json(self) -> dict:
        """The JSON form of the question (MIME type :data:`nbcourse.mime.SELFCHECK`).

        >>> number("2 + 2?", 4).to_json()["right"]
        4.0
        """
        return {"version": VERSION, "kind": self.kind, "prompt": self.prompt,
                "options": list(self.options), "right": self.right,
                "tolerance": self.tolerance, "feedback": list(self.feedback)}

    @classmethod
    def from_json(cls, data) -> Question:
        """The question whose JSON form (or MIME bundle holding it) is ``data``.

        This is how the book, which has only the stored outputs, renders each question and
        lists the answers.  The fields are checked as :func:`choice` and :func:`number`
        check their arguments.

        >>> q = choice("1 + 1?", ["1", "2"], right=1, feedback=["No.", "Yes."])
        >>> Question.from_json(q._repr_mimebundle_()) == q
        True
        """
        data = payload(data, SELFCHECK, {"kind": str, "prompt": str, "options": list,
                                         "right": (int, float), "tolerance": (int, float),
                                         "feedback": list})
        where = f"bundle[{SELFCHECK!r}]"
        if data["kind"] == "choice":
            question = choice(data["prompt"], data["options"], data["right"], data["feedback"])
        elif data["kind"] == "number":
            if len(data["feedback"]) != 2:
                raise ValueError(f"{where}['feedback'] must be [when right, when wrong] for a "
                                 f"number, got {data['feedback']!r}")
            question = number(data["prompt"], data["right"], data["tolerance"],
                              *data["feedback"])
        else:
            raise ValueError(f"{where}['kind'] must be 'choice' or 'number', "
                             f"got {data['kind']!r}")
        return question

    def _repr_html_(self) -> str:
        ident = self.ident
        prompt = html.escape(self.prompt)
        if self.kind == "choice":
            key = {"right": self.right, "feedback": list(self.feedback),
                   "right_text": "", "wrong_text": "Try another option.",
                   "empty": "Choose an answer first."}
            fields = "".join(
                f'<label><input type="radio" name="{ident}" value="{i}"> '
                f"{html.escape(o)}</label>" for i, o in enumerate(self.options))
        else:
            key = {"value": self.right, "tol": self.tolerance,
                   "right_text": self.feedback[0], "wrong_text": self.feedback[1],
                   "empty": "Type a number first."}
            fields = (f'<label for="{ident}-in">Your answer</label> '
                      f'<input type="text" id="{ident}-in" inputmode="decimal" '
                      f'autocomplete="off" size="10">')
        return (f'<form class="nbcourse-selfcheck" id="{ident}" data-kind="{self.kind}" '
                f'data-key="{_json_attr(key)}">'
                f"<fieldset><legend>{prompt}</legend>{fields}</fieldset>"
                f'<button type="submit">Check</button>'
                f'<p class="nbcourse-inert">{html.escape(INERT_NOTE)}</p>'
                f'<p role="status" aria-live="polite"></p></form>'
                f"<script>{_SCRIPT % {'id': ident}}</script>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        lines = [f"Self-check: {self.prompt}"]
        lines += [f"  ({chr(97 + i)}) {o}" for i, o in enumerate(self.options)]
        return {SELFCHECK: self.to_json(), "text/html": self._repr_html_(),
                "text/plain": "\n".join(lines)}


def choice(prompt: str, options, right: int, feedback=None) -> Question:
    """A multiple-choice question.

    Parameters
    ----------
    prompt : str
        The question.
    options : sequence of str, length >= 2
        The options, shown in this order.
    right : int
        0-based index of the right option.
    feedback : sequence of str, optional
        One explanation per option, shown after the reader checks that option.

    Examples
    --------
    >>> q = choice("Which model gives each one-hot code its own weight?",
    ...            ["categorical", "product of Bernoullis"], right=0)
    >>> q.check(0), q.check("product of Bernoullis")
    (True, False)
    """
    prompt = check_text(prompt, "prompt")
    expected = "a list of at least two str"
    if isinstance(options, str) or not hasattr(options, "__len__"):
        raise TypeError(f"options must be {expected}, got {_describe(options)}")
    if len(options) < 2:
        raise ValueError(f"options must be {expected}, got {options!r}")
    options = tuple(check_text(o, f"options[{i}]") for i, o in enumerate(options))
    if len(set(options)) != len(options):
        raise ValueError(f"options must be distinct, got {list(options)}")
    right = check_index(right, len(options), "right")
    if feedback is None:
        feedback = ("",) * len(options)
    elif isinstance(feedback, str) or not hasattr(feedback, "__len__"):
        raise TypeError(f"feedback must be a list of one str per option ({len(options)}), "
                        f"got {_describe(feedback)}")
    elif len(feedback) != len(options):
        raise ValueError(f"feedback must be a list of one str per option ({len(options)}), "
                         f"got {len(feedback)}: {feedback!r}")
    else:
        feedback = tuple(str(f) for f in feedback)
    return Question(prompt, "choice", options, right, 0.0, feedback)


def number(prompt: str, right: float, tolerance: float = 0.0, feedback: str = "",
           hint: str = "") -> Question:
    """A question answered with a number, right within ``tolerance``.

    Parameters
    ----------
    prompt : str
        The question.
    right : float
        The right answer.
    tolerance : float, default 0
        Largest accepted distance from ``right`` (say 0.005 for two decimals).
    feedback : str, optional
        Explanation shown after a right answer.
    hint : str, optional
        Shown after a wrong answer.

    Examples
    --------
    >>> q = number("Q^{-1}(0.5, 0.3, 0.2) = 0.7 × 0.8 = ?", 0.56, tolerance=0.005)
    >>> q.check(0.56), q.check("0,561"), q.check(0.6)
    (True, True, False)
    """
    prompt = check_text(prompt, "prompt")
    if not isinstance(right, numbers.Real) or isinstance(right, bool | np.bool_):
        raise TypeError(f"right must be a finite number, got {_describe(right)}")
    if not math.isfinite(right):
        raise ValueError(f"right must be a finite number, got {right!r}")
    tolerance = check_alpha(tolerance, "tolerance")
    return Question(prompt, "number", (), float(right), tolerance,
                    (str(feedback), str(hint)))
