"""Interactive figures that work in a kernel, in the static HTML book and in print.

One call, :func:`explore`, turns a plotting function and a range for each of its
parameters into an object that displays itself in three ways:

``application/vnd.nbcourse.explore+json`` (:data:`nbcourse.mime.EXPLORE`)
    the static control as data: one frame per distinct point of the control grid,
    precomputed as PNG, the controls, their labels and an alt text per state.  The
    book renders it (:mod:`nbcourse_book.renderer`) as a self-contained control: the frames
    as image files, one ``<input type="range">`` or ``<select>`` per control and a
    few lines of inline JavaScript (:func:`static_html`).  Nothing is fetched from
    outside the book (no CDN, no web font, no external URL), so it works in the
    built book with no kernel and no network.
``image/png``
    a still image of the initial state, for print and for Jupyter before the cell
    has run (with ``text/plain`` saying to run it for the controls).
live ipywidgets controls
    in a kernel with comm support (Jupyter, JupyterLab, Binder) the figure shows
    itself as two outputs instead: the controls (a slider per numeric range, a
    dropdown per list of options) as an ipywidgets view, and below them the
    figure itself as an ordinary ``image/png`` output with a display id, which
    each move of a control replaces (``update_display_data``).

Which representation a reader sees
----------------------------------
* Jupyter, JupyterLab, Binder (live kernel): the controls and the figure.
  ``continuous_update=True`` on the sliders keeps dragging smooth: the
  ipywidgets front end sends at most one pending change while the kernel is
  busy and drops the intermediate ones, so a slow plotting function never builds
  a backlog.
* A notebook saved after a live run and opened again without a kernel: the
  controls need their model, which lived in the kernel, so Jupyter shows its
  "model not found" line in their place; the figure is an ordinary image output,
  saved with the notebook in the state the reader left it, and still shows.
* Stored outputs of the book's notebooks: ``make refresh`` and the
  nbval run (``conftest.py``) set the environment variable
  ``NBCOURSE_FIGURES=static`` for their kernels, and the figure then displays
  itself as one output with the JSON form, ``image/png`` and ``text/plain``,
  the form the book renders.  Opened in Jupyter without running, such an output
  shows its still image (Jupyter does not know the JSON form).
* The HTML book: the MIME render plugin of :mod:`nbcourse_book.renderer` renders the
  JSON form as the static control and writes its frames as files under
  ``_images``; ``_config.yml`` also drops any widget view
  (``nb_mime_priority_overrides`` with priority ``null``) and empties
  ``nb_ipywidgets_js``, so nothing is loaded from a CDN.
* LaTeX/PDF: the plugin leaves print to the ``image/png`` still.
* nbval compares ``text/plain`` and the JSON form and never ``image/png``.
  The JSON form is deterministic (frames rendered by Agg without timestamps,
  the element id taken from a hash of the content), and
  ``tests/nbval_sanitize.cfg`` masks the PNG payloads and the content-hash id,
  the parts that may differ between machines whose font rasterisation differs.

Budgets and choices
-------------------
* Frames are PNG, not SVG: the size of an SVG grows with the number of points
  drawn and an SVG carries an ``xmlns="http://..."`` attribute, whereas a PNG
  frame of a typical line or bar plot is about 7-10 kB.
* Frames are drawn at :data:`FRAME_DPI` (96) on the default figure size
  :data:`FIGSIZE` (6 x 3.75 in, so 576 x 360 pixels), composited on white
  (opaque, legible in dark mode) and reduced to a 256-colour palette by
  Pillow's median cut, which makes them about three times smaller than
  full-colour PNG and is exact for a plot with at most 256 colours (the fast
  octree method is 10 ms quicker per frame but turns a white background into
  an off-white grey).  The still image is full colour at :data:`STILL_DPI`
  (150) for print.
* At most :data:`MAX_FRAMES` (32) frames per figure by default.  Drawing and
  encoding one frame of a single-axes matplotlib figure costs about 60-80 ms of
  CPU (almost all of it matplotlib laying out ticks and text), so 32 frames
  stay under the 3 s build budget for one figure.  A larger grid raises a ``ValueError``
  before anything is drawn, naming each control and its number of values, so
  the author picks a coarser step or fewer options; nothing is subsampled
  behind the author's back.  ``_max_frames`` raises the cap explicitly (the
  build then takes longer).
* The static HTML of one figure, frames inlined, may not exceed :data:`MAX_HTML_BYTES` (1 MB),
  so three interactive figures fit in the 3 MB page budget; a larger result
  raises a ``ValueError``.  Identical frames are stored once.

Accessibility
-------------
* Each control has a visible ``<label>`` with the reader's name of the parameter:
  :func:`readable_name` turns ``theta_j`` into ``θ_j`` and ``pi_1`` into ``π_1``, and
  ``_labels`` sets any other ("prior P(ω₁)").  The live widgets use the same names.
* A slider moves over the indices of its values, so it carries ``aria-valuetext`` with the
  value shown next to it (``0.50``), and a screen reader announces that rather than the index.
* Numeric dropdown options are listed in increasing order, so arrow keys step through
  them in order; the first option written stays the initial one and is ``selected``.
* Every state has its own alt text: ``_alt`` describes the figure (default: the caption)
  and the control values follow ("..., at K = 6, θ_j = 0.50"); a callable gives the whole
  text per state.  The image carries ``width`` and ``height``.
* Native ``<input type="range">`` and ``<select>`` elements: Tab reaches each one, arrow
  keys, Home and End move it.
* The figure is drawn on white with dark text in both colour schemes.

Static HTML structure (for browser tests)
-----------------------------------------
``<figure class="nbcourse-explore" id="nbcourse-explore-<12 hex>">`` holds
``<img class="nbcourse-explore-frame">`` (showing the initial state, with its alt text and
pixel size), a ``<figcaption>``, a ``<form>`` (hidden until the script runs) with one
labelled ``input[type=range]`` or ``select`` per control (attribute ``data-control`` =
control name, ``id`` = figure id + ``-`` + control position; values are 0-based indices
into the control's values) and an ``<output for=...>`` read-out per control, then a
``<script type="application/json" class="nbcourse-explore-data">`` with ``names``,
``labels``, ``sizes``, ``index``, ``alts`` and ``frames`` and the inline script.  State
``k`` of the grid is the row-major (C order) index over the controls in the order they
were given; ``frames[index[k]]`` is its image and ``alts[k]`` its alt text.  The frames
are base64 PNG in the notebook's JSON form; the book's render plugin
(:mod:`nbcourse_book.renderer`) writes them to ``_images`` as files while it writes the page, and
:attr:`Explorer.html` inlines them as data URIs.

Modules: :mod:`nbcourse.interact.controls` parses the controls, :mod:`nbcourse.interact.frames`
draws the frames and writes the static HTML; this module holds :func:`explore`, the live
widgets and :class:`Explorer`.
"""

