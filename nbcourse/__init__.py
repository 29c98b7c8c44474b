"""nbcourse: the small library behind the course book on naive Bayes with discrete features.

Part I follows Duda, Hart & Stork (2001) §2.9 (binary features, linear discriminants);
Part II follows Williams (2024) (categorical versus product-of-Bernoullis naive Bayes).

Every public name of the modules listed in :data:`MODULES` is available here: the
package re-exports each module's own ``__all__``.  The modules are imported on first
use, so ``import nbcourse`` (and ``from nbcourse.grading import check`` in a
student's notebook) loads neither scikit-learn, SciPy nor Matplotlib.

Conventions shared by every module
----------------------------------
* Names follow the maths: ``n_values`` is the number of values of each feature
  (``V_j`` in Duda, Hart & Stork; an array, one entry per feature) and ``K`` the
  number of values of Williams' single categorical feature (a scalar); ``C`` is
  the number of classes, ``pi`` the priors and ``theta`` the class-conditional
  probabilities.  Values and classes are 0-based codes.
* Random functions take ``seed``: None, an int, a SeedSequence or a Generator
  (:func:`nbcourse._validation.check_seed`).
* Bad arguments raise ValueError or TypeError saying
  ``"<name> must be <what was expected>, got <what was given>"``.
* A posterior that does not exist (every class gives the observation probability
  0) raises, or is NaN on request (:func:`nbcourse._logspace.log_normalise`).
* Functions shared with scikit-learn take their arguments in its order
  (``log_loss(y, proba)``).

Imported in IPython (a notebook's kernel), the package registers the book's table form
with the shell: see :func:`load_ipython_extension`.
"""

import importlib
import sys

__version__ = "0.1.0"

#: The modules whose ``__all__`` the package re-exports, in the order they are searched.
MODULES = (
    "binary",
    "sampling",
    "bounds",
    "posteriors",
    "encoding",
    "naive_bayes",
    "smoothing",
    "experiments",
    "calibration",
    "recalibration",
    "model_selection",
    "missing",
    "evaluation",
    "datasets",
    "interact",
    "publish",
    "text",
    "gaussian",
    "discretisation",
    "semi_naive",
    "feature_selection",
    "prior_shift",
    "semi_supervised",
    "decisions",
)

#: Subpackages reachable as attributes (``nbcourse.plots``) without re-exporting their names.
SUBPACKAGES = ("plots", "grading")

_owner: dict[str, str] = {}  # public name -> module, filled as modules are imported


def _module(name: str):
    module = importlib.import_module(f"{__name__}.{name}")
    for public in module.__all__:
        _owner.setdefault(public, name)
    return module


def _all_names() -> list[str]:
    for name in MODULES:
        _module(name)
    return ["__version__", *_owner]


def __getattr__(name: str):
    if name == "__all__":
        return _all_names()
    if name.startswith("_"):  # probes such as __wrapped__ must not import every module
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name in MODULES or name in SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    if name not in _owner:
        for module in MODULES:
            if name in _module(module).__all__:
                break
    if name in _owner:
        value = getattr(importlib.import_module(f"{__name__}.{_owner[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_all_names()))


def _table_bundle(frame):
    from .mime import TABLE
    from .publish import table_form

    return {TABLE: table_form(frame)}


def load_ipython_extension(shell) -> None:
    """Every DataFrame the IPython ``shell`` displays also carries its table form.

    The form (:data:`nbcourse.mime.TABLE`, made by :func:`nbcourse.publish.table_form`) is
    what the book prints a table from; pandas' ``text/html`` and ``text/plain`` stay in the
    same output, for Jupyter.  ``import nbcourse`` calls this in a running IPython
    (``%load_ext nbcourse`` does the same).  pandas is not imported for it: the form is
    registered by the class's name.
    """
    formatter = shell.display_formatter.mimebundle_formatter
    for module in ("pandas", "pandas.core.frame"):  # DataFrame.__module__ in pandas 3 and 2
        formatter.for_type_by_name(module, "DataFrame", _table_bundle)


if "IPython" in sys.modules and sys.modules["IPython"].get_ipython() is not None:
    load_ipython_extension(sys.modules["IPython"].get_ipython())
