"""Tests for the Part II figure functions (nbcourse.plots: simplex, ratios, posteriors, reliability, sampling).

Each test checks what a figure draws against closed forms written out here
(Williams 2024, eqs. 8-10 and 13) or against values constructed by hand.
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
    plot_bounds,
    plot_discriminant_weights,
    plot_guarantee_region,
    plot_log_ratio_scatter,
    plot_max_posterior,
    plot_posteriors,
    plot_q_simplex,
    plot_q_star,
    plot_rate_curves,
    plot_reliability,
    plot_sampling_distribution,
    plot_sampling_grid,
    simplex_grid,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def centre_value(t, K):
    """Eq. 8 written out: [(K - 2 + t)/(K - 1)]**(K - 1)."""
    return ((K - 2 + t) / (K - 1)) ** (K - 1)


# ------------------------------------------------------------ simplex grid
@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_simplex_grid_tiles_the_triangle(n):
    bary, tri = simplex_grid(n)
    assert bary.shape == ((n + 1) * (n + 2) // 2, 3)
    assert_allclose(bary.sum(axis=1), 1.0)
    assert (bary >= 0).all()
    assert tri.shape == (n * n, 3)
    # in barycentric (a, b) coordinates the simplex has area 1/2 and each small triangle 1/(2 n^2)
    p = bary[:, :2]
    v1, v2 = p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]]
    areas = 0.5 * np.abs(v1[:, 0] * v2[:, 1] - v1[:, 1] * v2[:, 0])
    assert_allclose(areas, 1 / (2 * n * n))
    assert_allclose(areas.sum(), 0.5)


def test_simplex_grid_rejects_bad_n():
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        simplex_grid(0)


# ------------------------------------------------------------ Figure 1(a)
def _mesh_values_and_bary(ax):
    mesh = ax.collections[0]
    tri = mesh._triangulation
    xy = np.column_stack([tri.x, tri.y])
    # invert the map from (t1, t2, t3) to the plane: y = t3*sqrt(3)/2, x = t2 + t3/2
    t3 = xy[:, 1] / (np.sqrt(3) / 2)
    t2 = xy[:, 0] - t3 / 2
    t1 = 1 - t2 - t3
    return np.asarray(mesh.get_array()), np.column_stack([t1, t2, t3])


@pytest.mark.parametrize("theta_j", [0.0, 0.3])
def test_q_simplex_values_are_the_product_of_eq_4(theta_j):
    ax = plot_q_simplex(theta_j, n=12)
    q, bary = _mesh_values_and_bary(ax)
    assert q.shape == (91,)
    others = bary * (1 - theta_j)
    assert_allclose(q, np.prod(1 - others, axis=1), atol=1e-12)
    corners = np.isclose(bary.max(axis=1), 1.0)
    assert corners.sum() == 3
    assert_allclose(q[corners], theta_j, atol=1e-12)  # minimum theta_j at the corners
    assert_allclose(q.min(), theta_j, atol=1e-12)
    assert_allclose(q.max(), centre_value(theta_j, 4))  # n = 12 contains the centre
    centre = np.argmax(q)
    assert_allclose(bary[centre], [1 / 3] * 3)


def test_q_simplex_draws_tripcolor_with_colorbar():
    ax = plot_q_simplex(n=6)
    assert len(ax.figure.axes) == 2  # heat map and colour bar
    assert "Q^{-4}" in ax.get_title()
    with pytest.raises(ValueError, match="theta_j must be < 1"):
        plot_q_simplex(1.0)
    with pytest.raises(ValueError, match="theta_j"):
        plot_q_simplex(-0.1)


# ------------------------------------------------------------------ eq. 8
def test_q_star_curves_match_eq_8_and_lie_above_the_diagonal():
    ax = plot_q_star([3, 6])
    *curves, diag = ax.lines
    assert [c.get_label() for c in curves] == ["$K = 3$", "$K = 6$"]
    for K, line in zip([3, 6], curves, strict=True):
        t, q = line.get_data()
        assert_allclose(q, centre_value(t, K))
        assert (q[t < 1] > t[t < 1]).all()
        assert_allclose(q[-1], 1.0)
    assert_array_equal(diag.get_xdata(), diag.get_ydata())


# ------------------------------------------------------------ Figure 1(b)
@pytest.mark.parametrize("K", [3, 6, 10])
def test_bounds_curves_are_eqs_9_and_10(K):
    ax = plot_bounds(K)
    t, up = ax.lines[0].get_data()
    t2, low = ax.lines[1].get_data()
    assert_allclose(up, t * centre_value(t, K))
    assert_allclose(low, t2**2)
    assert (up >= low - 1e-15).all()
    assert_allclose([up[0], low[0], up[-1], low[-1]], [0, 0, 1, 1])


def test_bounds_band_lies_between_the_curves_and_is_in_the_legend():
    ax = plot_bounds(6)
    band = ax.collections[0]
    t, up = ax.lines[0].get_data()
    verts = band.get_paths()[0].vertices
    inside = (verts[:, 0] >= 0) & (verts[:, 0] <= 1)
    vx, vy = verts[inside, 0], verts[inside, 1]
    assert (vy >= vx**2 - 1e-12).all()
    assert (vy <= np.interp(vx, t, up) + 1e-12).all()
    assert vy.max() > 0.5  # the band spans the whole range, not a sliver
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert band.get_label() in legend
    assert legend[:2] == [ax.lines[0].get_label(), ax.lines[1].get_label()]
    # The book numbers equations its own way: no bare "eq. N" of the paper in the figure.
    assert not any("eq." in text for text in legend)


def test_bounds_marker_and_points():
    theta = np.array([[0.4, 0.6, 0, 0, 0, 0], [0.4, 0.12, 0.12, 0.12, 0.12, 0.12]])
    f = theta[:, 0] * np.prod(1 - theta[:, 1:], axis=1)
    ax = plot_bounds(6, theta_j=0.4, points=(theta[:, 0], f))
    seg = ax.collections[-1].get_segments()[0]
    assert_allclose(seg[:, 0], 0.4)
    assert_allclose(sorted(seg[:, 1]), [0.16, 0.4 * centre_value(0.4, 6)])
    dots = [c for c in ax.collections if len(c.get_offsets()) == 2]
    assert len(dots) == 1
    # the corner theta attains the lower bound, the centre theta the upper
    assert_allclose(dots[0].get_offsets()[:, 1], [0.16, 0.4 * centre_value(0.4, 6)])


# ------------------------------------------------------------------ eq. 13
@pytest.mark.parametrize("K", [2, 3, 6])
def test_guarantee_region_boundary_is_eq_13(K):
    ax = plot_guarantee_region(K)
    x, y = ax.lines[0].get_data()
    assert_allclose(y, centre_value(x, K))
    xm, ym = ax.lines[1].get_data()
    assert_array_equal(xm, y)
    assert_array_equal(ym, x)
    assert_array_equal(ax.lines[2].get_xdata(), ax.lines[2].get_ydata())


def test_points_in_guarantee_region_have_more_extreme_ratios():
    """Brute force: any theta_c, theta_d whose j-th entries lie above the curve give
    f_j(theta_c)/f_j(theta_d) > theta_jc/theta_jd, whatever their other entries."""
    K = 3
    rng = np.random.default_rng(1)
    tc, td = rng.dirichlet(np.ones(K), 4000), rng.dirichlet(np.ones(K), 4000)
    boundary_y = plot_guarantee_region(K).lines[0].get_data()
    inside = tc[:, 0] > np.interp(td[:, 0], *boundary_y)
    assert inside.sum() > 300
    f = lambda th: th[:, 0] * np.prod(1 - th[:, 1:], axis=1)  # noqa: E731
    ratio_f, ratio_theta = f(tc) / f(td), tc[:, 0] / td[:, 0]
    assert (ratio_f[inside] > ratio_theta[inside]).all()


def test_guarantee_region_legend_names_the_regions_without_equation_numbers():
    ax = plot_guarantee_region(3)
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend[:2] == ["guaranteed more extreme for $c$", "guaranteed more extreme for $c'$"]
    assert not any("eq." in text for text in legend)


def test_guarantee_region_scatter_is_split_into_three_changes():
    d, c = np.array([0.1, 0.2, 0.5, 0.4]), np.array([0.9, 0.25, 0.4, 0.45])
    ax = plot_guarantee_region(3, points=(d, c, np.array([1, 0, 0, -1])))
    more, weakened, reversed_ = ax.collections[-3:]
    assert_allclose(more.get_offsets(), [[0.1, 0.9]])
    assert_allclose(weakened.get_offsets(), [[0.2, 0.25], [0.5, 0.4]])
    assert_allclose(reversed_.get_offsets(), [[0.4, 0.45]])
    assert len({tuple(col.get_facecolor()[0]) for col in (more, weakened, reversed_)}) == 3
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend[-3:] == ["sampled: more extreme (1)", "sampled: weakened (2)",
                           "sampled: reversed (1)"]


def test_guarantee_region_rejects_flags_that_are_not_change_codes():
    d, c = np.array([0.1, 0.2]), np.array([0.9, 0.25])
    with pytest.raises(ValueError, match=r"points\[2\] must be codes of ratio_change"):
        plot_guarantee_region(3, points=(d, c, np.array([True, False])))
    with pytest.raises(ValueError, match=r"points\[2\] must be codes of ratio_change"):
        plot_guarantee_region(3, points=(d, c, np.array([2, 0])))
    with pytest.raises(ValueError, match="points must be three arrays of one shape"):
        plot_guarantee_region(3, points=(d, c, np.array([1])))


# ---------------------------------------------------------------- Figure 2
def test_log_ratio_scatter_lines_and_points():
    x = np.array([-2.0, -0.5, 0.5, 2.0])
    y = np.array([-4.0, -0.6, 0.6, 4.0])
    ax = plot_log_ratio_scatter(x, y)
    assert len(ax.collections) == 1
    assert_allclose(ax.collections[0].get_offsets(), np.column_stack([x, y]))
    slopes = [np.polyfit(*line.get_data(), 1)[0] for line in ax.lines]
    assert_allclose(slopes, [1.0, 2.0])
    assert len(plot_log_ratio_scatter(x, y, slope2=False).lines) == 1


def test_log_ratio_scatter_marks_changed_winners():
    # log rho = -1: categorical picks c when x > -1, PoB when y > -1
    x = np.array([-0.5, -0.5, 2.0, -3.0, -1.5])
    y = np.array([-0.2, -1.5, 4.0, -6.0, -0.5])
    ax = plot_log_ratio_scatter(x, y, log_rho=-1.0)
    agree, disagree = ax.collections
    assert_allclose(disagree.get_offsets(), [[-0.5, -1.5], [-1.5, -0.5]])
    assert len(agree.get_offsets()) == 3
    assert to_hex(disagree.get_facecolor()[0]) == COLORS["vermillion"].lower()
    assert_allclose(ax.lines[2].get_xdata(), -1.0)  # vertical threshold
    assert_allclose(ax.lines[3].get_ydata(), -1.0)  # horizontal threshold


def test_log_ratio_scatter_rejects_bad_input():
    with pytest.raises(ValueError, match="same length"):
        plot_log_ratio_scatter([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="finite"):
        plot_log_ratio_scatter([np.inf], [1.0])


# ---------------------------------------------------------------- Figure 3
def test_max_posterior_colours_by_agreement():
    mc = np.array([0.4, 0.5, 0.9, 0.35])
    mp = np.array([0.45, 0.6, 0.95, 0.3])
    agree = np.array([True, False, True, False])
    ax = plot_max_posterior(mc, mp, agree)
    blue, red = ax.collections
    assert_allclose(blue.get_offsets(), [[0.4, 0.45], [0.9, 0.95]])
    assert_allclose(red.get_offsets(), [[0.5, 0.6], [0.35, 0.3]])
    assert to_hex(blue.get_facecolor()[0]) == COLORS["blue"].lower()
    assert to_hex(red.get_facecolor()[0]) == COLORS["vermillion"].lower()
    assert_array_equal(ax.lines[0].get_xdata(), ax.lines[0].get_ydata())
    assert "(2)" in blue.get_label() and "(2)" in red.get_label()


def test_max_posterior_rejects_bad_input():
    with pytest.raises(TypeError, match="map_agree must be a boolean"):
        plot_max_posterior([0.5], [0.5], [1])
    with pytest.raises(ValueError, match="equal length"):
        plot_max_posterior([0.5, 0.6], [0.5], [True])
    with pytest.raises(ValueError, match="max_pob"):
        plot_max_posterior([0.5], [1.5], [True])


# -------------------------------------------------------------- posteriors
def test_posteriors_bars_and_disagreement_markers():
    pc = np.array([[0.6, 0.3, 0.1], [0.2, 0.45, 0.35], [0.1, 0.1, 0.8]])
    pp = np.array([[0.7, 0.2, 0.1], [0.2, 0.35, 0.45], [0.3, 0.4, 0.3]])
    ax = plot_posteriors(pc, pp)
    K, C = pc.shape
    bars = ax.patches[: 2 * K * C]
    heights = np.array([b.get_height() for b in bars]).reshape(2, C, K)
    assert_allclose(heights[0], pc.T)
    assert_allclose(heights[1], pp.T)
    # MAP classes: categorical (0, 1, 2), PoB (0, 2, 1): they part at x = 2 and x = 3
    assert_allclose(ax.collections[0].get_offsets()[:, 0], [1, 2])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["$x=1$", "$x=2$", "$x=3$"]


def test_posteriors_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r"shape \(K, C\)"):
        plot_posteriors([[0.5, 0.5]], [[0.5, 0.5], [0.2, 0.8]])
    with pytest.raises(ValueError, match="post_pob"):
        plot_posteriors([[0.5, 0.5]], [[0.5, 0.6]])


# ------------------------------------------------- weights, reliability, rates
def test_discriminant_weights_bars():
    ax = plot_discriminant_weights([-1.0, 0.5, 2.0], [-2.0, 1.5, 0.25],
                                   value_names=["a", "b", "c"])
    assert_allclose([p.get_height() for p in ax.patches], [-1.0, 0.5, 2.0, -2.0, 1.5, 0.25])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="equal length"):
        plot_discriminant_weights([1.0], [1.0, 2.0])


def test_reliability_lines_follow_the_bins():
    curves = {"categorical": ([0.4, 0.7], [0.38, 0.71], [10, 40]),
              "PoB": ([0.5, 0.9], [0.4, 0.75], [20, 30])}
    ax = plot_reliability(curves)
    assert_array_equal(ax.lines[0].get_xdata(), ax.lines[0].get_ydata())
    for line, (name, (conf, acc, _)) in zip(ax.lines[1:], curves.items(), strict=True):
        assert line.get_label() == name
        assert_allclose(line.get_xdata(), conf)
        assert_allclose(line.get_ydata(), acc)
    with pytest.raises(ValueError, match="equal shapes"):
        plot_reliability({"x": ([0.5], [0.5, 0.6], [1])})


def test_rate_curves_lines_and_bands():
    ax = plot_rate_curves([1, 2, 4], {"a": ([0.1, 0.2, 0.3], [0.0, 0.1, 0.2],
                                            [0.2, 0.3, 0.4])}, xlabel="F", ylabel="rate",
                          logx=True)
    assert_allclose(ax.lines[0].get_ydata(), [0.1, 0.2, 0.3])
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "F"
    with pytest.raises(ValueError, match="must match x"):
        plot_rate_curves([1, 2], {"a": ([0.1], [0.0], [0.2])}, xlabel="F", ylabel="r")


def test_every_figure_has_a_white_background():
    for ax in (plot_q_simplex(n=3), plot_bounds(), plot_guarantee_region(),
               plot_q_star()):
        assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)


def test_functions_draw_into_a_given_axes():
    fig, axes = plt.subplots(1, 2)
    assert plot_bounds(4, ax=axes[0]) is axes[0]
    assert plot_log_ratio_scatter([0.1], [0.2], ax=axes[1]) is axes[1]


def _figure_texts(ax):
    """Every piece of text a reader sees in ``ax``: title, axis labels and legend entries."""
    texts = [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
    legend = ax.get_legend()
    if legend is not None:
        texts += [text.get_text() for text in legend.get_texts()]
    return texts


def test_equation_numbers_in_figures_are_named_as_the_papers():
    """The book numbers its own equations: an equation number of the paper in a figure
    must say whose it is ("Williams' eq. 14"), never stand bare as "eq. 14"."""
    x, y = np.array([-1.0, 0.5]), np.array([-2.0, 1.0])
    mc, mp, agree = np.array([0.5, 0.6]), np.array([0.7, 0.55]), np.array([True, False])
    figures = {"log ratio scatter": plot_log_ratio_scatter(x, y, log_rho=0.2),
               "max posterior": plot_max_posterior(mc, mp, agree),
               "bounds": plot_bounds(6, theta_j=0.4),
               "guarantee region": plot_guarantee_region(3),
               "q star": plot_q_star()}
    mentions = {}
    for name, ax in figures.items():
        for text in _figure_texts(ax):
            for at in [i for i in range(len(text)) if text.startswith("eq.", i)]:
                mentions.setdefault(name, []).append(text)
                assert text[:at].endswith("Williams' "), f"{name}: bare equation number in {text!r}"
    # the labels that cite the paper still do, now by name
    assert mentions["log ratio scatter"] == ["slope 2 (Williams' eq. 14)"]
    assert mentions["max posterior"] == ["max posterior, categorical (Williams' eq. 2)",
                                         "max posterior, PoB (Williams' eq. 3)"]


# -------------------------------------------------- sampling distributions
def binomial_pmf(n, p):
    """Binomial(n, p) probabilities written out from the closed form."""
    from math import comb

    return np.array([comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


def test_sampling_distribution_draws_each_pmf_and_the_paper_value():
    fr = np.arange(11) / 10
    a, b = binomial_pmf(10, 0.3), binomial_pmf(10, 0.6)
    ax = plot_sampling_distribution({"reading A": (fr, a), "reading B": (fr, b)}, paper=0.45)
    assert [line.get_label() for line in ax.lines] == ["reading A", "reading B", "paper"]
    assert_allclose(ax.lines[0].get_xdata(), 100 * fr)
    assert_allclose(ax.lines[0].get_ydata(), a)
    assert_allclose(ax.lines[1].get_ydata(), b)
    assert ax.lines[0].get_drawstyle() == "steps-mid"
    assert_allclose(ax.lines[2].get_xdata(), [45.0, 45.0])
    assert to_hex(ax.lines[0].get_color()) == COLORS["blue"].lower()
    assert to_hex(ax.lines[1].get_color()) == COLORS["vermillion"].lower()
    # the view covers every fraction with probability > 1e-4 and the paper's value
    lo, hi = ax.get_xlim()
    visible = 100 * fr[(a > 1e-4) | (b > 1e-4)]
    assert lo < visible.min() and hi > visible.max()
    assert ax.get_legend() is not None


def test_sampling_distribution_view_reaches_a_far_paper_value():
    fr = np.arange(101) / 100
    ax = plot_sampling_distribution({"r": (fr, binomial_pmf(100, 0.2))}, paper=0.9)
    assert ax.get_xlim()[1] > 90.0
    assert ax.get_xlim()[0] < 100 * 0.2 - 10  # the bulk of the distribution stays in view


def test_sampling_distribution_rejects_bad_input():
    with pytest.raises(ValueError, match="at least one"):
        plot_sampling_distribution({})
    with pytest.raises(ValueError, match="equal length"):
        plot_sampling_distribution({"r": ([0.0, 1.0], [1.0])})
    with pytest.raises(ValueError, match="sum to 1"):
        plot_sampling_distribution({"r": ([0.0, 1.0], [0.2, 0.2])})
    with pytest.raises(ValueError, match="paper"):
        plot_sampling_distribution({"r": ([0.0, 1.0], [0.5, 0.5])}, paper=1.5)


def test_sampling_grid_lays_out_panels_with_one_legend():
    fr = np.arange(4) / 3
    panels = [{"curves": {"x": (fr, binomial_pmf(3, p))}, "paper": p, "title": f"p = {p}"}
              for p in (0.2, 0.4, 0.6, 0.8, 0.5)]
    fig = plot_sampling_grid(panels, ncols=3)
    assert len(fig.axes) == 5
    assert fig.get_facecolor() == (1.0, 1.0, 1.0, 1.0)
    assert [ax.get_title() for ax in fig.axes] == [p["title"] for p in panels]
    assert fig.axes[0].get_legend() is not None
    assert all(ax.get_legend() is None for ax in fig.axes[1:])
    for ax, p in zip(fig.axes, panels, strict=True):
        assert_allclose(ax.lines[-1].get_xdata(), [100 * p["paper"]] * 2)
    # two rows of three columns
    rows = {ax.get_subplotspec().rowspan.start for ax in fig.axes}
    assert rows == {0, 1}
    with pytest.raises(ValueError, match="missing"):
        plot_sampling_grid([{"curves": {"x": (fr, binomial_pmf(3, 0.5))}}])
    with pytest.raises(ValueError, match="ncols"):
        plot_sampling_grid(panels, ncols=0)