from __future__ import annotations

import base64
import dataclasses
import inspect
import itertools
import math
import os
from collections.abc import Callable, Mapping

import numpy as np

from .._validation import _describe, check_int, check_text
from ..mime import EXPLORE
from .controls import Control, _decimals, _is_number, parse_control, readable_name
from .frames import PALETTE_COLOURS, _alt, _draw, _png, _title, static_data, static_html

__all__ = ["Control", "Explorer", "explore", "parse_control", "readable_name", "static_data",
           "static_html",
           "FIGSIZE",
           "FRAME_DPI", "MAX_FRAMES", "MAX_HTML_BYTES", "PALETTE_COLOURS", "STILL_DPI"]

FIGSIZE = (6.0, 3.75)
"""Default figure size in inches for figures the plotting function creates with pyplot."""
FRAME_DPI = 96
"""Resolution of the static frames and of the live widget's images."""
STILL_DPI = 150
"""Resolution of the ``image/png`` still."""
MAX_FRAMES = 32
"""Default cap on the number of states (frames) of one static control."""
MAX_HTML_BYTES = 1_000_000
"""Largest static HTML of one figure, so that three fit in a 3 MB page."""

_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_SETTINGS = ("_initial", "_caption", "_labels", "_alt", "_figsize", "_dpi", "_still_dpi",
             "_max_frames")




