"""scikit-learn's own estimator test suite, ``check_estimator``, on the course's estimators.

Every check must pass, except those listed below with their reason: the checks that fit
``ProductOfBernoullisNB()`` on continuous data, which it refuses on purpose (with
``binarize=None`` it takes only a 0/1 table, so category codes are never read as bits).
The same estimator with ``binarize=0.0`` reads real numbers as ``BernoulliNB`` does, and
there every check passes.  A listed check must fail, and fail for the stated reason, so the
list cannot hide another fault or outlive the contract.
"""

import warnings

import pytest
from sklearn.base import is_classifier
from sklearn.naive_bayes import BernoulliNB
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
from sklearn.utils.estimator_checks import check_estimator

from nbcourse.discretisation import MDLDiscretiser
from nbcourse.gaussian import GaussianNB
from nbcourse.naive_bayes import CategoricalNB, FullJointNB, ProductOfBernoullisNB
from nbcourse.semi_naive import AveragedOneDependenceNB, SelectiveNB, TreeAugmentedNB
from nbcourse.text import ComplementNB, MultinomialNB, RennieTransformer

#: Why ProductOfBernoullisNB() fails a check: the check's data are not a 0/1 table.
ONLY_BITS = (
    "the check fits continuous X; ProductOfBernoullisNB(binarize=None) accepts only a 0/1 "
    "table and raises a ValueError for any other entry, so that category codes are never "
    "taken for bits (binarize=0.0 reads real numbers as BernoulliNB does and passes)"
)

#: The checks ProductOfBernoullisNB() fails because of ONLY_BITS (scikit-learn 1.9).
STRICT_BITS_FAILURES = {
    name: ONLY_BITS
    for name in (
        "check_classifier_data_not_an_array",
        "check_classifiers_classes",
        "check_classifiers_train",
        "check_dict_unchanged",
        "check_dont_overwrite_parameters",
        "check_dtype_object",
        "check_estimators_dtypes",
        "check_estimators_fit_returns_self",
        "check_estimators_nan_inf",
        "check_estimators_overwrite_params",
        "check_estimators_pickle",
        "check_f_contiguous_array_estimator",
        "check_fit2d_1feature",
        "check_fit2d_predict1d",
        "check_fit_check_is_fitted",
        "check_fit_idempotent",
        "check_fit_score_takes_y",
        "check_methods_sample_order_invariance",
        "check_methods_subset_invariance",
        "check_n_features_in",
        "check_n_features_in_after_fitting",
        "check_pipeline_consistency",
        "check_readonly_memmap_input",
        "check_supervised_y_2d",
    )
}

#: Skipped because of the environment, not the estimator (scikit-learn's own estimators
#: skip it too unless SCIPY_ARRAY_API=1 is set before scipy is imported).
ENVIRONMENT_SKIPS = {"check_array_api_input"}


def run_suite(estimator, expected_failed_checks=None):
    """All results of ``check_estimator``, never raising, as a list of dicts."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return check_estimator(
            estimator,
            expected_failed_checks=expected_failed_checks,
            on_fail=None,
            on_skip=None,
        )


def describe(results):
    """One line per result: status, check name and the first line of its exception."""
    lines = []
    for r in results:
        exc = r["exception"]
        detail = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0]}" if exc else ""
        lines.append(f"{r['status']:7} {r['check_name']}: {detail}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("estimator", "expected_failed_checks"),
    [
        (CategoricalNB(), {}),
        (CategoricalNB(alpha=0.5, n_values=200), {}),
        (FullJointNB(), {}),
        (ProductOfBernoullisNB(binarize=0.0), {}),
        (ProductOfBernoullisNB(), STRICT_BITS_FAILURES),
        (MultinomialNB(), {}),
        (GaussianNB(), {}),
        (GaussianNB(shared_variance=True), {}),
        (TreeAugmentedNB(), {}),
        (TreeAugmentedNB(alpha=0.5), {}),
        (AveragedOneDependenceNB(), {}),
        (AveragedOneDependenceNB(min_count=0), {}),
        (SelectiveNB(), {}),
        (SelectiveNB(criterion="error"), {}),
        (MDLDiscretiser(), {}),
        (ComplementNB(), {}),
        (ComplementNB(alpha=0.5, norm=True), {}),
        (RennieTransformer(), {}),
        (RennieTransformer(tf=False, idf=True, length=False), {}),
    ],
    ids=repr,
)
def test_check_estimator(estimator, expected_failed_checks):
    results = run_suite(estimator, expected_failed_checks)
    names = {r["check_name"] for r in results}
    least = 50 if is_classifier(estimator) else 40  # scikit-learn runs fewer on a transformer
    assert len(names) >= least, f"the suite ran only {len(names)} distinct checks"

    failed = [r for r in results if r["status"] == "failed"]
    assert not failed, "unexpected failures:\n" + describe(failed)

    skipped = [r for r in results if r["status"] == "skipped"]
    assert {r["check_name"] for r in skipped} <= ENVIRONMENT_SKIPS, describe(skipped)

    # every listed check ran, failed, and failed for the listed reason
    assert set(expected_failed_checks) <= names
    unexpected_passes = [
        r for r in results if r["check_name"] in expected_failed_checks and r["status"] != "xfail"
    ]
    assert not unexpected_passes, "listed but not failing:\n" + describe(unexpected_passes)
    for r in results:
        if r["status"] == "xfail":
            assert r["expected_to_fail_reason"] == ONLY_BITS
            # the refusal itself, or (check_fit2d_1feature) the check's assertion raised from it
            refusal = r["exception"] if isinstance(r["exception"], ValueError) else None
            refusal = refusal or r["exception"].__cause__
            assert isinstance(refusal, ValueError), describe([r])
            assert str(refusal).startswith("X must contain only 0 and 1; entry"), describe([r])


@pytest.mark.parametrize("estimator", [SkCategoricalNB(), BernoulliNB()], ids=repr)
def test_scikit_learns_own_discrete_naive_bayes_pass_the_same_suite(estimator):
    """The yardstick: scikit-learn's CategoricalNB and BernoulliNB fail no check."""
    results = run_suite(estimator)
    assert not [r for r in results if r["status"] == "failed"], describe(results)
