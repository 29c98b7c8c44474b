"""Tests of nbcourse.smoothing: exact fractions, the Dirichlet and Beta posterior means,
scikit-learn's CategoricalNB and BernoulliNB as oracles, and the cross-validation over alpha."""

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.naive_bayes import BernoulliNB
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

from nbcourse.datasets import hair_eye_color, titanic
from nbcourse.encoding import one_hot
from nbcourse.model_selection import cross_validate_alpha, cross_validate_models
from nbcourse.smoothing import (
    bernoulli_smoothed,
    lidstone,
    log_bernoulli_smoothed,
    log_lidstone,
    pob_bit_probabilities,
)


def _frac_lidstone(counts, alpha):
    alpha = Fraction(alpha)
    total = sum(counts) + len(counts) * alpha
    return [(Fraction(c) + alpha) / total for c in counts]


# ------------------------------------------------------------------ exact values
@pytest.mark.parametrize("counts, alpha", [([3, 1, 0], 1), ([5, 0, 0, 2], Fraction(1, 2)),
                                           ([7, 2], 0), ([0, 0, 4], 3)])
def test_lidstone_equals_exact_fractions(counts, alpha):
    expected = [float(f) for f in _frac_lidstone(counts, alpha)]
    assert_allclose(lidstone(counts, float(alpha)), expected, rtol=1e-15)
    assert_allclose(np.exp(log_lidstone(counts, float(alpha))), expected, rtol=1e-14)


def test_lidstone_by_hand_laplace():
    # (3+1, 1+1, 0+1) / (4 + 3) = 4/7, 2/7, 1/7
    assert_allclose(lidstone([3, 1, 0], 1.0), [4 / 7, 2 / 7, 1 / 7], rtol=1e-15)


def test_lidstone_is_the_dirichlet_posterior_mean():
    counts, alpha = np.array([4.0, 0.0, 9.0, 1.0]), 0.7
    assert_allclose(lidstone(counts, alpha), stats.dirichlet(counts + alpha).mean(), rtol=1e-14)


def test_bernoulli_is_the_beta_posterior_mean_and_lidstone_with_two_values():
    n_on, n, alpha = np.array([0.0, 2.0, 5.0]), 5.0, 1.5
    beta_mean = stats.beta(n_on + alpha, n - n_on + alpha).mean()
    assert_allclose(bernoulli_smoothed(n_on, n, alpha), beta_mean, rtol=1e-14)
    two = lidstone(np.stack([n_on, n - n_on], axis=-1), alpha)[:, 0]
    assert_allclose(bernoulli_smoothed(n_on, n, alpha), two, rtol=1e-15)


def test_bernoulli_exact_fractions_and_complement():
    # (1 + 1/2) / (4 + 1) = 3/10 and (3 + 1/2) / 5 = 7/10
    on, off = log_bernoulli_smoothed(1, 4, 0.5)
    assert_allclose([np.exp(on), np.exp(off)], [0.3, 0.7], rtol=1e-15)
    assert float(bernoulli_smoothed(1, 4, 0.5)) == float(Fraction(3, 10))


def test_alpha_zero_gives_exact_zero_without_warning():
    with np.errstate(all="raise"):
        assert log_lidstone([2, 0], 0.0)[1] == -np.inf
        on, off = log_bernoulli_smoothed([0, 3], 3, 0.0)
    assert on[0] == -np.inf and off[1] == -np.inf and on[1] == 0.0


def test_pob_bits_do_not_sum_to_one_and_differ_from_theta():
    counts, alpha = [3, 1, 0], 1.0
    bits = pob_bit_probabilities(counts, alpha)
    exact = [(Fraction(c) + 1) / (4 + 2) for c in counts]  # (N_j + α) / (n + 2α)
    assert_allclose(bits, [float(f) for f in exact], rtol=1e-15)
    assert bits.sum() == pytest.approx(float(Fraction(7, 6)), rel=1e-15)  # (n + Kα) / (n + 2α)
    assert (bits > lidstone(counts, alpha)).all()


