"""What the Part I figure functions draw: points, colours by decision, planes and curves."""

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from mpl_toolkits.mplot3d.art3d import Poly3DCollection
from numpy.testing import assert_allclose, assert_array_equal

from nbcourse.plots import (
    CLASS_COLORS,
    METHOD_COLORS,
    plane_in_cube,
    plot_cube_decisions,
    plot_cube_multiclass,
    plot_discriminant_panel,
    plot_empty_cells,
    plot_estimate_distribution,
    plot_estimation_error,
    plot_table_growth,
    plot_weight_bars,
    plot_weights_by_feature,
    plot_weights_vs_n,
)

# Duda, Hart & Stork (2001), Example 3: w_i = ln 4, w_0 = 3 ln 0.4 (first setting) and
# w_3 = 0, w_0 = 2 ln 0.4 (second setting, p_3 = q_3 = 0.5).
W_EX3 = np.full(3, np.log(4.0))
W0_EX3 = 3 * np.log(0.4)
W_EX3B = np.array([np.log(4.0), np.log(4.0), 0.0])
W0_EX3B = 2 * np.log(0.4)

CORNERS = np.array(list(itertools.product([0, 1], repeat=3)))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def corner_points(ax):
    """Map class label -> set of corner tuples drawn by a cube figure."""
    out = {}
    for coll in ax.collections:
        if coll.get_label().startswith("decide"):
            xs, ys, zs = coll._offsets3d
            out[coll.get_label()] = {
                (int(round(x)), int(round(y)), int(round(z))) for x, y, z in zip(xs, ys, zs, strict=True)
            }
            out[coll.get_label() + " colour"] = tuple(coll.get_facecolor()[0])
    return out


def planes(ax):
    return [c for c in ax.collections if isinstance(c, Poly3DCollection)]


# ----------------------------------------------------------------------------- plane_in_cube


def on_plane_and_in_cube(poly, w, w0):
    assert_allclose(poly @ np.asarray(w) + w0, 0.0, atol=1e-9)
    assert np.all(poly >= -1e-12) and np.all(poly <= 1 + 1e-12)


def test_example3_plane_is_a_hexagon_near_the_triangle_of_two_yes_answers():
    poly = plane_in_cube(W_EX3, W0_EX3)
    # x1 + x2 + x3 = 3 ln(2.5) / ln 4 = 1.983 lies between 1 and 2: a hexagon.
    assert poly.shape == (6, 3)
    on_plane_and_in_cube(poly, W_EX3, W0_EX3)


def test_plane_parallel_to_x3_is_a_vertical_rectangle():
    poly = plane_in_cube(W_EX3B, W0_EX3B)
    assert poly.shape == (4, 3)
    on_plane_and_in_cube(poly, W_EX3B, W0_EX3B)
    # Every vertex has x1 + x2 = 2 ln 2.5 / ln 4 and x3 in {0, 1}.
    assert_allclose(poly[:, 0] + poly[:, 1], 2 * np.log(2.5) / np.log(4.0))
    assert sorted(poly[:, 2].round(12).tolist()) == [0, 0, 1, 1]


def test_polygon_vertices_are_in_cyclic_order():
    # Consecutive edges of a convex polygon turn the same way: cross products share a sign.
    poly = plane_in_cube(W_EX3, W0_EX3)
    edges = np.roll(poly, -1, axis=0) - poly
    turns = np.cross(edges, np.roll(edges, -1, axis=0)) @ W_EX3
    assert np.all(turns > 0) or np.all(turns < 0)


@pytest.mark.parametrize(
    "w, w0, k",
    [
        ([1.0, 1.0, 1.0], -4.0, 0),  # misses the cube
        ([0.0, 0.0, 0.0], 1.0, 0),  # no plane at all
        ([1.0, 1.0, 1.0], 0.0, 1),  # touches the corner 000 only
        ([1.0, 1.0, 0.0], 0.0, 2),  # contains the edge x1 = x2 = 0
        ([1.0, 0.0, 0.0], -0.5, 4),  # the mid-square x1 = 1/2
        ([1.0, 0.0, 0.0], -1.0, 4),  # a face of the cube
        ([1.0, 1.0, 1.0], -1.0, 3),  # the triangle through 100, 010, 001
    ],
)
def test_plane_in_cube_special_positions(w, w0, k):
    poly = plane_in_cube(w, w0)
    assert poly.shape == (k, 3)
    if k:
        on_plane_and_in_cube(poly, w, w0)


