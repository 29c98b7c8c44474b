"""Figure functions for the book, one module per kind of figure.

Every function takes ``ax=None`` (it draws into ``ax`` when given, otherwise into a new
figure) and returns the Axes it drew on, so tests can inspect it and exercises reuse it.
Chapters import from ``nbcourse.plots``.

- ``tables``: how many cells a table of discrete features has and how many stay empty;
- ``cube``: decisions on the corners of {0, 1}^d and a discriminant's plane;
- ``estimation``: estimated weights and estimation error against the sample size;
- ``features``: named feature weights and correlations of a real data set;
- ``simplex``: Q^{-j} over the simplex and its bounds;
- ``ratios``: how one-hot encoding changes a likelihood ratio;
- ``posteriors``: the two models' posteriors side by side;
- ``reliability``: reliability diagrams and rates along a grid;
- ``sampling``: sampling distributions of a share over random batches;
- ``smoothing``: smoothed estimates and cross-validation paths over the pseudo-count;
- ``recalibration``: calibration maps of the recalibrators and reliability under a temperature;
- ``text``: the two event models against vocabulary size, confidence against passage length;
- ``evaluation``: zero-one loss under copied features, ROC and precision-recall curves;
- ``missing``: the strategies for missing values against the share of holes;
- ``continuous``: class densities, posteriors along a feature, boundaries and intervals;
- ``dependence``: a tree over the features, weighted by their conditional mutual information;
- ``learning``: learning curves of several classifiers with interval bands or error bars;
- ``priors``: class priors side by side, a confusion matrix, the cost of a threshold;
- ``style``: the shared look.
"""

from . import (
               continuous,
               cube,
               dependence,
               estimation,
               evaluation,
               features,
               learning,
               missing,
               posteriors,
               priors,
               ratios,
               recalibration,
               reliability,
               sampling,
               simplex,
               smoothing,
               style,
               tables,
               text,
)
from .continuous import *  # noqa: F403  (re-exports each module's __all__)
from .cube import *  # noqa: F403
from .dependence import *  # noqa: F403
from .estimation import *  # noqa: F403
from .evaluation import *  # noqa: F403
from .features import *  # noqa: F403
from .learning import *  # noqa: F403
from .missing import *  # noqa: F403
from .posteriors import *  # noqa: F403
from .priors import *  # noqa: F403
from .ratios import *  # noqa: F403
from .recalibration import *  # noqa: F403
from .reliability import *  # noqa: F403
from .sampling import *  # noqa: F403
from .simplex import *  # noqa: F403
from .smoothing import *  # noqa: F403
from .style import *  # noqa: F403
from .tables import *  # noqa: F403
from .text import *  # noqa: F403

__all__ = [
    *tables.__all__, *cube.__all__, *estimation.__all__, *features.__all__, *simplex.__all__,
    *ratios.__all__, *posteriors.__all__, *reliability.__all__, *sampling.__all__,
    *smoothing.__all__, *recalibration.__all__, *text.__all__, *evaluation.__all__,
    *missing.__all__, *style.__all__, *continuous.__all__,
    *dependence.__all__, *learning.__all__, *priors.__all__
]