def test_pob_bits_equal_theta_without_smoothing_and_for_two_values():
    assert_allclose(pob_bit_probabilities([[3, 1, 2], [0, 4, 4]], 0.0),
                    lidstone([[3, 1, 2], [0, 4, 4]], 0.0), rtol=1e-15)
    assert_allclose(pob_bit_probabilities([5, 2], 2.0), lidstone([5, 2], 2.0), rtol=1e-15)


def test_leading_axes_broadcast():
    counts = np.arange(24.0).reshape(2, 3, 4)
    out = lidstone(counts, 0.5)
    assert out.shape == (2, 3, 4)
    assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-15)
    assert_allclose(out[1, 2], lidstone(counts[1, 2], 0.5), rtol=1e-15)


# ------------------------------------------------------------------ scikit-learn as oracle
@pytest.mark.parametrize("alpha", [0.1, 1.0, 2.5])
def test_log_lidstone_matches_sklearn_categorical_nb(alpha):
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(60, 2))
    X[0] = 3  # every value present, so scikit-learn sees four categories per feature
    y = rng.integers(0, 3, size=60)
    sk = SkCategoricalNB(alpha=alpha, force_alpha=True).fit(X, y)
    for i in range(2):
        counts = np.array([np.bincount(X[y == c, i], minlength=4) for c in range(3)])
        assert_allclose(log_lidstone(counts, alpha), sk.feature_log_prob_[i], rtol=1e-12)