def test_plane_in_cube_rejects_wrong_dimension():
    with pytest.raises(ValueError, match=r"w must have shape \(3,\)"):
        plane_in_cube([1.0, 1.0], 0.0)


# ----------------------------------------------------------------------------- cube figures


def test_example3_corners_coloured_by_the_sign_of_g():
    ax = plot_cube_decisions(W_EX3, W0_EX3)
    drawn = corner_points(ax)
    g = CORNERS @ W_EX3 + W0_EX3
    omega1 = {tuple(c) for c in CORNERS[g > 0]}
    omega2 = {tuple(c) for c in CORNERS[g <= 0]}
    # Two or more "yes" answers decide omega_1 (Duda, Example 3).
    assert omega1 == {(1, 1, 0), (1, 0, 1), (0, 1, 1), (1, 1, 1)}
    assert drawn["decide $\\omega_1$"] == omega1
    assert drawn["decide $\\omega_2$"] == omega2
    assert drawn["decide $\\omega_1$ colour"] == to_rgba(CLASS_COLORS[0])
    assert drawn["decide $\\omega_2$ colour"] == to_rgba(CLASS_COLORS[1])
    (plane,) = planes(ax)
    assert len(plane.get_paths()[0].vertices) >= 6


def test_second_setting_ignores_x3():
    ax = plot_cube_decisions(W_EX3B, W0_EX3B)
    drawn = corner_points(ax)
    assert drawn["decide $\\omega_1$"] == {(1, 1, 0), (1, 1, 1)}
    assert len(planes(ax)) == 1


def test_plane_that_misses_the_cube_is_not_drawn_and_is_reported():
    ax = plot_cube_decisions(W_EX3, W0_EX3 - 10)
    assert planes(ax) == []
    assert "does not cut the cube" in ax.get_title()
    assert corner_points(ax)["decide $\\omega_2$"] == {tuple(c) for c in CORNERS}


def test_cube_corners_are_drawn_over_the_plane_and_labelled_legibly():
    # A corner seen through the translucent plane must keep its class colour: depth sorting
    # is off and every corner marker is drawn after (above) the plane.
    ax = plot_cube_decisions(W_EX3, W0_EX3)
    assert ax.computed_zorder is False
    (plane,) = planes(ax)
    markers = [c for c in ax.collections if c.get_label().startswith("decide")]
    assert markers and all(m.get_zorder() > plane.get_zorder() for m in markers)
    # The eight corner labels name the corners (so no tick labels are needed) and are
    # at least 9 pt, legible when the figure is scaled to the text column.
    labels = {t.get_text(): t.get_fontsize() for t in ax.texts}
    assert set(labels) == {"".join(map(str, c)) for c in CORNERS}
    assert min(labels.values()) >= 9
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        assert [t.get_text() for t in axis.get_ticklabels()] == ["", ""]


def test_multiclass_corners_follow_argmax_and_the_tie_plane_is_drawn():
    W = np.array([[2.0, -1.0, 0.5], [-1.0, 2.0, 0.0], [0.0, 0.0, 1.5]])
    w0 = np.array([0.0, -0.2, -1.0])
    ax = plot_cube_multiclass(W, w0, pair=(0, 1))
    drawn = corner_points(ax)
    winners = np.argmax(CORNERS @ W.T + w0, axis=1)
    for c in range(3):
        expected = {tuple(x) for x in CORNERS[winners == c]}
        assert drawn.get(f"decide $\\omega_{c + 1}$", set()) == expected
    (plane,) = planes(ax)
    verts = plane.get_paths()[0].vertices  # projected, so check the source polygon instead
    assert len(verts) >= 3
    poly = plane_in_cube(W[0] - W[1], w0[0] - w0[1])
    on_plane_and_in_cube(poly, W[0] - W[1], w0[0] - w0[1])


def test_multiclass_bad_pair():
    with pytest.raises(ValueError, match="pair must name two different classes"):
        plot_cube_multiclass(np.eye(3), np.zeros(3), pair=(1, 1))


