"""Tests for nbcourse._validation: every validator accepts good input unchanged and refuses
bad input with a message naming the argument, what was expected and what was given; the
entry points of interact, selfcheck and grading refuse bad arguments in that same form."""

import re

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from nbcourse._validation import (
    ROW_SUM_ATOL,
    as_real_array,
    check_alpha,
    check_binary,
    check_codes,
    check_index,
    check_labels,
    check_n_categories,
    check_n_values,
    check_ndim,
    check_probabilities,
    check_same_shape,
    check_simplex,
)


def test_as_real_array():
    out = as_real_array([True, 2, 3.5], "x")
    assert out.dtype == np.float64
    assert_array_equal(out, [1.0, 2.0, 3.5])
    assert as_real_array([np.inf], "x")[0] == np.inf  # finiteness is the caller's business
    with pytest.raises(TypeError, match=r"x must contain real numbers, got str"):
        as_real_array("abc", "x")
    with pytest.raises(TypeError, match="x must contain real numbers"):
        as_real_array([1 + 2j], "x")
    with pytest.raises(ValueError, match="x must not contain NaN"):
        as_real_array([0.0, np.nan], "x")
    with pytest.raises(ValueError, match="x must be a rectangular array of numbers"):
        as_real_array([[1, 2], [3]], "x")


def test_check_probabilities_boundaries():
    assert_array_equal(check_probabilities([0, 1, 0.5], "p"), [0.0, 1.0, 0.5])
    with pytest.raises(ValueError, match=r"p must contain probabilities in \[0, 1\]; entry \(0, 1\) is -1e-12"):
        check_probabilities([[0.5, -1e-12]], "p")
    with pytest.raises(ValueError, match=r"entry \(0,\) is inf"):
        check_probabilities([np.inf], "p")


def test_check_simplex_tolerance_is_1e_8():
    assert ROW_SUM_ATOL == 1e-8
    check_simplex([0.5, 0.5 + 0.9e-8], "theta")
    with pytest.raises(
        ValueError,
        match=r"theta must have rows summing to 1 \(within 1e-08\) along its last axis; "
        r"the vector sums to 1.1e-08 too many",
    ):
        check_simplex([0.5, 0.5 + 1.1e-8], "theta")
    with pytest.raises(ValueError, match=r"row \(1, 0\) sums to 0.5 too few"):
        check_simplex(np.array([[[1.0, 0.0]], [[0.25, 0.25]]]), "theta")
    with pytest.raises(ValueError, match="theta must have at least one axis"):
        check_simplex(1.0, "theta")
    with pytest.raises(ValueError, match="sums to 0.1 too few"):
        check_simplex([0.2, 0.7], "theta", atol=0.05)
    check_simplex([0.2, 0.7], "theta", atol=0.2)


def test_check_codes():
    out = check_codes([[0, 3.0], [2, 1]], "X")
    assert out.dtype == np.int64
    assert_array_equal(out, [[0, 3], [2, 1]])
    assert_array_equal(check_codes(np.array([[True, False]]), "X"), [[1, 0]])
    with pytest.raises(ValueError, match=r"X must contain integer category codes 0, 1, 2, \.\.\.; entry \(1, 0\) is 0.5"):
        check_codes([[0], [0.5]], "X")
    with pytest.raises(ValueError, match=r"X must contain integer category codes.*is inf"):
        check_codes([[np.inf]], "X")
    with pytest.raises(ValueError, match=r"X must contain non-negative category codes.*entry \(0, 0\) is -2"):
        check_codes([[-2]], "X")
    with pytest.raises(ValueError, match="X must be a 2-d array, got 1-d array of shape"):
        check_codes([1, 2], "X")
    with pytest.raises(ValueError, match="X must not be empty"):
        check_codes(np.empty((0, 2)), "X")
    assert check_codes([3], "x", ndim=None).shape == (1,)


def test_check_binary():
    assert_array_equal(check_binary([[0.0, 1.0]], "B"), [[0, 1]])
    with pytest.raises(ValueError, match=r"B must contain only 0 and 1; entry \(0, 2\) is -1"):
        check_binary([[0, 1, -1]], "B")
    with pytest.raises(ValueError, match="B must not be empty"):
        check_binary(np.empty((3, 0)), "B")


@pytest.mark.parametrize("good", [0, 0.0, 1e-10, 3, np.float32(0.5)])
def test_check_alpha_accepts(good):
    assert check_alpha(good) == float(good)


