"""Figures of the recalibration chapter: what they draw, checked against the numbers behind them."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy.special import expit  # noqa: E402

import nbcourse  # noqa: E402
from nbcourse.plots import plot_calibration_maps, plot_reliability_at_temperature  # noqa: E402


@pytest.fixture
def scores():
    rng = np.random.default_rng(0)
    g = rng.normal(scale=3.0, size=400)
    y = (rng.uniform(size=400) > expit(g / 2)).astype(int)   # over-confident by a factor 2
    return g, y


def test_calibration_maps_draw_each_map_and_the_group_shares(scores):
    g, y = scores
    ax = plot_calibration_maps(g, y, {"T = 2": lambda t: expit(t / 2)}, n_bins=4)
    sigma, mapped, shares = ax.lines[:3]
    assert np.allclose(sigma.get_ydata(), expit(sigma.get_xdata()))
    assert np.allclose(mapped.get_ydata(), expit(mapped.get_xdata() / 2))
    order = np.argsort(g, kind="stable")
    expected = [np.mean(y[part] == 0) for part in np.array_split(order, 4)]
    assert np.allclose(shares.get_ydata(), expected)
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)
    plt.close(ax.figure)


def test_reliability_at_temperature_reports_log_loss_and_ece(scores):
    g, y = scores
    ax = plot_reliability_at_temperature(y, g, 2.0)
    z = g / 2
    proba = np.column_stack([expit(z), expit(-z)])
    rel = nbcourse.reliability_bins(y, proba)
    line = ax.lines[2]
    assert np.allclose(line.get_xdata(), rel.confidence)
    assert np.allclose(line.get_ydata(), rel.accuracy)
    assert f"log loss {nbcourse.log_loss(y, proba):.3f}" in line.get_label()
    assert f"ECE {nbcourse.expected_calibration_error(y, proba):.3f}" in line.get_label()
    plt.close(ax.figure)


def test_bad_arguments_are_named(scores):
    g, y = scores
    with pytest.raises(ValueError, match="temperature must be a finite number > 0"):
        plot_reliability_at_temperature(y, g, 0.0)
    with pytest.raises(TypeError, match="maps must be a mapping"):
        plot_calibration_maps(g, y, {"a": 1})
    with pytest.raises(ValueError, match="g must have one log odds per label"):
        plot_calibration_maps(g[:3], y, {"a": expit})
    with pytest.raises(ValueError, match="y must contain class codes 0 and 1"):
        plot_calibration_maps(g[:3], [0, 1, 2], {"a": expit})
