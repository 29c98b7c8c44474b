"""Tests of the confusion matrix and the per-class scores of nbcourse.evaluation, with
scikit-learn's metrics as the oracle."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import metrics

from nbcourse.evaluation import class_scores, confusion_matrix


def labelled(seed, n=200, c=5, strings=False):
    rng = np.random.default_rng(seed)
    y = rng.choice(c, size=n, p=rng.dirichlet(np.ones(c)))
    pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, c, size=n))
    if strings:
        names = np.array(["Emma", "Persuasion", "Mansfield Park", "Sense", "Pride"][:c])
        return names[y], names[pred]
    return y, pred


@pytest.mark.parametrize("seed, strings", [(0, False), (1, True), (2, False)])
def test_the_confusion_matrix_is_scikit_learns(seed, strings):
    y, pred = labelled(seed, strings=strings)
    assert_array_equal(confusion_matrix(y, pred), metrics.confusion_matrix(y, pred))
    order = np.unique(y)[::-1]
    assert_array_equal(confusion_matrix(y, pred, labels=order),
                       metrics.confusion_matrix(y, pred, labels=order))


@pytest.mark.parametrize("seed", [0, 3, 4])
def test_per_class_and_averaged_scores_are_scikit_learns(seed):
    y, pred = labelled(seed)
    s = class_scores(y, pred)
    p, r, f, support = metrics.precision_recall_fscore_support(y, pred, zero_division=0)
    assert_allclose(s.precision, p)
    assert_allclose(s.recall, r)
    assert_allclose(s.f1, f)
    assert_array_equal(s.support, support)
    for average in ("macro", "micro"):
        p, r, f, _ = metrics.precision_recall_fscore_support(y, pred, average=average,
                                                             zero_division=0)
        assert getattr(s, average) == pytest.approx({"precision": p, "recall": r, "f1": f})
    assert s.micro["f1"] == pytest.approx(np.mean(y == pred))
    assert s.macro["recall"] == pytest.approx(metrics.balanced_accuracy_score(y, pred))


def test_a_class_never_predicted_has_precision_zero_and_pulls_the_macro_average_down():
    y = np.array([0] * 8 + [1] * 2)
    pred = np.zeros(10, dtype=int)
    s = class_scores(y, pred)
    assert s.precision.tolist() == [0.8, 0.0] and s.recall.tolist() == [1.0, 0.0]
    assert s.micro["f1"] == pytest.approx(0.8)
    assert s.macro["f1"] == pytest.approx((2 * 0.8 / 1.8) / 2)
    # a class listed with no case and no prediction scores 0 throughout
    s3 = class_scores(y, pred, labels=[0, 1, 2])
    assert s3.support.tolist() == [8, 2, 0] and s3.f1[2] == 0.0


@pytest.mark.parametrize("call, message", [
    (lambda: confusion_matrix([0, 1], [0]), "pred must have one label per entry of y"),
    (lambda: confusion_matrix([0, 2], [0, 1], labels=[0, 1]), "labels must include every label"),
    (lambda: confusion_matrix([0, 1], [0, 1], labels=[0, 1, 1]), "labels must be distinct"),
    (lambda: class_scores([], []), "y must be a non-empty 1-d array"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
