"""Several classifiers on the same folds, each against a baseline (Nadeau & Bengio 2003)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from nbcourse import (
    CategoricalNB,
    FoldComparison,
    FullJointNB,
    compare_by_folds,
    fold_log_loss,
    fold_t_interval,
    out_of_fold_proba,
    stratified_folds,
)
from nbcourse.datasets import titanic


def test_scores_are_those_of_the_shared_folds():
    X, y = titanic().to_rows(target="Survived")
    models = {"nb": CategoricalNB(), "joint": FullJointNB()}
    cmp = compare_by_folds(models, X, y, n_splits=5, seed=3)
    fold = stratified_folds(y, 5, seed=3)
    assert_array_equal(cmp.fold, fold)
    for name, model in models.items():
        proba = out_of_fold_proba(model, X, y, fold)
        assert_allclose(cmp.proba[name], proba, rtol=0, atol=0)
        assert_allclose(cmp.log_loss[name], fold_log_loss(y, proba, fold), rtol=0, atol=0)
        wrong = proba.argmax(axis=1) != y
        assert_allclose(cmp.error[name], [wrong[fold == k].mean() for k in range(5)])
    assert (cmp.n_train, cmp.n_test) == (2201 - 440, 440)
    iv = cmp.interval("joint", "log_loss")
    expected = fold_t_interval(cmp.log_loss["joint"] - cmp.log_loss["nb"], n_train=1761,
                               n_test=440)
    assert iv == expected


def make(differences):
    """A comparison whose model "m" differs from the baseline "b" by ``differences``."""
    d = np.asarray(differences, dtype=float)
    base = np.full(d.size, 0.5)
    scores = {"b": base, "m": base + d}
    return FoldComparison(("b", "m"), "b", np.zeros(1, int), np.zeros(1, int), {}, scores,
                          scores, 90, 10)


@pytest.mark.parametrize(("differences", "verdict"), [
    ([-0.02, -0.03, -0.025, -0.02, -0.03], "beats"),
    ([0.02, 0.03, 0.025, 0.02, 0.03], "loses to"),
    ([-0.02, 0.03, -0.01, 0.02, 0.0], "ties with"),
])
def test_the_verdict_follows_the_corrected_interval(differences, verdict):
    cmp = make(differences)
    iv = fold_t_interval(differences, n_train=90, n_test=10)
    assert cmp.verdict("m") == verdict == cmp.verdict("m", "error")
    assert (iv.high < 0) == (verdict == "beats") and (iv.low > 0) == (verdict == "loses to")
    table = cmp.table()
    assert table.loc["m", "log loss verdict"] == verdict
    assert_allclose(table.loc["m", "log loss low"], iv.low)


def test_bad_arguments_are_refused_by_name():
    X, y = titanic().to_rows(target="Survived")
    with pytest.raises(ValueError, match="estimators must be a dict of at least two named"):
        compare_by_folds({"nb": CategoricalNB()}, X, y)
    with pytest.raises(ValueError, match="baseline must be one of"):
        compare_by_folds({"a": CategoricalNB(), "b": FullJointNB()}, X, y, baseline="c")
    cmp = make([0.1, 0.2, 0.1])
    with pytest.raises(ValueError, match="score must be 'log_loss' or 'error', got 'auc'"):
        cmp.verdict("m", "auc")
    with pytest.raises(ValueError, match="name must be one of"):
        cmp.interval("x")
