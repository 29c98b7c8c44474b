"""Tests of nbcourse.semi_supervised (Nigam et al. 2000): scikit-learn's MultinomialNB with
sample weights as the oracle of an M-step, the MAP objective recomputed here from the fitted
parameters after every iteration, and a fixed point at convergence."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.special import logsumexp
from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB

from nbcourse.datasets import austen_passages
from nbcourse.naive_bayes import CategoricalNB
from nbcourse.semi_supervised import fit_semi_supervised
from nbcourse.text import MultinomialNB, build_vocabulary, count_matrix


@pytest.fixture(scope="module")
def passages():
    """Two labelled passages per novel and 120 unlabelled ones, over 300 words."""
    p = austen_passages()
    rng = np.random.default_rng(11)
    labelled = np.concatenate([rng.choice(np.flatnonzero(p.y == c), 2, replace=False)
                               for c in range(6)])
    rest = np.setdiff1d(np.arange(1500), labelled)
    unlabelled = rng.choice(rest, 120, replace=False)
    vocab = build_vocabulary([p.texts[i] for i in rest], max_size=300)
    X = count_matrix(p.texts, vocab).astype(float)
    return X[labelled], p.y[labelled], X[unlabelled]


def weighted_m_step(X_l, y_l, X_u, R, weight, alpha):
    """scikit-learn's fit with each unlabelled row repeated once per class, weighted λ r_jc."""
    C = R.shape[1]
    X = np.vstack([X_l] + [X_u] * C)
    y = np.concatenate([y_l] + [np.full(len(X_u), c) for c in range(C)])
    w = np.concatenate([np.ones(len(y_l))] + [weight * R[:, c] for c in range(C)])
    return SkMultinomialNB(alpha=alpha, force_alpha=True).fit(X, y, sample_weight=w)


def jll(model, X):
    return X @ model.feature_log_prob_.T + model.class_log_prior_


def map_objective(model, X_l, y_l, X_u, weight, alpha):
    """ℓ plus the log density of the Dirichlet(α + 1) prior, up to a constant."""
    labelled = jll(model, X_l)[np.arange(len(y_l)), y_l].sum()
    return (labelled + weight * logsumexp(jll(model, X_u), axis=1).sum()
            + alpha * model.feature_log_prob_.sum())


@pytest.mark.parametrize("weight", [1.0, 0.3])
def test_one_iteration_is_a_weighted_fit_to_the_labelled_models_posteriors(passages, weight):
    X_l, y_l, X_u = passages
    R = MultinomialNB(alpha=0.5).fit(X_l, y_l).predict_proba(X_u)
    fit = fit_semi_supervised(MultinomialNB(alpha=0.5), X_l, y_l, X_u, unlabeled_weight=weight,
                              max_iter=1)
    oracle = weighted_m_step(X_l, y_l, X_u, R, weight, 0.5)
    assert fit.n_iter == 1
    assert_allclose(fit.model.feature_log_prob_, oracle.feature_log_prob_, rtol=1e-10)
    assert_allclose(fit.model.class_log_prior_, oracle.class_log_prior_, rtol=1e-10)


@pytest.mark.parametrize("weight, alpha", [(1.0, 1.0), (0.3, 0.5)])
def test_every_iteration_raises_the_map_objective(passages, weight, alpha):
    X_l, y_l, X_u = passages
    values, recorded = [], None
    for t in range(1, 9):
        fit = fit_semi_supervised(MultinomialNB(alpha=alpha), X_l, y_l, X_u,
                                  unlabeled_weight=weight, max_iter=t, tol=1e-14)
        values.append(map_objective(fit.model, X_l, y_l, X_u, weight, alpha))
        ell = (jll(fit.model, X_l)[np.arange(len(y_l)), y_l].sum()
               + weight * logsumexp(jll(fit.model, X_u), axis=1).sum())
        assert fit.log_likelihood[-1] == pytest.approx(ell, rel=1e-10)
        recorded = fit.log_likelihood
    assert np.all(np.diff(values) >= -1e-9 * np.abs(values[:-1]))
    assert values[-1] > values[0]
    assert recorded.size == 9


