"""Williams (2024) §3 experiments: categorical versus product-of-Bernoullis naive Bayes.

Modules
-------
* :mod:`.draws` -- the protocol's random draws (the library's Dirichlet sampler);
* :mod:`.exact` -- the exact engine, in log space;
* :mod:`.fast` -- the fast engine, plain floats with a hand-over to the exact one;
* :mod:`.comparison` -- the two models compared on supplied or sampled classifiers;
* :mod:`.paper` -- the paper's values, our table beside them, Figs. 2 and 3;
* :mod:`.several_features` -- the same comparison with several features;
* :mod:`.cli` -- ``python -m nbcourse reproduce``.

The package re-exports the ``__all__`` of each of them but :mod:`.cli`.  The names that the
modules document beyond ``__all__`` are the interfaces between the engines,
used by the tests and the benchmark.

Protocol (Williams 2024, §3).  A classifier has ``C`` classes and one categorical
feature with ``K`` values.  Each class's parameter vector ``theta_c`` (length ``K``)
is drawn from ``Dir(alpha * 1)`` and the class prior ``pi`` (length ``C``) from
``Dir(prior_alpha * 1)``.  For every sampled classifier every observation
``x = j`` is considered (``j = 0, ..., K - 1`` here; the paper writes
``j = 1, ..., K``), and two statistics are counted:

* ``pob_higher`` -- the maximum posterior under the product-of-Bernoullis model
  (eq. 3) is strictly larger than under the categorical model (eq. 2);
* ``map_disagree`` -- the two models' MAP classes differ.

The paper says ``pi`` is drawn "similarly", which leaves ``prior_alpha`` open:
``prior_alpha=1.0`` (uniform on the simplex) or ``prior_alpha="alpha"`` (the same
``alpha`` as ``theta``).  :func:`paper_consistency` locates each of the paper's
n = 100 values in our sampling distribution under a reading, and
:func:`prior_alpha_evidence` compares the two readings' likelihoods.

Numerics
--------
Draws are kept so that their logs are exact: ``Dir(alpha)`` with ``alpha < 1``
comes from ``Gamma(1 + alpha) * V**(1/alpha)``, so ``theta`` entries far below the
smallest float still have finite, exact logs.  ``log(1 - theta_k)`` is computed as
the log of the sum of the *other* entries, so it stays exact when ``theta_k`` is
within rounding of 1.  An observation with zero probability under every class
(in practice only for supplied parameters with exact zeros) is excluded from
both fractions and counted in ``n_excluded``.

The counts are taken in two ways.  The exact engine (:mod:`.exact`, in log
space) handles every case.  The fast engine (:mod:`.fast`) works with plain
floating point numbers and decides a classifier only when every joint
probability is a normal float and every comparison clears a margin far above
its rounding error; any other classifier goes to the exact engine.  The counts
are the same either way (the tests check this chunk by chunk).

Classifiers are drawn in blocks of :data:`BLOCK`, each with its own random
streams derived from the seed, and worked through in chunks of about
:data:`.draws.CHUNK` observations, so memory does not grow with ``n``, a given seed
gives the same numbers on every run, and the first ``n`` classifiers of a seed
are the same in any longer run.

Examples
--------
>>> r = compare_models(3, 1.0, n=100, seed=0)
>>> r.n_observations
300
>>> 0.0 <= r.pob_higher <= 1.0 and r.pob_higher_ci[0] <= r.pob_higher <= r.pob_higher_ci[1]
True
"""

from . import comparison, draws, paper, several_features
from .comparison import *  # noqa: F403
from .draws import *  # noqa: F403
from .paper import *  # noqa: F403
from .several_features import *  # noqa: F403

__all__ = [*draws.__all__, *comparison.__all__, *paper.__all__, *several_features.__all__]
