"""Tests of assignment 13: continuous features (Duda, Hart & Stork 2001, §2.6; Fayyad & Irani 1993).

Every expected value is computed here, in the grader's process: the estimates, the shared
variances and the discriminant by ``nbcourse.gaussian`` (``GaussianNB``, ``gaussian_discriminant``),
the posteriors from scipy's normal log density (an independent formula), the interval ends and
codes by scikit-learn's ``KBinsDiscretizer``, and the MDL test by
``nbcourse.discretisation.mdl_accepts``. Classes are 0-based codes, and ``theta`` and ``var`` have
shape (C, d).
"""

import numpy as np

from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    close,
    equal,
    has_form,
    student_id_is_set,
)

X_TRAIN = [[1.2, 0.4], [1.9, 0.8], [2.4, 0.3], [1.5, 1.1], [2.0, 0.6], [1.1, 0.9],
           [3.1, 1.9], [2.8, 2.6], [3.9, 2.2], [3.4, 1.7], [2.6, 2.9], [3.6, 2.4]]
Y_TRAIN = [0] * 6 + [1] * 6
X_Q2 = [2.5, 1.5]


def _fit(X, y, shared=False):
    from nbcourse.gaussian import GaussianNB  # scikit-learn is loaded only when grading

    return GaussianNB(alpha=0.0, shared_variance=shared).fit(X, y)


def _estimates(X, y):
    def expected():
        m = _fit(X, y)
        return m.theta_, m.var_

    return expected


def posterior(pi, theta, var, x):
    """P(c | x) from scipy's normal log density, normalised over the classes."""
    from scipy.stats import norm

    pi, theta, var, x = (np.asarray(a, dtype=float) for a in (pi, theta, var, x))
    joint = np.log(pi) + norm.logpdf(x, loc=theta, scale=np.sqrt(var)).sum(axis=1)
    return np.exp(joint - np.logaddexp.reduce(joint))


def _log_posterior(pi, theta, var, x):
    return lambda: np.log(posterior(pi, theta, var, x))


def _post_q2():
    m = _fit(X_TRAIN, Y_TRAIN)
    return posterior([0.5, 0.5], m.theta_, m.var_, X_Q2)


def _pooled(X, y):
    return lambda: _fit(X, y, shared=True).var_[0]


def _weights(theta, var, prior1):
    def expected():
        from nbcourse.gaussian import gaussian_discriminant

        _, w, w0 = gaussian_discriminant(theta, var, prior1)
        return w, w0

    return expected


def _weights_q3():
    m = _fit(X_TRAIN, Y_TRAIN, shared=True)
    return _weights(m.theta_, m.var_[0], 0.5)()


def _kbins(x, B, strategy):
    from sklearn.preprocessing import KBinsDiscretizer

    extra = {"quantile_method": "linear"} if strategy == "quantile" else {}
    return KBinsDiscretizer(n_bins=B, encode="ordinal", strategy=strategy, **extra).fit(
        np.asarray(x, dtype=float).reshape(-1, 1))


def _edges(x, B, strategy):
    return lambda: _kbins(x, B, strategy).bin_edges_[0]


def _codes(x, B, strategy):
    return lambda: _kbins(x, B, strategy).transform(np.asarray(x, float).reshape(-1, 1))[:, 0]


def _accepts(counts, left, right):
    def expected():
        from nbcourse.discretisation import mdl_accepts

        return mdl_accepts(counts, left, right)

    return expected


# --- q6: every student's own model (nbcourse.grading.variants) --------------------------------

def my_model(seed):
    """The priors, means, variances and case the notebook draws for a student's seed."""
    rng = np.random.default_rng(seed)
    my_pi = rng.dirichlet(np.ones(2) * 3)
    my_theta = rng.normal(0, 2, size=(2, 3))
    my_var = rng.uniform(0.5, 3.0, size=(2, 3))
    my_x = rng.normal(0, 2, size=3)
    return my_pi, my_theta, my_var, my_x


FIRST = [row[0] for row in X_TRAIN]

ASSIGNMENT = Assignment(
    name="13-continuous-features",
    title="Continuous features",
    questions=[
        Question("q1", "the estimates", 2, [
            Test("gaussian_estimates", Call("gaussian_estimates", X_TRAIN, Y_TRAIN, 2),
                 close(_estimates(X_TRAIN, Y_TRAIN))),
            Test("theta_q1", Value("theta_q1"), close(lambda: _fit(X_TRAIN, Y_TRAIN).theta_)),
            Test("var_q1", Value("var_q1"), close(lambda: _fit(X_TRAIN, Y_TRAIN).var_)),
        ]),
        Question("q2", "a posterior", 2, [
            Test("post_q2", Value("post_q2"), close(_post_q2)),
            Test("log posterior", Call("gaussian_log_posterior", [0.3, 0.7], [[0.0, 1.0], [2.0, 0.5]],
                                       [[1.0, 2.0], [0.5, 1.5]], [1.0, 1.0]),
                 close(_log_posterior([0.3, 0.7], [[0.0, 1.0], [2.0, 0.5]],
                                      [[1.0, 2.0], [0.5, 1.5]], [1.0, 1.0]))),
        ]),
        Question("q3", "shared variances and the linear discriminant", 2, [
            Test("pooled_variance", Call("pooled_variance", X_TRAIN, Y_TRAIN, 2),
                 close(_pooled(X_TRAIN, Y_TRAIN))),
            Test("linear_weights", Call("linear_weights", [[1.0, 5.0], [3.0, 4.0]], [2.0, 0.5], 0.4),
                 close(_weights([[1.0, 5.0], [3.0, 4.0]], [2.0, 0.5], 0.4))),
            Test("w_q3", Value("w_q3"), close(lambda: _weights_q3()[0])),
            Test("w0_q3", Value("w0_q3"), close(lambda: _weights_q3()[1])),
        ]),
        Question("q4", "intervals", 2, [
            Test("equal_width_edges", Call("equal_width_edges", FIRST, 4),
                 close(_edges(FIRST, 4, "uniform"))),
            Test("equal_frequency_edges", Call("equal_frequency_edges", FIRST, 3),
                 close(_edges(FIRST, 3, "quantile"))),
            Test("codes_q4", Value("codes_q4"), close(_codes(FIRST, 3, "quantile"))),
        ]),
        Question("q5", "does a cut pay for itself?", 2, [
            Test("accept_small", Value("accept_small"), equal(_accepts([10, 10], [8, 2], [2, 8]))),
            Test("accept_large", Value("accept_large"),
                 equal(_accepts([30, 30], [24, 6], [6, 24]))),
        ]),
        Question("q6", "your own tumour", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_post: form", Value("my_post"), has_form("my_post", (2,), 0, 1), weight=0.5),
        ]),
    ],
)
