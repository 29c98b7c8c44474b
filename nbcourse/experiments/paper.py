"""Williams (2024) §3 as published: its values, our table beside them, where they fall, Figs. 2-3.

* :data:`PAPER_VALUES` -- the twelve reported percentages (six cells, two statistics);
* :func:`paper_table` -- our values for the six cells with intervals;
* :func:`locate_paper_values`, :func:`paper_consistency`,
  :func:`prior_alpha_evidence` -- where the paper's values fall in our sampling
  distributions at ``n = 100``, and which reading of the prior they favour;
* :func:`fig2_data`, :func:`fig3_data` -- the points of the paper's two figures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._logspace import logsumexp
from .._validation import as_generator, check_int, check_positive, check_seed
from ..bounds import log_q_minus_from_terms
from . import exact
from .comparison import compare_models, observation_comparison, sampling_distribution
from .draws import PAPER_C, PAPER_N, check_cell, engine_layout, iter_draws, log_gamma

__all__ = [
    "PAPER_VALUES",
    "Fig3Data",
    "PaperCell",
    "PaperTable",
    "fig2_data",
    "fig3_data",
    "locate_paper_values",
    "paper_consistency",
    "paper_table",
    "prior_alpha_evidence",
]


@dataclass(frozen=True)
class PaperCell:
    """One cell of Williams (2024) §3: ``K``, ``alpha`` and the two reported fractions.

    Attributes
    ----------
    K : int
        Number of values of the categorical feature.
    alpha_label : str
        ``"1"`` or ``"1/K"``, as in the paper.
    pob_higher, map_disagree : float
        The paper's fractions (percentages divided by 100).
    """

    K: int
    alpha_label: str
    pob_higher: float
    map_disagree: float

    @property
    def alpha(self) -> float:
        """The Dirichlet parameter ``alpha`` of the cell as a number."""
        return 1.0 if self.alpha_label == "1" else 1.0 / self.K


#: The six cells reported in Williams (2024) §3 (C = 4, n = 100 classifiers each).
PAPER_VALUES: tuple[PaperCell, ...] = (
    PaperCell(3, "1", 0.820, 0.1233),
    PaperCell(6, "1", 0.723, 0.0567),
    PaperCell(10, "1", 0.747, 0.0250),
    PaperCell(3, "1/K", 0.780, 0.1433),
    PaperCell(6, "1/K", 0.781, 0.0700),
    PaperCell(10, "1/K", 0.764, 0.0630),
)


@dataclass(frozen=True)
class PaperTable:
    """The six cells of Williams (2024) §3, the paper's values beside ours.

    Attributes
    ----------
    cells : tuple of PaperCell
        The paper's values (:data:`PAPER_VALUES`).
    results : tuple of ModelComparison
        Ours, in the same order.
    n, seed, prior_alpha
        The arguments used.
    """

    cells: tuple
    results: tuple
    n: int
    seed: object
    prior_alpha: object

    def rows(self) -> list[dict]:
        """One dict per cell: ``K``, ``alpha``, paper and our values, intervals, exclusions."""
        return [
            {
                "K": cell.K, "alpha": cell.alpha_label,
                "paper_pob_higher": cell.pob_higher, "pob_higher": r.pob_higher,
                "pob_higher_ci": r.pob_higher_ci,
                "paper_map_disagree": cell.map_disagree, "map_disagree": r.map_disagree,
                "map_disagree_ci": r.map_disagree_ci,
                "n_observations": r.n_observations, "n_excluded": r.n_excluded,
            }
            for cell, r in zip(self.cells, self.results, strict=True)
        ]

    def to_string(self) -> str:
        """The table as fixed-width text, percentages to two decimals."""
        level = round(100 * self.results[0].confidence)
        head = (f"{'K':>3} {'alpha':>5} | {'PoB higher (%)':^31} | {'MAP differs (%)':^31} | excluded\n"
                f"{'':>3} {'':>5} | {'paper':>6} {'ours':>7} {f'{level}% interval':>16} "
                f"| {'paper':>6} {'ours':>7} {f'{level}% interval':>16} |")
        lines = [head]
        for row in self.rows():
            lines.append(
                f"{row['K']:>3} {row['alpha']:>5} | {_pct(row['paper_pob_higher'])} "
                f"{_pct(row['pob_higher'], 7)} {_pct_ci(row['pob_higher_ci'])} | "
                f"{_pct(row['paper_map_disagree'])} {_pct(row['map_disagree'], 7)} "
                f"{_pct_ci(row['map_disagree_ci'])} | {row['n_excluded']}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_string()

    def to_frame(self):
        """The rows as a :class:`pandas.DataFrame` (pandas is imported on demand)."""
        import pandas as pd

        return pd.DataFrame(self.rows())


def _pct(x: float, width: int = 6) -> str:
    return f"{100 * x:{width}.2f}"


def _pct_ci(ci) -> str:
    return f"[{100 * ci[0]:6.2f}, {100 * ci[1]:6.2f}]"


def paper_table(n=PAPER_N, seed=0, prior_alpha=1.0, *, confidence=0.95, n_boot=2000) -> PaperTable:
    """Reproduce the six cells of Williams (2024) §3 (C = 4; K = 3, 6, 10; alpha = 1, 1/K).

    Each cell gets its own independent random stream derived from ``seed``.

    Parameters
    ----------
    n : int
        Classifiers per cell (the paper used 100).
    seed : None, int or SeedSequence
    prior_alpha : float or "alpha"
        ``pi ~ Dir(prior_alpha * 1)``; ``"alpha"`` uses each cell's ``alpha``.
    confidence, n_boot
        As in :func:`compare_models`.

    Returns
    -------
    PaperTable

    Examples
    --------
    >>> t = paper_table(n=100, seed=0)
    >>> [(row["K"], row["alpha"], row["paper_pob_higher"]) for row in t.rows()][:2]
    [(3, '1', 0.82), (6, '1', 0.723)]
    """
    ss = check_seed(seed)
    results = tuple(
        compare_models(cell.K, cell.alpha, n=n, C=PAPER_C, prior_alpha=prior_alpha,
                       seed=np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, i)),
                       confidence=confidence, n_boot=n_boot)
        for i, cell in enumerate(PAPER_VALUES)
    )
    return PaperTable(PAPER_VALUES, results, results[0].n, seed, prior_alpha)


def paper_consistency(prior_alpha=1.0, n_truth=1_000_000, seed=0, n=PAPER_N) -> list[dict]:
    """Where each of the paper's twelve values falls in our n = 100 sampling distribution.

    For every cell, a run of ``n_truth`` classifiers estimates the per-classifier
    distribution; :func:`sampling_distribution` turns it into the exact
    distribution of the statistic at ``n`` classifiers.  The paper's value is then
    located in it.

    Parameters
    ----------
    prior_alpha : float or "alpha"
        The reading of "similarly" to test.
    n_truth : int
        Classifiers per cell for the large run.
    seed : int or SeedSequence
    n : int
        Classifiers per replicate (the paper used 100).

    Returns
    -------
    list of dict
        One per (cell, statistic): ``K``, ``alpha``, ``statistic``, ``paper``,
        ``truth`` (large-n value), ``truth_ci``, ``sd`` (standard deviation at
        ``n``), ``z``, ``quantile`` (mid-distribution function at the paper's
        value), ``p_value`` (two-sided) and ``log_pmf`` (log probability of the
        paper's count: summed over cells it is a log likelihood of the reading).

    Examples
    --------
    >>> rows = paper_consistency(1.0, n_truth=5_000, seed=0)
    >>> len(rows), sorted(rows[0])[:4]
    (12, ['K', 'alpha', 'log_pmf', 'p_value'])
    """
    return locate_paper_values(paper_table(n=n_truth, seed=seed, prior_alpha=prior_alpha).results,
                               n=n)


def locate_paper_values(results, n=PAPER_N) -> list[dict]:
    """Locate each of the paper's values in our sampling distribution at ``n`` classifiers.

    Parameters
    ----------
    results : sequence of ModelComparison
        One large run per cell of :data:`PAPER_VALUES`, in that order (for
        example ``paper_table(n=100_000).results``).
    n : int
        Classifiers per replicate (the paper used 100).

    Returns
    -------
    list of dict
        The rows described in :func:`paper_consistency`.

    Examples
    --------
    >>> rows = locate_paper_values(paper_table(n=2_000, seed=0).results)
    >>> [(r["K"], r["alpha"], r["statistic"]) for r in rows][:2]
    [(3, '1', 'pob_higher'), (3, '1', 'map_disagree')]
    """
    results = tuple(results)
    if len(results) != len(PAPER_VALUES):
        raise ValueError(f"results must hold one ModelComparison per paper cell "
                         f"({len(PAPER_VALUES)}), got {len(results)}")
    rows = []
    for cell, result in zip(PAPER_VALUES, results, strict=True):
        if (result.K, result.alpha) != (cell.K, cell.alpha):
            raise ValueError(f"results must follow PAPER_VALUES: expected K = {cell.K}, "
                             f"alpha = {cell.alpha:g}, got K = {result.K}, alpha = {result.alpha:g}")
        for statistic in ("pob_higher", "map_disagree"):
            dist = sampling_distribution(result, statistic, n=n)
            paper = getattr(cell, statistic)
            rows.append({
                "K": cell.K, "alpha": cell.alpha_label, "statistic": statistic,
                "paper": paper, "truth": getattr(result, statistic),
                "truth_ci": getattr(result, f"{statistic}_ci"), "sd": dist.sd(),
                "z": (paper - dist.mean()) / dist.sd(), "quantile": dist.quantile(paper),
                "p_value": dist.p_value(paper), "log_pmf": dist.log_pmf(paper),
            })
    return rows


def prior_alpha_evidence(n_truth=1_000_000, seed=0, n=PAPER_N) -> dict:
    """Compare the two readings of "pi is drawn similarly" on the paper's own numbers.

    For each reading (``prior_alpha=1.0`` and ``prior_alpha="alpha"``) and each
    statistic, sums the log probabilities of the paper's six counts under our
    n = 100 sampling distributions (cells are independent, so the sum is a log
    likelihood).  The ``alpha = 1`` cells are the same under both readings and
    cancel in the difference.

    Parameters
    ----------
    n_truth, seed, n
        As in :func:`paper_consistency`.

    Returns
    -------
    dict
        ``rows``: ``{reading: paper_consistency rows}``; ``log_likelihood``:
        ``{reading: {statistic: float}}``; ``log_likelihood_ratio``:
        ``{statistic: log L(1.0) - log L("alpha")}`` (positive favours ``pi ~ Dir(1)``).

    Examples
    --------
    >>> ev = prior_alpha_evidence(n_truth=5_000, seed=0)
    >>> sorted(ev["log_likelihood_ratio"])
    ['map_disagree', 'pob_higher']
    """
    rows = {reading: paper_consistency(reading, n_truth=n_truth, seed=seed, n=n)
            for reading in (1.0, "alpha")}
    loglik = {reading: {stat: float(sum(r["log_pmf"] for r in rs if r["statistic"] == stat))
                        for stat in ("pob_higher", "map_disagree")}
              for reading, rs in rows.items()}
    ratio = {stat: loglik[1.0][stat] - loglik["alpha"][stat] for stat in loglik[1.0]}
    return {"rows": rows, "log_likelihood": loglik, "log_likelihood_ratio": ratio}


def fig2_data(K=3, alpha=1.0, n=500, seed=0, mirror=True):
    """Points of Williams (2024) Fig. 2: ``log(theta_jc / theta_jd)`` and ``log(f_j(theta_c) / f_j(theta_d))``.

    ``f_j(theta) = theta_j Q^{-j}(theta)`` (Williams 2024, §2).  ``n`` independent
    pairs ``(theta_c, theta_d)`` are drawn from ``Dir(alpha * 1)`` and every
    ``j = 0, ..., K - 1`` gives a point.  With ``mirror`` each point ``(x, y)`` is
    also included as ``(-x, -y)``, as in the paper's footnote 2 (the order of the
    two classes is arbitrary).

    Parameters
    ----------
    K : int
    alpha : float
    n : int
        Number of pairs.
    seed : None, int, SeedSequence or Generator
    mirror : bool

    Returns
    -------
    x, y : numpy.ndarray, shape (n * K * (2 if mirror else 1),)
        ``x = log(theta_jc / theta_jd)``, ``y = log(f_j(theta_c) / f_j(theta_d))``.

    Examples
    --------
    >>> x, y = fig2_data(3, 1.0, n=10, seed=0)
    >>> x.shape, bool(np.allclose(x[:30], -x[30:]))
    ((60,), True)
    """
    K = check_int(K, "K", 2)
    alpha = check_positive(alpha, "alpha")
    n = check_int(n, "n", 1)
    rng = as_generator(seed)
    log_theta, log1m = exact.log_simplex(log_gamma(rng, alpha, (2, K, n)))
    log_f = log_theta + log_q_minus_from_terms(log1m, axis=1)
    x = (log_theta[0] - log_theta[1]).T.ravel()
    y = (log_f[0] - log_f[1]).T.ravel()
    if mirror:
        x, y = np.concatenate([x, -x]), np.concatenate([y, -y])
    return x, y


@dataclass(frozen=True)
class Fig3Data:
    """Points of Williams (2024) Fig. 3, one per counted observation.

    Attributes
    ----------
    max_posterior_categorical, max_posterior_pob : numpy.ndarray, shape (m,)
    map_agree : numpy.ndarray of bool, shape (m,)
    n_excluded : int
        Observations with zero probability under every class (not plotted).
    """

    max_posterior_categorical: np.ndarray
    max_posterior_pob: np.ndarray
    map_agree: np.ndarray
    n_excluded: int


def fig3_data(K=3, alpha=1.0, n=PAPER_N, C=PAPER_C, prior_alpha=1.0, seed=0) -> Fig3Data:
    """Maximum posteriors under both models and MAP agreement (Williams 2024, Fig. 3).

    Uses the same classifiers as :func:`compare_models` with the same arguments,
    so its counts match that function's.

    Parameters
    ----------
    K, alpha, n, C, prior_alpha, seed
        As in :func:`compare_models`.

    Returns
    -------
    Fig3Data

    Examples
    --------
    >>> d = fig3_data(3, 1.0, n=100, seed=0)
    >>> d.max_posterior_pob.shape, d.n_excluded
    ((300,), 0)
    """
    K, alpha, n, C, prior_alpha, ss = check_cell(K, alpha, n, C, prior_alpha, seed)
    parts = []
    for pi, theta in iter_draws(K, alpha, n, C, prior_alpha, ss):
        lp, lx = engine_layout(pi.log(), theta.log())
        parts.append(observation_comparison(lp - logsumexp(lp, axis=0, keepdims=True), lx,
                                             (lp.shape[1],)))
    valid = np.concatenate([p.valid for p in parts]).ravel()
    def cat(name):
        return np.concatenate([getattr(p, name) for p in parts]).ravel()[valid]
    return Fig3Data(
        max_posterior_categorical=cat("max_posterior_categorical"),
        max_posterior_pob=cat("max_posterior_pob"),
        map_agree=~cat("map_disagree"),
        n_excluded=int(valid.size - valid.sum()),
    )
