"""The §3 comparison with several categorical features (Williams 2024, §4).

The paper's experiments use a single categorical feature.  Its discussion says
that with several one-hot encoded features the change from ``theta_jc/theta_jd``
to ``f_j(theta_c)/f_j(theta_d)`` multiplies up across features.
:func:`simulate_several_features` measures that claim: it samples naive Bayes
classifiers with ``F`` categorical features by the §3 protocol, draws labelled
cases from each, and scores both the categorical posterior and the
product-of-Bernoullis (PoB) posterior that one-hot encoding every feature
produces.  Maximum posteriors are compared exactly, through the log losing mass,
as in the single-feature engine.

Examples
--------
>>> s = simulate_several_features(3, 4, 1.0, n_classifiers=50, n_cases=20, seed=0)
>>> rate, lower, upper = s.rate("pob_higher")
>>> bool(lower <= rate <= upper)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._logspace import log1m_exp, log_losing_mass, log_normalise
from .._validation import as_generator, check_int, check_n_categories, check_positive
from ..bounds import log_q_minus_from_terms
from .comparison import clustered_rate
from .draws import PAPER_C, sample_log_dirichlet

__all__ = ["FeatureSimulation", "simulate_several_features"]


@dataclass(frozen=True)
class FeatureSimulation:
    """Cases drawn from sampled naive Bayes classifiers with ``F`` categorical features.

    Attributes
    ----------
    n_features, K, alpha, C, prior_alpha : the simulation's parameters.
    log_pi : numpy.ndarray, shape (n_classifiers, C)
        Log class priors of the sampled classifiers.
    log_theta : numpy.ndarray, shape (n_classifiers, n_features, C, K)
        ``log theta[b, f, c, k] = log p(x_f = k | y = c)`` for classifier ``b``.
    x : numpy.ndarray of int, shape (n_classifiers, n_cases, n_features)
        Feature values of each case.
    y : numpy.ndarray of int, shape (n_classifiers, n_cases)
        True class of each case (drawn from the classifier's own model).
    post_categorical, post_pob : numpy.ndarray, shape (n_classifiers, n_cases, C)
        Posteriors under the categorical model (the true one) and under PoB.
    map_categorical, map_pob : numpy.ndarray of int, shape (n_classifiers, n_cases)
        MAP classes (first on ties), taken from the log joints.
    log_r_categorical, log_r_pob : numpy.ndarray, shape (n_classifiers, n_cases)
        ``log r`` with ``r`` the posterior mass of the other classes over the MAP
        class's, so the maximum posterior is ``1 / (1 + r)`` (see
        :func:`nbcourse._logspace.log_losing_mass`); comparisons of maximum
        posteriors use these, exactly, as the §3 experiments do.
    """

    n_features: int
    K: int
    alpha: float
    C: int
    prior_alpha: float
    log_pi: np.ndarray = field(repr=False)
    log_theta: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    post_categorical: np.ndarray = field(repr=False)
    post_pob: np.ndarray = field(repr=False)
    map_categorical: np.ndarray = field(repr=False)
    map_pob: np.ndarray = field(repr=False)
    log_r_categorical: np.ndarray = field(repr=False)
    log_r_pob: np.ndarray = field(repr=False)

    @property
    def map_disagree(self) -> np.ndarray:
        """bool (n_classifiers, n_cases): the two MAP classes differ."""
        return self.map_categorical != self.map_pob

    @property
    def pob_higher(self) -> np.ndarray:
        """bool (n_classifiers, n_cases): PoB's largest posterior strictly exceeds the categorical one.

        Compared exactly through ``log r`` (a smaller losing mass is a larger
        maximum posterior), so posteriors that both round to 1 are still told apart.
        """
        return self.log_r_pob < self.log_r_categorical

    def rate(self, name: str):
        """Fraction of cases with a property and a 95% interval over classifiers.

        Parameters
        ----------
        name : {"map_disagree", "pob_higher", "correct_categorical", "correct_pob"}

        Returns
        -------
        tuple (rate, lower, upper)
            The rate over all cases and its interval from :func:`clustered_rate`
            (cases from one classifier are not independent, so classifiers are
            the unit of replication).
        """
        return clustered_rate(self._per_case(name))

    def _per_case(self, name):
        table = {
            "map_disagree": lambda: self.map_disagree,
            "pob_higher": lambda: self.pob_higher,
            "correct_categorical": lambda: self.map_categorical == self.y,
            "correct_pob": lambda: self.map_pob == self.y,
        }
        if name not in table:
            raise ValueError(f"name must be one of {sorted(table)}, got {name!r}")
        return table[name]()

    def flat(self):
        """``(y, post_categorical, post_pob)`` with classifiers and cases merged: (N,), (N, C)."""
        C = self.C
        return (self.y.ravel(), self.post_categorical.reshape(-1, C),
                self.post_pob.reshape(-1, C))


def simulate_several_features(n_features, K, alpha, *, C=PAPER_C, n_classifiers=200, n_cases=50,
                              prior_alpha=1.0, seed=None) -> FeatureSimulation:
    """Score categorical and PoB naive Bayes on cases from classifiers with ``F`` features.

    Each classifier has prior ``pi ~ Dir(prior_alpha)`` over ``C`` classes and,
    for every feature ``f`` and class ``c``, ``theta[f, c] ~ Dir(alpha)`` over
    ``K`` values (the protocol of Williams 2024, §3, with ``F`` features instead
    of one).  ``n_cases`` labelled cases are drawn from each classifier's own
    (categorical) model.  For a case ``x`` the two log posteriors are, up to a
    constant,

    * categorical: ``log pi_c + sum_f log theta[f, c, x_f]`` (eq. 2 for F features);
    * PoB: the same plus ``sum_f log Q_c^{-x_f}(theta[f, c])`` (eqs. 3-4, one
      ``Q`` factor per one-hot encoded feature).

    Parameters
    ----------
    n_features : int
        Number of categorical features ``F >= 1``.
    K : int
        Values per feature, ``K >= 2``.
    alpha : float
        Dirichlet parameter of every ``theta`` vector (> 0).
    C : int, default 4
        Number of classes (the paper's value).
    n_classifiers, n_cases : int
        Sampled classifiers, and cases drawn from each.
    prior_alpha : float, default 1.0
        Dirichlet parameter of ``pi``.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The library's random-state convention (:func:`nbcourse._validation.check_seed`).

    Returns
    -------
    FeatureSimulation

    Examples
    --------
    >>> s = simulate_several_features(2, 3, 1.0, n_classifiers=5, n_cases=4, seed=0)
    >>> s.post_pob.shape
    (5, 4, 4)
    >>> bool(np.allclose(s.post_categorical.sum(-1), 1))
    True
    """
    F = check_int(n_features, "n_features", 1)
    K = check_n_categories(K)
    C = check_n_categories(C, "C")
    alpha = check_positive(alpha, "alpha")
    prior_alpha = check_positive(prior_alpha, "prior_alpha")
    B = check_int(n_classifiers, "n_classifiers", 1)
    N = check_int(n_cases, "n_cases", 1)
    rng = as_generator(seed)

    log_pi = sample_log_dirichlet(prior_alpha, C, (B,), seed=rng)
    log_theta = sample_log_dirichlet(alpha, K, (B, F, C), seed=rng)
    # draw labels, then each feature's value given the label (Gumbel-max in log space)
    y = np.argmax(log_pi[:, None, :] + rng.gumbel(size=(B, N, C)), axis=-1)
    lt_y = np.take_along_axis(log_theta[:, None], y[:, :, None, None, None], axis=3)[..., 0, :]
    x = np.argmax(lt_y + rng.gumbel(size=(B, N, F, K)), axis=-1)  # (B, N, F)

    # per feature and class: ln theta at the observed value and ln Q^{-x_f} (eq. 4)
    log_q = log_q_minus_from_terms(log1m_exp(log_theta))  # (B, F, C, K)
    at_x = np.broadcast_to(x[:, :, :, None, None], (B, N, F, C, 1))
    pick = lambda a: np.take_along_axis(  # noqa: E731
        np.broadcast_to(a[:, None], (B, N, F, C, K)), at_x, axis=4)[..., 0].sum(axis=2)
    joint_cat = log_pi[:, None, :] + pick(log_theta)  # (B, N, C)
    joint_pob = joint_cat + pick(log_q)
    map_cat, log_r_cat = log_losing_mass(joint_cat)
    map_pob, log_r_pob = log_losing_mass(joint_pob)
    return FeatureSimulation(F, K, alpha, C, prior_alpha, log_pi, log_theta, x, y,
                             np.exp(log_normalise(joint_cat)), np.exp(log_normalise(joint_pob)),
                             map_cat, map_pob, log_r_cat, log_r_pob)