def test_at_convergence_the_fit_is_a_fixed_point(passages):
    X_l, y_l, X_u = passages
    fit = fit_semi_supervised(MultinomialNB(), X_l, y_l, X_u, tol=1e-10, max_iter=500)
    assert fit.converged
    assert_allclose(fit.responsibilities, fit.model.predict_proba(X_u), atol=1e-12)
    again = weighted_m_step(X_l, y_l, X_u, fit.responsibilities, 1.0, 1.0)
    assert_allclose(again.feature_log_prob_, fit.model.feature_log_prob_, atol=1e-7)


def test_without_weight_the_unlabelled_cases_change_nothing(passages):
    X_l, y_l, X_u = passages
    fit = fit_semi_supervised(MultinomialNB(), X_l, y_l, X_u, unlabeled_weight=0.0)
    alone = MultinomialNB().fit(X_l, y_l)
    assert fit.n_iter == 0 and fit.converged
    assert_allclose(fit.model.feature_log_prob_, alone.feature_log_prob_, rtol=1e-12)
    assert_allclose(fit.model.class_log_prior_, alone.class_log_prior_, rtol=1e-12)


def test_the_model_given_is_cloned_not_fitted(passages):
    X_l, y_l, X_u = passages
    model = MultinomialNB()
    fit = fit_semi_supervised(model, X_l, y_l, X_u, max_iter=2)
    assert not hasattr(model, "classes_") and fit.model is not model


def test_categorical_codes_seen_only_in_unlabelled_rows_get_parameters():
    X_l, y_l = [[0, 1], [1, 0]], [0, 1]
    X_u = [[2, 1], [0, 2], [2, 2]]
    fit = fit_semi_supervised(CategoricalNB(alpha=1.0), X_l, y_l, X_u)
    assert fit.model.n_categories_.tolist() == [3, 3]
    assert fit.model.predict_proba([[2, 2]]).shape == (1, 2)


def test_two_clear_clusters_label_the_unlabelled_cases():
    X_l, y_l = [[5, 1, 0], [0, 1, 5]], ["a", "b"]
    X_u = [[4, 0, 0], [6, 1, 1], [0, 0, 3], [1, 2, 6]]
    fit = fit_semi_supervised(MultinomialNB(), X_l, y_l, X_u)
    assert fit.model.predict(X_u).tolist() == ["a", "a", "b", "b"]
    assert np.all(fit.responsibilities.max(axis=1) > 0.9)


@pytest.mark.parametrize("call, error, message", [
    (lambda: fit_semi_supervised(SkMultinomialNB(), [[1, 0]], [0], [[1, 1]]), TypeError,
     "model must be a naive Bayes estimator of nbcourse"),
    (lambda: fit_semi_supervised(MultinomialNB(), [[1, 0], [0, 1]], [0, 1], [[1, 1, 1]]),
     ValueError, "X_unlabeled: X must have 2 columns"),
    (lambda: fit_semi_supervised(MultinomialNB(), [[1, 0], [0, 1]], [0, 1], [[1, -1]]),
     ValueError, "X_unlabeled: X must contain non-negative"),
    (lambda: fit_semi_supervised(MultinomialNB(), [[1, 0], [0, 1]], [0, 0], [[1, 1]]),
     ValueError, "X_labeled: y must contain at least 2 distinct classes"),
    (lambda: fit_semi_supervised(MultinomialNB(), [[1, 0], [0, 1]], [0, 1], [[1, 1]],
                                 unlabeled_weight=-1), ValueError, "unlabeled_weight must be"),
    (lambda: fit_semi_supervised(MultinomialNB(), [[1, 0], [0, 1]], [0, 1], [[1, 1]], tol=0),
     ValueError, "tol must be a number > 0"),
])
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