@pytest.mark.parametrize(
    ("bad", "exc", "match"),
    [
        (-1e-12, ValueError, r"alpha must be a finite number >= 0, got -1e-12"),
        (np.nan, ValueError, "alpha must be a finite number >= 0, got nan"),
        (np.inf, ValueError, "alpha must be a finite number >= 0, got inf"),
        ("1", TypeError, "alpha must be a real number >= 0, got str"),
        (True, TypeError, "alpha must be a real number >= 0, got True"),
        ([1.0], TypeError, "alpha must be a real number"),
    ],
)
def test_check_alpha_refuses(bad, exc, match):
    with pytest.raises(exc, match=match):
        check_alpha(bad)


def test_check_index():
    assert check_index(np.int64(0), 2) == 0
    with pytest.raises(ValueError, match=r"j must be an index in range\(4\) \(0-based\), got -1"):
        check_index(-1, 4)
    with pytest.raises(TypeError, match="k must be an integer index"):
        check_index(1.0, 4, "k")
    with pytest.raises(TypeError, match="j must be an integer index"):
        check_index(True, 4)


def test_check_n_categories():
    assert check_n_categories(np.int32(2)) == 2
    with pytest.raises(ValueError, match=r"K must be an integer >= 2 \(number of categories\), got 1"):
        check_n_categories(1)
    with pytest.raises(TypeError, match="K must be an integer >= 2, got 2.5"):
        check_n_categories(2.5)


def test_shapes():
    check_ndim(np.zeros(3), 1, "p")
    with pytest.raises(ValueError, match=r"P must be a 2-d array, got 1-d array of shape \(3,\)"):
        check_ndim(np.zeros(3), 2, "P")
    check_same_shape(np.zeros((2, 3)), np.ones((2, 3)), "a", "b")
    with pytest.raises(ValueError, match=r"a and b must have the same shape, got \(2, 3\) and \(3, 2\)"):
        check_same_shape(np.zeros((2, 3)), np.ones((3, 2)), "a", "b")


def test_check_labels():
    assert_array_equal(check_labels([2, 1, 2], 3), [2, 1, 2])
    with pytest.raises(ValueError, match=r"y must contain at least 2 distinct classes, got 1"):
        check_labels(["a", "a"], 2)
    with pytest.raises(ValueError, match=r"y must have one label per row of X \(3\), got 2 labels"):
        check_labels([0, 1], 3)
    with pytest.raises(ValueError, match=r"y must be a 1-d array of class labels, got shape \(2, 1\)"):
        check_labels([[0], [1]], 2)
    with pytest.raises(ValueError, match="y must not contain NaN labels"):
        check_labels([0.0, np.nan], 2)


def test_check_text():
    from nbcourse._validation import check_text

    assert check_text("  prior P(ω₁) ", "label") == "prior P(ω₁)"
    with pytest.raises(ValueError, match=r"^label must be a non-empty str, got ' '$"):
        check_text(" ", "label")
    with pytest.raises(TypeError, match=r"^label must be a non-empty str, got NoneType None$"):
        check_text(None, "label")


