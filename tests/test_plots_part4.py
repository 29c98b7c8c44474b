"""Tests for the figures of Part IV (nbcourse.plots.continuous and nbcourse.plots.dependence).

Each test checks what a figure draws against values given here.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402

from nbcourse.plots import (  # noqa: E402
    COLORS,
    plot_boundaries,
    plot_class_densities,
    plot_dependence_tree,
    plot_feature_posteriors,
    plot_learning_curves,
    plot_score_against_bins,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_class_densities_draw_each_class_as_a_density_on_the_intervals():
    x = np.array([0.0, 0.5, 1.0, 2.5, 2.9, 3.0])
    y = np.array([0, 0, 0, 1, 1, 1])
    grid = np.linspace(0, 3, 7)
    dens = np.vstack([np.ones(7), 2 * np.ones(7)])
    ax = plot_class_densities(x, y, [0.0, 1.5, 3.0], grid=grid, densities=dens)
    heights = [p.get_height() for p in ax.patches]
    # class 0: three cases in [0, 1.5): density 3 / (3 · 1.5); class 1 likewise in [1.5, 3]
    assert_allclose(heights, [2 / 3, 0.0, 0.0, 2 / 3])
    assert_allclose(ax.lines[1].get_ydata(), 2.0)
    with pytest.raises(ValueError, match="edges must be an increasing"):
        plot_class_densities(x, y, [1.0, 0.0])
    with pytest.raises(ValueError, match=r"densities must have shape \(2, 7\)"):
        plot_class_densities(x, y, [0.0, 3.0], grid=grid, densities=dens[:1])


def test_feature_posteriors_put_the_positive_class_at_one():
    g = np.linspace(0, 1, 5)
    ax = plot_feature_posteriors(g, {"smooth": g}, steps={"step": 1 - g}, cuts=[0.5],
                                 x=[0.1, 0.9], y=[1, 0], positive=0)
    assert [line.get_label() for line in ax.lines[:2]] == ["smooth", "step"]
    assert ax.lines[1].get_drawstyle() == "steps-mid"
    rugs = {float(line.get_xdata()[0]): float(line.get_ydata()[0]) for line in ax.lines
            if line.get_marker() == "|"}
    assert rugs == {0.9: 1.0, 0.1: 0.0}
    with pytest.raises(ValueError, match=r"curves\['smooth'\] must have shape \(5,\)"):
        plot_feature_posteriors(g, {"smooth": g[:3]})


def test_boundaries_draw_one_zero_contour_per_model_and_refuse_bad_grids():
    g = np.linspace(-1, 1, 21)
    G1, G2 = np.meshgrid(g, g)
    ax = plot_boundaries(g, g, {"x1 = x2": G1 - G2, "x1 = 0": G1}, [[0.5, 0.0], [-0.5, 0.0]],
                         [0, 1])
    assert [t.get_text() for t in ax.get_legend().get_texts()][-2:] == ["x1 = x2", "x1 = 0"]
    segments = ax.collections[2].get_paths()[0].vertices
    assert_allclose(segments[:, 0], segments[:, 1], atol=1e-12)
    with pytest.raises(ValueError, match=r"must have shape \(21, 21\)"):
        plot_boundaries(g, g, {"bad": G1[:3]}, [[0.0, 0.0]], [0])


def test_score_against_bins_and_learning_curves_draw_their_values():
    ax = plot_score_against_bins([2, 4, 8], {"width": [0.5, 0.4, 0.45]}, references={"g": 0.42})
    assert_allclose(ax.lines[0].get_ydata(), [0.5, 0.4, 0.45])
    assert_allclose(ax.lines[1].get_ydata(), [0.42, 0.42])
    ax = plot_learning_curves([100, 1000], {"a": [0.3, 0.2]}, ylabel="log loss", at=1000,
                              spread={"a": [0.05, 0.02]})
    assert ax.get_xscale() == "log" and [float(v) for v in ax.lines[-1].get_xdata()] == [1000, 1000]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["100", "1,000"]
    bars = ax.collections[-1].get_segments()           # the error bars: one segment per size
    assert_allclose([seg[:, 1] for seg in bars], [[0.25, 0.35], [0.18, 0.22]])
    with pytest.raises(ValueError, match="sizes must be increasing"):
        plot_learning_curves([100, 50], {"a": [0.3, 0.2]}, ylabel="log loss")
    with pytest.raises(ValueError, match=r"spread\['a'\] must be a finite array"):
        plot_learning_curves([100, 1000], {"a": [0.3, 0.2]}, ylabel="log loss",
                             spread={"a": [0.1]})


def test_dependence_tree_draws_every_pair_and_the_tree_over_them():
    W = np.array([[0, 4, 1], [4, 0, 2], [1, 2, 0]], dtype=float)
    ax = plot_dependence_tree(["a", "b", "c"], W, [[0, 1], [1, 2]], root=1)
    pairs, tree = ax.lines[:3], ax.lines[3:]
    assert len(tree) == 2
    assert all(to_hex(line.get_color()) == COLORS["vermillion"].lower() for line in tree)
    widths = [line.get_linewidth() for line in pairs]
    assert widths[0] > widths[2] > widths[1]          # weights 4 (a-b), 2 (b-c), 1 (a-c)
    assert_array_equal([t.get_text() for t in ax.texts], ["a", "b", "c"])
    with pytest.raises(ValueError, match="edges must be 2 pairs of nodes 0..2"):
        plot_dependence_tree(["a", "b", "c"], W, [[0, 1]])