def test_panel_bars_are_the_weights_and_bias():
    fig = plot_discriminant_panel(W_EX3B, W0_EX3B)
    heights = [p.get_height() for p in fig.axes[1].patches]
    assert_allclose(heights, [np.log(4), np.log(4), 0.0, 2 * np.log(0.4)])
    assert fig.axes[0].name == "3d"


# ----------------------------------------------------------------------------- sparsity figures


def test_table_growth_lines_are_v_to_the_d_and_d_times_v_minus_1():
    ax = plot_table_growth(12, (2, 5))
    d = np.arange(1, 13)
    assert_array_equal(ax.lines[0].get_ydata(), 2.0**d)
    assert_array_equal(ax.lines[1].get_ydata(), d * 1.0)
    assert_array_equal(ax.lines[2].get_ydata(), 5.0**d)
    assert_array_equal(ax.lines[3].get_ydata(), 4.0 * d)
    assert ax.get_yscale() == "log"


def test_empty_cells_markers_and_closed_form_curve():
    N = np.array([4, 16, 64])
    frac = np.array([[0.5, 0.1, 0.0], [0.9, 0.7, 0.3]])
    ax = plot_empty_cells(N, frac, [8, 64])
    assert_array_equal(ax.lines[0].get_ydata(), frac[0])
    assert_array_equal(ax.lines[2].get_ydata(), frac[1])
    x, y = ax.lines[3].get_data()
    assert_allclose(y, (1 - 1 / 64) ** x, rtol=1e-12)
    assert x[0] == 4 and x[-1] == 64


def test_empty_cells_shape_check():
    with pytest.raises(ValueError, match=r"empty_fraction must have shape"):
        plot_empty_cells([1, 2], [[0.5]], [4])


# ----------------------------------------------------------------------------- estimation figures


def test_weights_vs_n_medians_and_truth():
    N = [10, 100, 1000]
    rng = np.random.default_rng(0)
    w_nb = rng.normal(size=(3, 5, 2))
    w_lr = rng.normal(size=(3, 5, 2))
    ax = plot_weights_vs_n(N, w_nb, w_lr, [0.7, -0.3])
    assert_allclose(ax.lines[0].get_ydata(), np.median(w_nb[:, :, 0], axis=1))
    assert_allclose(ax.lines[1].get_ydata(), np.median(w_lr[:, :, 0], axis=1))
    assert_allclose(ax.lines[2].get_ydata(), [0.7, 0.7])  # axhline
    assert_allclose(ax.lines[5].get_ydata(), [-0.3, -0.3])
    assert ax.get_xscale() == "log"


def test_weights_vs_n_shape_check():
    with pytest.raises(ValueError, match="w_nb must have shape"):
        plot_weights_vs_n([10, 100], [[1.0, 2.0]] * 2, [[1.0, 2.0]] * 2, [1.0])


def test_weights_by_feature_one_panel_per_weight_with_medians_and_truth():
    N = [10, 100, 1000]
    rng = np.random.default_rng(1)
    truth = np.array([1.79, 0.41, -1.02, 1.95])
    w_nb = truth + rng.normal(size=(3, 5, 4))
    w_lr = truth + rng.normal(size=(3, 5, 4))
    fig = plot_weights_by_feature(N, w_nb, w_lr, truth)
    assert len(fig.axes) == 4
    for j, ax in enumerate(fig.axes):
        nb_line, lr_line, true_line = ax.lines[:3]
        assert_allclose(nb_line.get_ydata(), np.median(w_nb[:, :, j], axis=1))
        assert_allclose(lr_line.get_ydata(), np.median(w_lr[:, :, j], axis=1))
        assert_allclose(true_line.get_ydata(), [truth[j], truth[j]])
        assert to_rgba(nb_line.get_color()) == to_rgba(METHOD_COLORS["naive Bayes"])
        assert to_rgba(lr_line.get_color()) == to_rgba(METHOD_COLORS["logistic regression"])
        assert lr_line.get_linestyle() == "--"
        assert ax.get_title() == f"$w_{j + 1}$"
        assert ax.get_xscale() == "log"
        lo, hi = ax.get_ylim()
        assert lo < truth[j] < hi
    # Each panel has its own y range: w_1 and w_4, about 0.16 apart, no longer share an axis.
    assert fig.axes[0].get_ylim() != fig.axes[3].get_ylim()
    # Two interquartile bands per panel.
    assert all(len(ax.collections) == 2 for ax in fig.axes)


