"""Controls of an explorable figure: a slider for a numeric range, a dropdown for a list of
options, and the readable names shown beside them (see :mod:`nbcourse.interact`)."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import _describe

__all__ = ["Control", "parse_control", "readable_name"]


# --------------------------------------------------------------------------- controls


@dataclass(frozen=True)
class Control:
    """One control: its parameter name, kind and the finite list of values it takes.

    Attributes
    ----------
    name : str
        Keyword of the plotting function this control sets.
    kind : {'int', 'float', 'options'}
        ``'int'`` and ``'float'`` become sliders, ``'options'`` a dropdown.
    values : tuple, shape (n,)
        Every value the control takes, in order (0-based index ``j`` in code).
    labels : tuple of str, shape (n,)
        How each value is shown to the reader.
    text : str
        The control's name as the reader sees and hears it (``"θ_j"`` for
        ``theta_j``); defaults to :func:`readable_name` of ``name``.
    default : int or None
        0-based index of the value shown first when no ``_initial`` value is
        given (``None``: the middle of a slider, the first option as written).
    """

    name: str
    kind: str
    values: tuple
    labels: tuple
    text: str = ""
    default: int | None = None

    def __post_init__(self):
        if not self.text:
            object.__setattr__(self, "text", readable_name(self.name))

    @property
    def step(self) -> float:
        """Distance between consecutive slider values (0.1, not 0.09999999999999998)."""
        return round(self.values[1] - self.values[0], 12)

    def index_of(self, value: Any, name: str | None = None) -> int:
        """0-based index of ``value`` (nearest grid point for a slider).

        ``name`` is what error messages call the value (default: the control's name).
        """
        name = self.name if name is None else name
        if self.kind == "options":
            for j, v in enumerate(self.values):
                if v is value or (isinstance(v, bool) == isinstance(value, bool) and v == value):
                    return j
            raise ValueError(f"{name} must be one of the options {list(self.values)!r}, "
                             f"got {value!r}")
        grid = f"{self.labels[0]}, {self.labels[1]}, ..., {self.labels[-1]}"
        if not _is_number(value):
            raise TypeError(f"{name} must be a number on the grid {grid}, got {_describe(value)}")
        j = round((value - self.values[0]) / self.step)
        if not 0 <= j < len(self.values) or not math.isclose(
                self.values[j], value, rel_tol=1e-9, abs_tol=1e-9 * abs(self.step)):
            raise ValueError(f"{name} must be a value on the grid {grid}, got {value!r}")
        return j


_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "eta": "η",
          "theta": "θ", "kappa": "κ", "lambda": "λ", "lam": "λ", "mu": "μ", "nu": "ν",
          "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "chi": "χ", "psi": "ψ",
          "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Pi": "Π", "Sigma": "Σ",
          "Phi": "Φ", "Omega": "Ω"}


def readable_name(name: str) -> str:
    """A parameter name as a reader sees it: Greek letters spelled out become Greek.

    Examples
    --------
    >>> readable_name("theta_j"), readable_name("pi_1"), readable_name("K"), readable_name("n_per_class")
    ('θ_j', 'π_1', 'K', 'n per class')
    """
    parts = name.split("_")
    if parts[0] in _GREEK and all(len(p) <= 2 for p in parts[1:]):
        return "_".join([_GREEK[parts[0]], *parts[1:]])
    if len(parts) == 2 and len(parts[1]) <= 2:
        return name
    return " ".join(_GREEK.get(p, p) for p in parts if p)


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)


def _decimals(x: float) -> int:
    """Decimal places needed to write ``x`` (at most 12)."""
    text = np.format_float_positional(float(x), trim="-")
    return min(len(text.partition(".")[2]), 12)


def _slider(name: str, spec: tuple) -> Control:
    """Parse ``(start, stop, step)``: values ``start + k * step`` up to ``stop`` inclusive."""
    start, stop, step = spec
    if not all(math.isfinite(v) for v in spec):
        raise ValueError(f"{name} must be a slider (start, stop, step) of finite numbers, "
                         f"got {spec!r}")
    if step == 0:
        raise ValueError(f"{name} must be a slider (start, stop, step) with a non-zero step, "
                         f"got {spec!r}")
    if stop <= start:
        raise ValueError(f"{name} must be a slider (start, stop, step) with start < stop, "
                         f"got {spec!r}, an empty range")
    if step < 0:
        raise ValueError(f"{name} must be a slider (start, stop, step) with a positive step, "
                         f"got {spec!r}")
    steps = (stop - start) / step
    n = round(steps)
    if not math.isclose(steps, n, rel_tol=1e-9, abs_tol=1e-9):
        raise ValueError(f"{name} must be a slider (start, stop, step) whose stop - start is "
                         f"a whole number of steps, got {spec!r} ({steps:.4g} steps)")
    if all(isinstance(v, numbers.Integral) for v in spec):
        values = tuple(int(start) + k * int(step) for k in range(n + 1))
        return Control(name, "int", values, tuple(str(v) for v in values))
    d = max(_decimals(start), _decimals(step))
    values = tuple(round(float(start) + k * float(step), d) for k in range(n + 1))
    return Control(name, "float", values, tuple(f"{v:.{min(d, 6)}f}" for v in values))


def _options(name: str, spec: list | tuple) -> Control:
    """Parse a dropdown: a non-empty list of distinct, hashable options."""
    if len(spec) == 0:
        raise ValueError(f"{name} must be a dropdown with at least one option, got {spec!r}")
    for option in spec:
        try:
            hash(option)
        except TypeError:
            raise TypeError(f"{name} must be a dropdown of hashable options (str, numbers, "
                            f"tuples), got {type(option).__name__} {option!r}") from None
    labels = tuple(str(o) for o in spec)
    if len(set(labels)) != len(labels):
        raise ValueError(f"{name} must be a dropdown of distinct options, got {list(spec)!r}")
    values = tuple(spec)
    if all(_is_number(o) for o in values):  # numbers are listed in increasing order
        values = tuple(sorted(values))
        labels = tuple(str(o) for o in values)
    return Control(name, "options", values, labels, default=values.index(spec[0]))


def parse_control(name: str, spec: Any) -> Control:
    """Turn one control specification into a :class:`Control`.

    Parameters
    ----------
    name : str
        The plotting function's keyword.
    spec : tuple (start, stop, step) or list or tuple of options
        A tuple of three numbers is a slider from ``start`` to ``stop``
        inclusive (all ints: integer slider); a list, or a tuple that is not
        all numbers, is a dropdown.

    Examples
    --------
    >>> parse_control("K", (2, 5, 1)).values
    (2, 3, 4, 5)
    >>> parse_control("theta", (0, 1, 0.25)).labels
    ('0.00', '0.25', '0.50', '0.75', '1.00')
    >>> parse_control("model", ["categorical", "PoB"]).kind
    'options'
    """
    if isinstance(spec, list):
        return _options(name, spec)
    if isinstance(spec, tuple):
        numeric = [_is_number(v) for v in spec]
        if spec and all(numeric):
            if len(spec) != 3:
                raise TypeError(f"{name} must be a slider (start, stop, step) of three numbers "
                                f"(a list for a dropdown of numbers), got {spec!r}")
            return _slider(name, spec)
        if any(isinstance(v, bool | np.bool_) for v in spec) and len(spec) == 3 \
                and sum(numeric) == 2:
            raise TypeError(f"{name} must be a slider (start, stop, step) of numbers, not bool, "
                            f"got {spec!r}")
        return _options(name, spec)
    raise TypeError(f"{name} must be (start, stop, step) for a slider or a list of options "
                    f"for a dropdown, got {type(spec).__name__} {spec!r}")


