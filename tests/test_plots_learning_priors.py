"""Tests for the figures of the text-in-practice and priors chapters (nbcourse.plots.learning,
nbcourse.plots.priors): what each draws, against values given here."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from numpy.testing import assert_allclose  # noqa: E402

from nbcourse.plots import (  # noqa: E402
    plot_confusion_matrix,
    plot_learning_curves,
    plot_prior_bars,
    plot_threshold_costs,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_learning_curves_draw_each_curve_and_its_band():
    ax = plot_learning_curves([2, 10, 50], {"a": [0.7, 0.4, 0.2], "b": [0.6, 0.45, 0.3]},
                              bands={"b": [[0.5, 0.4, 0.25], [0.7, 0.5, 0.35]]},
                              ylabel="test error")
    assert [line.get_label() for line in ax.lines] == ["a", "b"]
    assert_allclose(ax.lines[1].get_ydata(), [0.6, 0.45, 0.3])
    assert len(ax.collections) == 1 and ax.get_xscale() == "log"
    path = ax.collections[0].get_paths()[0].vertices
    assert path[:, 1].min() == pytest.approx(0.25) and path[:, 1].max() == pytest.approx(0.7)
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)


@pytest.mark.parametrize("kwargs, message", [
    ({"sizes": [0, 1], "curves": {"a": [1, 2]}}, "sizes must be"),
    ({"sizes": [1, 2], "curves": {"a": [1, 2, 3]}}, r"curves\['a'\] must have the shape"),
    ({"sizes": [1, 2], "curves": {"a": [1, 2]}, "bands": {"b": [[0, 0], [1, 1]]}},
     "bands must name labels of curves"),
    ({"sizes": [1, 2], "curves": {"a": [1, 2]}, "bands": {"a": [[1, 0], [0, 1]]}},
     "low <= high"),
])
def test_learning_curves_name_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        plot_learning_curves(ylabel="y", **kwargs)


def test_prior_bars_put_each_set_side_by_side():
    ax = plot_prior_bars(["a", "b", "c"], {"training": [1 / 3] * 3, "true": [0.6, 0.3, 0.1],
                                           "EM": [0.55, 0.35, 0.1]})
    assert len(ax.containers) == 3
    assert_allclose([b.get_height() for b in ax.containers[1]], [0.6, 0.3, 0.1])
    centres = [[b.get_x() + b.get_width() / 2 for b in c] for c in ax.containers]
    assert centres[0][0] < centres[1][0] < centres[2][0] < centres[0][1]
    with pytest.raises(ValueError, match="one value per class"):
        plot_prior_bars(["a", "b"], {"true": [0.2, 0.3, 0.5]})


def test_confusion_matrix_shows_row_shares_or_counts():
    M = np.array([[8, 2, 0], [1, 9, 0], [0, 0, 0]])
    ax = plot_confusion_matrix(M, ["x", "y", "z"])
    assert [t.get_text() for t in ax.texts[:3]] == ["0.80", "0.20", "0.00"]
    assert [t.get_text() for t in ax.texts[6:]] == ["0.00"] * 3      # an empty row stays 0
    assert_allclose(ax.images[0].get_array(), [[0.8, 0.2, 0], [0.1, 0.9, 0], [0, 0, 0]])
    counts = plot_confusion_matrix(M, ["x", "y", "z"], normalise=False)
    assert [t.get_text() for t in counts.texts[:2]] == ["8", "2"]
    with pytest.raises(ValueError, match=r"matrix must be a \(2, 2\) table"):
        plot_confusion_matrix(M, ["x", "y"])


def test_threshold_costs_mark_the_named_thresholds():
    ax = plot_threshold_costs([0.0, 0.5, 1.0], {"model": [0.3, 0.1, 0.2]},
                              marks={"Bayes": 0.2, "best": 0.5})
    assert ax.get_xlim() == (0.0, 1.0)
    assert [line.get_label() for line in ax.lines] == ["model", "Bayes", "best"]
    with pytest.raises(ValueError, match="thresholds must be increasing numbers"):
        plot_threshold_costs([0.5, 0.2], {"model": [0.1, 0.2]})