def test_weights_by_feature_odd_count_and_checks():
    fig = plot_weights_by_feature([10, 100], [[1.0, 2.0, 3.0]] * 2, [[1.0, 2.0, 3.0]] * 2,
                                  [1.0, 2.0, 3.0], ncols=2)
    assert len(fig.axes) == 3  # the unused fourth slot is removed
    # The panel above the empty slot shows its x tick labels.
    assert fig.axes[1].get_xlabel() and fig.axes[2].get_xlabel()
    with pytest.raises(ValueError, match="w_nb must have shape"):
        plot_weights_by_feature([10, 100], [[1.0, 2.0]] * 2, [[1.0, 2.0]] * 2, [1.0])
    with pytest.raises(ValueError, match="ncols must be an integer >= 1"):
        plot_weights_by_feature([10], [[1.0]], [[1.0]], [1.0], ncols=0)


def test_weight_bars_heights_and_groups():
    ax = plot_weight_bars({"truth": [1.0, 0.0], "naive Bayes": [1.1, 1.0], "LR": [0.5, 0.4]})
    assert len(ax.containers) == 3
    assert_allclose([b.get_height() for b in ax.containers[1]], [1.1, 1.0])
    # Bars of one feature sit side by side, centred on the tick.
    centres = [b.get_x() + b.get_width() / 2 for c in ax.containers for b in c][::2]
    assert_allclose(np.mean(centres), 0.0, atol=1e-12)


def test_weight_bars_reject_ragged_input():
    with pytest.raises(ValueError, match="same length"):
        plot_weight_bars({"a": [1.0], "b": [1.0, 2.0]})


def test_estimation_error_markers_lines_and_mark():
    ax = plot_estimation_error([5, 50], {"MLE": [0.04, 0.004], "Laplace": [0.03, 0.0039]},
                               expected={"MLE": [0.05, 0.005], "Laplace": [0.03, 0.004]},
                               mark=50)
    assert_allclose(ax.lines[0].get_ydata(), [0.04, 0.004])
    assert_allclose(ax.lines[1].get_ydata(), [0.05, 0.005])
    assert_allclose(ax.lines[2].get_ydata(), [0.03, 0.0039])
    assert_allclose(ax.lines[4].get_xdata(), [50, 50])
    with pytest.raises(ValueError, match="same keys"):
        plot_estimation_error([5], {"MLE": [0.1]}, expected={"x": [0.1]})


def test_estimate_distribution_histograms_and_extreme_share():
    ml = np.array([0.0, 0.0, 0.2, 0.4, 1.0])
    lap = np.array([0.1, 0.1, 0.25, 0.4, 0.9])
    ax = plot_estimate_distribution({"ML": ml, "Laplace": lap}, 0.3, bins=10)
    assert [p.get_label() for p in ax.patches] == ["ML (60% at 0 or 1)", "Laplace (0% at 0 or 1)"]
    # The step outline of the first histogram reaches the share in the fullest bin, 2/5.
    assert np.isclose(ax.patches[0].get_path().vertices[:, 1].max(), 0.4)
    assert_allclose(ax.lines[-1].get_xdata(), [0.3, 0.3])
    # With a shorter range, values above xmax land in the last bin; shares still sum to 1.
    ax = plot_estimate_distribution({"ML": ml}, 0.3, bins=4, xmax=0.4)
    # Step outline: y = 0, h0, h0, h1, h1, ...; bins [0, .1), [.1, .2), [.2, .3), [.3, .4].
    heights = ax.patches[0].get_path().vertices[1:9:2, 1]
    assert_allclose(heights, [0.4, 0.0, 0.2, 0.4])
    assert np.isclose(ax.get_xlim()[1], 0.408)
    with pytest.raises(ValueError, match="xmax must satisfy"):
        plot_estimate_distribution({"ML": ml}, 0.3, xmax=0.0)
    with pytest.raises(ValueError, match=r"estimates\['x'\] must be"):
        plot_estimate_distribution({"x": [1.5]}, 0.5)


def test_figures_have_white_backgrounds():
    for ax in (plot_table_growth(3), plot_cube_decisions(W_EX3, W0_EX3)):
        assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)