def _check_parameters(plot_fn: Callable, names: list[str]) -> None:
    """Every control must be a keyword of ``plot_fn`` and every required keyword a control."""
    try:
        params = inspect.signature(plot_fn).parameters
    except (TypeError, ValueError):  # some callables have no signature: trust the author
        return
    kinds = inspect.Parameter
    if not any(p.kind is kinds.VAR_KEYWORD for p in params.values()):
        accepted = [n for n, p in params.items()
                    if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY)]
        for name in names:
            if name not in accepted:
                raise TypeError(f"{name} must be a keyword parameter of {_title(plot_fn)}, "
                                f"which accepts {accepted}, got a control {name!r}")
    for n, p in params.items():
        if p.default is kinds.empty and p.kind not in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD) \
                and n not in names:
            raise TypeError(f"plot_fn must be a function whose required parameters all have a "
                            f"control (add one or fix it with functools.partial), got "
                            f"{_title(plot_fn)} requiring parameter {n!r} that no control sets")


# --------------------------------------------------------------------------- live widget


STATIC_ENV = "NBCOURSE_FIGURES"
"""Environment variable: ``static`` makes every figure display its stored (book) form."""


def _has_comm_kernel() -> bool:
    """True inside an IPython kernel (which supports ipywidgets comms)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _live() -> bool:
    """Show live controls: in a kernel, unless ``NBCOURSE_FIGURES=static`` asks otherwise."""
    return _has_comm_kernel() and os.environ.get(STATIC_ENV, "").strip() != "static"


def _image_bundle(png: bytes, size: tuple[int, int], words: str) -> tuple[dict, dict]:
    """(data, metadata) of an image output: the PNG, and ``words`` for text-only readers."""
    width, height = size
    return ({"image/png": base64.b64encode(png).decode("ascii"), "text/plain": f"<{words}>"},
            {"image/png": {"width": width, "height": height}})


CONTROL_WIDTH = {"width": "100%", "max_width": "42em"}
"""Layout of a live control: a long label (``_labels``) leaves the track room to move."""


def _slider_widget(c: Control, value):
    import ipywidgets as W

    common = dict(min=c.values[0], max=c.values[-1], step=c.step, value=value,
                  description=c.text, continuous_update=True,
                  style={"description_width": "initial"}, layout=W.Layout(**CONTROL_WIDTH))
    if c.kind == "int":
        return W.IntSlider(**common)
    d = max(_decimals(c.values[0]), _decimals(c.step))
    return W.FloatSlider(readout_format=f".{min(d, 6)}f", **common)


def _control_widget(c: Control, j: int):
    import ipywidgets as W

    if c.kind == "options":
        return W.Dropdown(options=list(zip(c.labels, c.values, strict=True)),
                          value=c.values[j], description=c.text,
                          style={"description_width": "initial"},
                          layout=W.Layout(**CONTROL_WIDTH))
    return _slider_widget(c, c.values[j])


# --------------------------------------------------------------------------- explorer


class Explorer:
    """An interactive figure; see :func:`explore`, which builds it.

    Attributes
    ----------
    plot_fn : callable
        The plotting function.
    controls : tuple of Control
        The parsed controls, in the order given.
    initial : dict
        Initial value of each control (also the state of the still image).
    states : list of dict, shape (n_1 * ... * n_m,)
        Every state of the control grid, row-major over the controls.
    frames : list of bytes, shape (n_1 * ... * n_m,)
        PNG frame of each state (palette PNG at ``dpi``).
    still : bytes
        Full-colour PNG of the initial state at ``still_dpi``.
    data : dict
        The JSON form of the static control (MIME type :data:`nbcourse.mime.EXPLORE`): the
        controls, alt texts and each distinct frame once.
    html : str
        The static control as a self-contained HTML fragment (frames as data URIs).
    """

    def __init__(self, plot_fn, controls, initial, caption, figsize, dpi, still_dpi,
                 alt=None, caption_given=True):
        self.plot_fn, self.controls, self.initial = plot_fn, controls, initial
        self.figsize, self.dpi, self.still_dpi = figsize, dpi, still_dpi
        self.title = _title(plot_fn)
        self.caption, self.caption_given = caption, caption_given
        self.states = [dict(zip([c.name for c in controls], values, strict=True))
                       for values in itertools.product(*(c.values for c in controls))]
        self.alts = self._alt_texts(alt)
        self._widget = None
        self._inputs: list = []
        self._current: tuple[dict, dict] | None = None
        self._handle = None  # the figure output's DisplayHandle once shown live
        if _live():  # the controls draw each state when they reach it
            self._current = self._frame_bundle(self._k(self._initial_indices()))
        else:
            self._render_all()

    def __getattr__(self, name):
        """The stored form (``data``, ``html``, ``frames``, ``still``, ``frame_size``), which a live
        figure renders only when asked for it."""
        if (name in ("html", "data", "frames", "still", "frame_size")
                and "states" in self.__dict__):
            self._render_all()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _alt_texts(self, alt) -> list[str]:
        """Alt text of every state: ``alt(**state)``, or ``alt`` followed by the values."""
        sizes = [len(c.values) for c in self.controls]
        if callable(alt):
            texts = []
            for state in self.states:
                text = alt(**state)
                where = ", ".join(f"{k}={v!r}" for k, v in state.items())
                check_text(text, f"_alt({where})")
                texts.append(text)
            return texts
        if alt is None:
            alt = self.caption.rstrip(". ") if self.caption_given else readable_name(self.title)
        return [_alt(alt, self.controls, np.unravel_index(k, sizes))
                for k in range(len(self.states))]

    def _initial_indices(self) -> tuple[int, ...]:
        return tuple(c.index_of(self.initial[c.name]) for c in self.controls)

    def _render_all(self) -> None:
        """Draw the initial state first (still and frame), then every other state."""
        j0 = self._initial_indices()
        k0 = int(np.ravel_multi_index(j0, [len(c.values) for c in self.controls]))
        frame0, still = _draw(self.plot_fn, self.states[k0], self.figsize,
                                    (self.dpi, self.still_dpi))
        self.still = _png(still, palette=False)
        self.frame_size = (frame0.shape[1], frame0.shape[0])
        frames = []
        for k, state in enumerate(self.states):
            rgb = frame0 if k == k0 else _draw(self.plot_fn, state, self.figsize,
                                                     (self.dpi,))[0]
            frames.append(_png(rgb, palette=True))
        self.frames = frames
        self.data = static_data(self.title, self.controls, frames, j0, self.caption,
                                alts=self.alts, size=self.frame_size)
        self.html = static_html(self.data)
        if len(self.html.encode()) > MAX_HTML_BYTES:
            raise ValueError(
                f"controls must be few enough for a static figure of at most "
                f"{MAX_HTML_BYTES:,} bytes, got "
                f"{len(self.html.encode()):,} bytes for controls "
                f"{', '.join(c.name for c in self.controls)}; use fewer states, a smaller "
                f"_figsize or a lower _dpi")

    # ---------------------------------------------------------------- live widget
    @property
    def widget(self):
        """The live controls (an ``ipywidgets.VBox``), built on first use."""
        if self._widget is None:
            import ipywidgets as W

            inputs = [_control_widget(c, j)
                      for c, j in zip(self.controls, self._initial_indices(), strict=True)]
            for w in inputs:
                w.observe(self._on_change, names="value")
            self._inputs = inputs
            self._widget = W.VBox(inputs)
        return self._widget

    @property
    def current(self) -> tuple[dict, dict]:
        """(data, metadata) of the figure output for the controls' current values."""
        if self._current is None:
            k = self._k(self._initial_indices())
            self._current = _image_bundle(self.frames[k], self.frame_size, self.alts[k])
        return self._current

    def _frame_bundle(self, k: int) -> tuple[dict, dict]:
        """(data, metadata) of the figure output of state ``k``, drawn now."""
        rgb = _draw(self.plot_fn, self.states[k], self.figsize, (self.dpi,))[0]
        return _image_bundle(_png(rgb, palette=True), (rgb.shape[1], rgb.shape[0]), self.alts[k])

    def _k(self, indices) -> int:
        return int(np.ravel_multi_index(indices, [len(c.values) for c in self.controls]))

    def _live_indices(self) -> tuple[int, ...]:
        # snap slider values to the grid so that 0.30000000000000004 is drawn as 0.3
        return tuple(c.index_of(w.value) for c, w in zip(self.controls, self._inputs, strict=True))

    def _on_change(self, change) -> None:
        """Redraw the figure for the controls' current values and replace the figure output."""
        try:
            self._current = self._frame_bundle(self._k(self._live_indices()))
        except Exception as exc:  # show the problem in the figure's place, never crash
            self._current = ({"text/plain": f"{type(exc).__name__}: {exc}"}, {})
        if self._handle is not None:
            data, metadata = self._current
            self._handle.update(data, metadata=metadata, raw=True)

    # ---------------------------------------------------------------- display
    def __repr__(self) -> str:
        shape = " x ".join(f"{c.name}: {len(c.values)}" for c in self.controls)
        return (f"<interactive figure {self.title} ({shape}; {len(self.states)} states); "
                f"run the cell in a live kernel for the controls>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The stored form: the frames as data, the still image and a text fallback."""
        data = {"text/plain": repr(self), EXPLORE: self.data,
                "image/png": base64.b64encode(self.still).decode("ascii")}
        width, height = self.frame_size
        return data, {"image/png": {"width": width, "height": height}}

    @property
    def _ipython_display_(self):
        """In a live kernel, display as controls and a figure output (see the module notes).

        IPython calls this instead of :meth:`_repr_mimebundle_` when it exists; it exists
        only while :func:`_live` holds, so elsewhere the stored form is displayed.
        """
        if not _live():
            raise AttributeError("_ipython_display_")
        return self._display_live

    def _display_live(self) -> None:
        from IPython.display import display

        controls = {_WIDGET_VIEW: self.widget._repr_mimebundle_()[_WIDGET_VIEW],
                    "text/plain": f"<controls of the interactive figure {self.title}: "
                                  f"{', '.join(c.text for c in self.controls)}; run the cell "
                                  f"to move them>"}
        display(controls, raw=True)
        data, metadata = self.current
        self._handle = display(data, metadata=metadata, raw=True, display_id=True)


def _check_settings(settings: dict) -> None:
    unknown = [k for k in settings if k not in _SETTINGS]
    if unknown:
        raise TypeError(f"{unknown[0]} must be one of the settings {', '.join(_SETTINGS)} "
                        f"(control names may not start with '_'), got an unknown setting "
                        f"{unknown[0]}={settings[unknown[0]]!r}")


def _initial_state(controls, given) -> dict:
    """Initial value per control: given, else the middle of a slider or the first option."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise TypeError(f"_initial must be a mapping of control name to value, "
                        f"got {type(given).__name__}")
    names = [c.name for c in controls]
    for name in given:
        if name not in names:
            raise ValueError(f"_initial must be a mapping whose keys are control names {names}, "
                             f"got {name!r}, which is not a control")
    state = {}
    for c in controls:
        if c.name in given:
            state[c.name] = c.values[c.index_of(given[c.name], f"_initial[{c.name!r}]")]
        else:
            state[c.name] = c.values[c.default if c.kind == "options"
                                     else (len(c.values) - 1) // 2]
    return state


def _with_labels(controls, labels) -> tuple[Control, ...]:
    """Controls with the reader's names from ``labels`` (name -> text)."""
    if labels is None:
        return controls
    if not isinstance(labels, Mapping):
        raise TypeError(f"_labels must be a mapping of control name to text, "
                        f"got {type(labels).__name__}")
    names = [c.name for c in controls]
    for name, text in labels.items():
        if name not in names:
            raise ValueError(f"_labels must be a mapping whose keys are control names {names}, "
                             f"got {name!r}, which is not a control")
        check_text(text, f"_labels[{name!r}]")
    return tuple(dataclasses.replace(c, text=labels[c.name]) if c.name in labels else c
                 for c in controls)


def _check_figure_settings(figsize, dpi, still_dpi, max_frames) -> None:
    expected = "(width, height) in inches, both finite and > 0"
    if (not isinstance(figsize, tuple | list) or len(figsize) != 2
            or not all(_is_number(s) for s in figsize)):
        raise TypeError(f"_figsize must be {expected}, got {_describe(figsize)}")
    if not all(math.isfinite(s) and s > 0 for s in figsize):
        raise ValueError(f"_figsize must be {expected}, got {figsize!r}")
    for name, value in (("_dpi", dpi), ("_still_dpi", still_dpi), ("_max_frames", max_frames)):
        check_int(value, name, 1)


def _check_grid(controls, max_frames: int) -> None:
    n = math.prod(len(c.values) for c in controls)
    if n > max_frames:
        sizes = ", ".join(f"{c.name}: {len(c.values)}" for c in controls)
        raise ValueError(f"controls must be a grid of at most {max_frames} states (the cap "
                         f"_max_frames), got a grid of {n} states ({sizes}); use a coarser "
                         f"step or fewer options, or raise _max_frames")


def explore(plot_fn: Callable, *, _initial: Mapping | None = None, _caption: str | None = None,
            _labels: Mapping[str, str] | None = None, _alt: str | Callable | None = None,
            _figsize: tuple[float, float] = FIGSIZE, _dpi: int = FRAME_DPI,
            _still_dpi: int = STILL_DPI, _max_frames: int = MAX_FRAMES,
            **controls) -> Explorer:
    """Interactive figure: live ipywidgets in a kernel, a static control in HTML, a still PNG.

    Parameters
    ----------
    plot_fn : callable
        ``plot_fn(**params)`` draws one state and returns its matplotlib
        ``Figure`` or ``Axes`` (an array of Axes is accepted too).  It is
        called with one keyword per control.  Figures it creates with pyplot
        get the size ``_figsize`` unless it asks for another, and every figure
        it opens is closed by :func:`explore`; it must not call ``plt.show()``.
    **controls
        One per keyword of ``plot_fn``:

        * ``name=(start, stop, step)``: a slider over ``start, start + step,
          ..., stop`` (``stop`` included; ``stop - start`` must be a whole
          number of positive steps).  All ints give an integer slider.
        * ``name=[option, ...]`` (a list, or a tuple that is not three
          numbers): a dropdown over distinct, hashable options.
    _initial : mapping, optional
        Initial value of some controls (default: the middle value of each
        slider, the first option written for each dropdown).  Numeric
        options are listed in increasing order whatever order they are
        written in.  The still image shows
        this state.
    _caption : str, optional
        Caption of the static figure, in Unicode for mathematics ("prior
        P(ω₁)"), as no markup is typeset (default: which controls to move).
    _labels : mapping of str to str, optional
        The name of some controls as the reader sees and hears it, e.g.
        ``{"pi_1": "prior P(ω₁)"}``; the others get :func:`readable_name`
        (``theta_j`` -> ``θ_j``).  Used by the live and the static controls,
        the alt text and the default caption.
    _alt : str or callable, optional
        What the figure shows, in words.  A string is followed in each
        state's alt text by the control values ("Bounds on the weight, at
        K = 6, θ_j = 0.5"); a callable ``_alt(**state)`` returns the whole alt
        text of a state.  Default: the caption.
    _figsize : (float, float), default ``FIGSIZE`` (6, 3.75)
        Figure size in inches for figures created with pyplot.
    _dpi : int, default ``FRAME_DPI`` (96)
        Resolution of the frames and of the live images.
    _still_dpi : int, default ``STILL_DPI`` (150)
        Resolution of the ``image/png`` still.
    _max_frames : int, default ``MAX_FRAMES`` (32)
        Cap on the number of states of the control grid.

    Returns
    -------
    Explorer
        Displays itself as live controls and a figure output in a kernel, and
        elsewhere (or with ``NBCOURSE_FIGURES=static``) as one output with
        the JSON form of the static control and ``image/png`` (the still).  Every state is drawn during this call, so
        any problem surfaces here.

    Raises
    ------
    TypeError
        A control that is neither a range nor a list, a name that is not a
        keyword of ``plot_fn``, a required keyword without a control, an
        unknown ``_`` setting, a setting of the wrong type (``_dpi=2.5``), or a
        ``plot_fn`` that returns no figure.
    ValueError
        An empty range, a zero or negative step, an empty or repeated option
        list, a setting out of range (``_dpi=0``), a blank label or alt text,
        a grid over ``_max_frames`` states, a static figure over
        ``MAX_HTML_BYTES``, or a ``plot_fn`` that raises (the message names
        the state and the exception is chained).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> def line(slope, style):
    ...     fig, ax = plt.subplots()
    ...     ax.plot([0, 1], [0, slope], style)
    ...     return fig
    >>> fig = explore(line, slope=(1, 3, 1), style=["-", "--"])
    >>> len(fig.states), fig.initial
    (6, {'slope': 2, 'style': '-'})
    >>> sorted(fig._repr_mimebundle_()[0])
    ['application/vnd.nbcourse.explore+json', 'image/png', 'text/plain']
    >>> explore(line, slope=(1, 3, 0), style=["-"])
    Traceback (most recent call last):
    ...
    ValueError: slope must be a slider (start, stop, step) with a non-zero step, got (1, 3, 0)
    """
    if not callable(plot_fn):
        raise TypeError(f"plot_fn must be a callable that draws a figure, "
                        f"got {_describe(plot_fn)}")
    _check_settings({k: v for k, v in controls.items() if k.startswith("_")})
    if not controls:
        raise ValueError("controls must be at least one keyword such as theta=(0, 1, 0.1), "
                         "got none")
    _check_figure_settings(_figsize, _dpi, _still_dpi, _max_frames)
    parsed = tuple(parse_control(name, spec) for name, spec in controls.items())
    _check_parameters(plot_fn, list(controls))
    parsed = _with_labels(parsed, _labels)
    _check_grid(parsed, _max_frames)
    initial = _initial_state(parsed, _initial)
    caption_given = _caption is not None
    if _caption is None:
        _caption = ("Interactive figure: move the controls to change "
                    f"{', '.join(c.text for c in parsed)}.")
    if _alt is not None and not callable(_alt):
        if not isinstance(_alt, str):
            raise TypeError(f"_alt must be a non-empty str or a callable, got {_describe(_alt)}")
        check_text(_alt, "_alt")
    return Explorer(plot_fn, parsed, initial, str(_caption), tuple(_figsize), int(_dpi),
                    int(_still_dpi), alt=_alt, caption_given=caption_given)