def _bad_calls(tmp_path):
    """One bad call per public entry point of interact, selfcheck and grading: (name, call)."""
    from nbcourse.grading.assignment import Assignment, Call, Question, Value, load_assignment
    from nbcourse.grading.check import checker, find_assignment
    from nbcourse.grading.names import output_names
    from nbcourse.interact import explore, parse_control
    from nbcourse.selfcheck import choice, number

    def draw(n, kind="x"):  # pragma: no cover - never reached by a bad call
        raise AssertionError

    q = Question("q1", "t", 1, [])
    return [
        ("theta", lambda: parse_control("theta", (0, 1, 0))),
        ("theta", lambda: parse_control("theta", "abc")),
        ("theta", lambda: parse_control("theta", ["a", "a"])),
        ("n", lambda: parse_control("n", (1, 3, 1)).index_of(2.5)),
        ("kind", lambda: parse_control("kind", ["x"]).index_of("y")),
        ("plot_fn", lambda: explore("draw", n=(1, 3, 1))),
        ("plot_fn", lambda: explore(lambda n: None, n=(1, 2, 1))),
        ("plot_fn", lambda: explore(lambda n: 1 / 0, n=(1, 2, 1))),
        ("plot_fn", lambda: explore(lambda n, alpha: None, n=(1, 2, 1))),
        ("m", lambda: explore(draw, n=(1, 3, 1), m=[1])),
        ("controls", lambda: explore(draw)),
        ("controls", lambda: explore(draw, n=(0, 99, 1))),
        ("_colour", lambda: explore(draw, n=(1, 3, 1), _colour="red")),
        ("_dpi", lambda: explore(draw, n=(1, 3, 1), _dpi=0)),
        ("_still_dpi", lambda: explore(draw, n=(1, 3, 1), _still_dpi=2.5)),
        ("_max_frames", lambda: explore(draw, n=(1, 3, 1), _max_frames=True)),
        ("_figsize", lambda: explore(draw, n=(1, 3, 1), _figsize=(6, -1))),
        ("_initial", lambda: explore(draw, n=(1, 3, 1), _initial=3)),
        ("_initial", lambda: explore(draw, n=(1, 3, 1), _initial={"m": 1})),
        ("_initial['n']", lambda: explore(draw, n=(1, 3, 1), _initial={"n": 9})),
        ("_labels", lambda: explore(draw, n=(1, 3, 1), _labels={"m": "M"})),
        ("_labels['n']", lambda: explore(draw, n=(1, 3, 1), _labels={"n": ""})),
        ("_alt", lambda: explore(draw, n=(1, 3, 1), _alt=3)),
        ("_alt(n=1)", lambda: explore(draw, n=(1, 3, 1), _alt=lambda n: "")),
        ("prompt", lambda: choice(" ", ["a", "b"], 0)),
        ("options", lambda: choice("q", ["a"], 0)),
        ("options[0]", lambda: choice("q", [1, "b"], 0)),
        ("right", lambda: choice("q", ["a", "b"], -1)),
        ("feedback", lambda: choice("q", ["a", "b"], 0, feedback=["x"])),
        ("right", lambda: number("q", float("inf"))),
        ("tolerance", lambda: number("q", 1, tolerance="0.1")),
        ("answer", lambda: choice("q", ["a", "b"], 0).check(2)),
        ("answer", lambda: number("q", 1).check([1])),
        ("func", lambda: Call("not valid")),
        ("func", lambda: Call(3)),
        ("name", lambda: Value("x.y")),
        ("name", lambda: Question("Q 1", "t", 1, [])),
        ("points", lambda: Question("q1", "t", 0, [])),
        ("questions", lambda: Assignment("a", "t", [q, q])),
        ("path", lambda: load_assignment(tmp_path)),
        ("name", lambda: find_assignment("no-such-assignment")),
        ("name", lambda: checker("no-such-assignment")),
        ("paths", lambda: output_names(["a.ipynb", "a.ipynb"])),
    ]


def test_every_touched_entry_point_says_name_expected_and_got(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no exercises/ folder above: assignments are not found
    failures = []
    for name, call in _bad_calls(tmp_path):
        with pytest.raises((TypeError, ValueError)) as info:
            call()
        message = str(info.value)
        if not re.match(rf"^{re.escape(name)} must be .+, got .+", message, flags=re.DOTALL):
            failures.append(f"{name}: {type(info.value).__name__}: {message}")
    assert not failures, "\n".join(failures)


def test_check_n_values_accepts_an_int_or_one_whole_number_per_feature():
    assert check_n_values(None, 3) is None
    assert_array_equal(check_n_values(4, 3), [4, 4, 4])
    assert_array_equal(check_n_values(4), [4])
    out = check_n_values([2.0, 5], 2)
    assert out.dtype == np.int64
    assert_array_equal(out, [2, 5])


@pytest.mark.parametrize(
    "n_values, n_features, expected, given",
    [
        ([2, 3], 3, "a sequence of 3 ints >= 1", "[2, 3]"),
        ([2, 0], None, "a non-empty sequence of ints >= 1", "[2, 0]"),
        (0, 2, "a sequence of 2 ints >= 1", "0"),
        ([2.5, 3], 2, "a sequence of 2 ints >= 1", "array of shape (2,) and dtype float64"),
        ([True, True], 2, "a sequence of 2 ints >= 1", "array of shape (2,) and dtype bool"),
        ("23", None, "a non-empty sequence of ints >= 1", "str '23'"),
        ([], None, "a non-empty sequence of ints >= 1", "array of shape (0,)"),
        ([[2, 2]], 2, "a sequence of 2 ints >= 1", "array of shape (1, 2)"),
    ],
)
def test_check_n_values_names_the_argument_what_was_expected_and_given(
        n_values, n_features, expected, given):
    with pytest.raises(ValueError) as info:
        check_n_values(n_values, n_features, "V")
    assert str(info.value).startswith(
        f"V must be an int >= 1 or {expected}, the number of values of each feature, got {given}")


def test_check_n_values_required_refuses_none():
    with pytest.raises(ValueError, match=r"n_values must be an int >= 1 or a sequence of 2 ints "
                       r">= 1, the number of values of each feature, got None$"):
        check_n_values(None, 2, required=True)