@pytest.mark.parametrize("alpha", [0.1, 1.0, 2.5])
def test_pob_bits_match_sklearn_bernoulli_nb_on_one_hot(alpha):
    X, y = hair_eye_color().to_rows(target="Hair")
    eye = X[:, :1]
    sk = BernoulliNB(alpha=alpha, force_alpha=True).fit(one_hot(eye), y)
    counts = np.array([np.bincount(eye[y == c, 0], minlength=4) for c in range(4)])
    assert_allclose(np.log(pob_bit_probabilities(counts, alpha)), sk.feature_log_prob_, rtol=1e-12)
    on, _ = log_bernoulli_smoothed(counts, counts.sum(axis=1, keepdims=True), alpha)
    assert_allclose(on, sk.feature_log_prob_, rtol=1e-12)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("call, message", [
    (lambda: lidstone([1, -1], 1.0), "counts must contain finite counts >= 0"),
    (lambda: lidstone([1, np.inf], 1.0), "counts must contain finite counts >= 0"),
    (lambda: lidstone(3, 1.0), "counts must be an array of counts"),
    (lambda: lidstone([0, 0], 0.0), "counts must have a positive total when alpha = 0"),
    (lambda: lidstone([1, 2], -1.0), "alpha must be"),
    (lambda: bernoulli_smoothed(4, 3, 1.0), "n_on must be at most n"),
    (lambda: bernoulli_smoothed([1, 2], [3, 4, 5], 1.0), "n must broadcast against n_on"),
    (lambda: bernoulli_smoothed(0, 0, 0.0), "n must have a positive total when alpha = 0"),
    (lambda: bernoulli_smoothed(1, -2, 1.0), "n must contain finite counts >= 0"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_alpha_of_wrong_type():
    with pytest.raises(TypeError, match="alpha"):
        lidstone([1, 2], True)


# ------------------------------------------------------------------ choosing alpha
def test_cross_validate_alpha_reproduces_cross_validate_models():
    X, y = titanic().to_rows(target="Survived")
    path = cross_validate_alpha(X, y, [0.5, 4.0], n_splits=5, seed=2)
    for k, a in enumerate((0.5, 4.0)):
        summary = cross_validate_models(X, y, alpha=a, n_splits=5, seed=2).summary()
        for model in ("categorical", "pob"):
            assert path.scores[model]["log_loss"][k] == summary[model]["log_loss"]
            assert path.overconfidence(model)[k] == pytest.approx(
                summary[model]["mean_confidence"] - summary[model]["accuracy"], abs=1e-15)
    assert path.fold_log_loss["pob"].shape == (2, 5)
    assert path.best_alpha("categorical") in (0.5, 4.0)


def test_cross_validate_alpha_best_is_the_argmin_and_seed_fixes_the_folds():
    X, y = hair_eye_color().to_rows(target="Hair")
    grid = [0.01, 1.0, 100.0]
    a = cross_validate_alpha(X, y, grid, n_splits=5, seed=np.random.SeedSequence(4))
    b = cross_validate_alpha(X, y, grid, n_splits=5, seed=np.random.SeedSequence(4))
    assert_array_equal(a.scores["pob"]["log_loss"], b.scores["pob"]["log_loss"])
    losses = a.scores["pob"]["log_loss"]
    assert a.best_alpha("pob") == grid[int(np.argmin(losses))]
    with pytest.raises(ValueError, match="model must be"):
        a.best_alpha("bernoulli")


def test_cross_validate_alpha_refuses_a_bad_grid():
    X, y = titanic().to_rows(target="Survived")
    with pytest.raises(ValueError, match="alphas must be a non-empty 1-d"):
        cross_validate_alpha(X, y, [], n_splits=5)
    with pytest.raises(ValueError, match="alphas must be"):
        cross_validate_alpha(X, y, [1.0, -2.0], n_splits=5)


# ------------------------------------------------------------------ figures
def test_plot_smoothed_estimates_draws_the_closed_forms():
    import matplotlib.pyplot as plt

    from nbcourse.plots.smoothing import plot_smoothed_estimates

    ax = plot_smoothed_estimates([6, 2, 0, 0], 2.0, values="abcd")
    cat = [b.get_height() for b in ax.containers[0]]
    pob = [b.get_height() for b in ax.containers[1]]
    assert_allclose(cat, [8 / 16, 4 / 16, 2 / 16, 2 / 16], rtol=1e-15)  # (N_j + 2) / (8 + 8)
    assert_allclose(pob, [8 / 12, 4 / 12, 2 / 12, 2 / 12], rtol=1e-15)  # (N_j + 2) / (8 + 4)
    assert_allclose(ax.lines[0].get_ydata(), [0.75, 0.25, 0, 0])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("categorical") and "sum 1.000" in t for t in labels)
    assert any(t.startswith("PoB") and "sum 1.333" in t for t in labels)
    assert any("$N_{vc} / N_c$" in t for t in labels)  # the notation page's counts
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcd")
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="counts must be a 1-d array"):
        plot_smoothed_estimates([0, 0], 1.0)
    with pytest.raises(ValueError, match="values must name the 3 values"):
        plot_smoothed_estimates([1, 2, 3], 1.0, values=["a", "b"])


def test_plot_smoothing_path_marks_the_best_alpha():
    import matplotlib.pyplot as plt

    from nbcourse.plots.smoothing import plot_smoothing_path

    ax = plot_smoothing_path([0.1, 1.0, 10.0], {"categorical": [3, 1, 2], "PoB": [5, 4, 2]},
                             ylabel="log loss", best={"categorical": 1.0, "PoB": 10.0})
    assert ax.get_xscale() == "log"
    assert [line.get_label() for line in ax.lines[:2]] == ["categorical", "PoB"]
    assert ax.lines[2].get_xydata().tolist() == [[1.0, 1.0]]
    assert ax.lines[3].get_xydata().tolist() == [[10.0, 2.0]]
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="alphas must be a non-empty 1-d array of finite numbers > 0"):
        plot_smoothing_path([0.0, 1.0], {"a": [1, 2]}, ylabel="y")
    with pytest.raises(ValueError, match=r"curves\['a'\] must have shape \(2,\)"):
        plot_smoothing_path([0.5, 1.0], {"a": [1, 2, 3]}, ylabel="y")
    with pytest.raises(ValueError, match=r"best\['a'\] must be an alpha of the grid"):
        plot_smoothing_path([0.5, 1.0], {"a": [1, 2]}, ylabel="y", best={"a": 3.0})
