"""Tests for the figures of the comparison chapter (nbcourse.plots.evaluation).

Each test checks what a figure draws against values written out here: the boundary of
Domingos & Pazzani's example in closed form, curves and intervals given by hand.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from numpy.testing import assert_allclose  # noqa: E402

from nbcourse.plots import (  # noqa: E402
    plot_copies_paths,
    plot_copies_square,
    plot_intervals,
    plot_log_odds_shift,
    plot_precision_recall,
    plot_roc_curves,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_copies_square_draws_both_boundaries():
    ax = plot_copies_square(2)
    p = ax.lines[1].get_xdata()
    assert_allclose(ax.lines[0].get_ydata(), 1 - p)
    assert_allclose(ax.lines[1].get_ydata(), (1 - p) ** 2 / (p ** 2 + (1 - p) ** 2))
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)


def test_log_odds_shift_counts_flips_and_clips():
    g1 = np.array([-1.0, 0.5, 2.0, -3.0, 20.0])
    gm = np.array([1.0, 1.5, -2.5, -4.0, 30.0])
    ax = plot_log_odds_shift(g1, gm, [True, False, True, False, True], limit=5)
    assert ax.get_title() == "2 of 5 decisions change"
    spam = ax.collections[-2].get_offsets()
    assert_allclose(spam, [[-1.0, 1.0], [2.0, -2.5], [5.0, 5.0]])


def test_log_odds_shift_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="g_once, g_copies and positive"):
        plot_log_odds_shift([1.0, 2.0], [1.0], [True, False])


def test_copies_paths_follow_the_two_valued_shift():
    g = np.array([2.0, -2.0, 0.5])
    h = np.array([0.3, 0.3, -1.0])      # case 1 opposes its shift: it moves towards 1/2 first
    ax = plot_copies_paths(g, h, [1, 0, 1], [1, 2, 4, 8])
    m = np.array([1, 2, 4, 8])
    for k in range(3):
        assert_allclose(ax.lines[k].get_ydata(), 1 / (1 + np.exp(-(g[k] + (m - 1) * h[k]))))
    assert_allclose(ax.lines[-1].get_ydata(), [0.5, 0.5])
    assert ax.lines[0].get_color() == ax.lines[2].get_color() != ax.lines[1].get_color()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["x_j = 1", "x_j = 0"]
    distance = np.abs(ax.lines[1].get_ydata() - 0.5)
    assert distance[1] < distance[0]     # closer to 1/2 after one copy


def test_copies_paths_rejects_bad_input():
    with pytest.raises(ValueError, match="g_once, shift and value"):
        plot_copies_paths([1.0, 2.0], [1.0], [0, 1], [1, 2])
    with pytest.raises(ValueError, match="value must hold only 0 and 1"):
        plot_copies_paths([1.0], [1.0], [2], [1, 2])
    with pytest.raises(ValueError, match="copies must be at least two whole numbers"):
        plot_copies_paths([1.0], [1.0], [1], [0.5, 2])


def test_roc_and_pr_curves_draw_the_given_points():
    ax = plot_roc_curves({"a": ([0, 0.2, 1], [0, 0.7, 1]), "b": ([0, 1], [0, 1])})
    assert_allclose(ax.lines[0].get_xydata(), [[0, 0], [0.2, 0.7], [1, 1]])
    assert len(ax.lines) == 3
    ax = plot_precision_recall({"a": ([1, 0.4, 0], [0.2, 0.9, 1])}, prevalence=0.09)
    assert_allclose(ax.lines[-1].get_ydata(), [0.09, 0.09])
    with pytest.raises(ValueError, match="prevalence must be in"):
        plot_precision_recall({"a": ([1, 0], [0.2, 1])}, prevalence=1.5)
    with pytest.raises(ValueError, match=r"curves\['a'\] must be two 1-d arrays"):
        plot_roc_curves({"a": ([0, 1], [0, 0.5, 1])})


def test_intervals_rows_in_order():
    ax = plot_intervals({"naive": (0.01, 0.005, 0.02), "corrected": (0.01, -0.002, 0.03)})
    assert [t.get_text() for t in ax.get_yticklabels()] == ["naive", "corrected"]
    assert_allclose(ax.lines[1].get_xdata(), [-0.002, 0.03])
    with pytest.raises(ValueError, match="low <= centre <= high"):
        plot_intervals({"bad": (0.5, 0.6, 0.7)})
