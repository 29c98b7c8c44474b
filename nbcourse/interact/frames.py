"""The frames of an explorable figure and its static HTML control: each state of the control
grid drawn once to a palette PNG, and the self-contained page fragment that switches between
them with no kernel (see :mod:`nbcourse.interact`)."""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
from collections.abc import Callable
from typing import Any

import numpy as np

from .controls import Control

__all__ = ["PALETTE_COLOURS", "static_html"]

PALETTE_COLOURS = 256
"""Colours in the palette of each static frame."""


# --------------------------------------------------------------------------- drawing


def _figure_of(result: Any, title: str):
    """The Figure behind what a plotting function returned (Figure, Axes or array of Axes)."""
    from matplotlib.artist import Artist
    from matplotlib.figure import Figure, FigureBase

    if isinstance(result, np.ndarray) and result.size and isinstance(result.flat[0], Artist):
        result = result.flat[0]
    if isinstance(result, FigureBase) and not isinstance(result, Figure):
        result = result.figure  # SubFigure
    if isinstance(result, Artist) and not isinstance(result, Figure):
        result = result.get_figure()
    if not isinstance(result, Figure):
        raise TypeError(f"plot_fn must be a function returning a matplotlib Figure or Axes, "
                        f"got {title} returning {type(result).__name__}")
    return result


def _pixels(fig, dpi: int) -> np.ndarray:
    """Render ``fig`` with Agg at ``dpi`` onto white; RGB array of shape (height, width, 3)."""
    face = fig.get_facecolor()
    buf = io.BytesIO()
    fig.savefig(buf, format="rgba", dpi=dpi, facecolor=face if face[3] == 1 else "white")
    width, height = (int(s * dpi) for s in fig.get_size_inches())
    rgba = np.frombuffer(buf.getvalue(), np.uint8).reshape(height, width, 4)
    alpha = rgba[..., 3:].astype(np.uint16)
    if alpha.min() == 255:
        return rgba[..., :3]
    rgb = (rgba[..., :3] * alpha + 255 * (255 - alpha) + 127) // 255
    return rgb.astype(np.uint8)


def _png(rgb: np.ndarray, palette: bool) -> bytes:
    """Encode an RGB array as PNG, optionally reduced to a 256-colour palette."""
    from PIL import Image

    image = Image.fromarray(rgb)
    if palette:
        image = image.quantize(PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    image.save(buf, format="png")
    return buf.getvalue()


def _call(plot_fn: Callable, params: dict, figsize, dpi: int):
    """``plot_fn(**params)`` under the figure defaults; its exceptions become ValueError.

    ``rc_context`` restores every rcParam on exit, ``interactive`` included; a backend that
    pyplot loads on the first figure (IPython's inline backend) switches interactive mode
    on, so the mode set inside is kept, or later figures of the notebook would not show.
    """
    import matplotlib
    import matplotlib.pyplot as plt

    interactive = matplotlib.is_interactive()
    try:
        with plt.rc_context({"figure.figsize": figsize, "figure.dpi": dpi,
                             "figure.facecolor": "white"}):
            try:
                return plot_fn(**params)
            finally:
                interactive = matplotlib.is_interactive()
    except Exception as exc:
        state = ", ".join(f"{k}={v!r}" for k, v in params.items())
        raise ValueError(f"plot_fn must be a function that draws every state, got "
                         f"{_title(plot_fn)} raising "
                         f"{type(exc).__name__} at the state {state} "
                         f"(controls {', '.join(params)}): {exc}") from exc
    finally:
        matplotlib.interactive(interactive)


def _draw(plot_fn: Callable, params: dict, figsize, dpis: tuple[int, ...]) -> list[np.ndarray]:
    """Call ``plot_fn(**params)``, render its figure at each dpi and close every new figure."""
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    fig = None
    try:
        fig = _figure_of(_call(plot_fn, params, figsize, dpis[0]), _title(plot_fn))
        return [_pixels(fig, dpi) for dpi in dpis]
    finally:
        for num in set(plt.get_fignums()) - before:
            plt.close(num)
        if fig is not None:
            plt.close(fig)


# --------------------------------------------------------------------------- static HTML

_SCRIPT = """(function () {
  var me = document.currentScript;
  var root = (me && me.parentNode) || document.getElementById("%(id)s");
  if (!root || root.getAttribute("data-bound")) { return; }
  root.setAttribute("data-bound", "1");
  var data = JSON.parse(root.querySelector("script.nbcourse-explore-data").textContent);
  var img = root.querySelector("img.nbcourse-explore-frame");
  var inputs = root.querySelectorAll("[data-control]");
  var readouts = root.querySelectorAll("output");
  function show() {
    var k = 0;
    for (var i = 0; i < inputs.length; i++) {
      var j = parseInt(inputs[i].value, 10);
      k = k * data.sizes[i] + j;
      readouts[i].textContent = data.labels[i][j];
      if (inputs[i].type === "range") {
        inputs[i].setAttribute("aria-valuetext", data.labels[i][j]);
      }
    }
    img.src = data.frames[data.index[k]];
    img.alt = data.alts[k];
  }
  for (var i = 0; i < inputs.length; i++) {
    inputs[i].addEventListener("input", show);
    inputs[i].addEventListener("change", show);
  }
  root.querySelector("form").hidden = false;
})();"""


def _json_for_html(obj: Any) -> str:
    """JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _control_html(c: Control, j: int, ident: str) -> str:
    """One labelled ``<input type=range>`` or ``<select>`` with its read-out."""
    name, text = html.escape(c.name), html.escape(c.text)
    if c.kind == "options":
        options = "".join(f'<option value="{i}"{" selected" if i == j else ""}>'
                          f"{html.escape(label)}</option>" for i, label in enumerate(c.labels))
        field = f'<select id="{ident}" data-control="{name}">{options}</select>'
    else:
        field = (f'<input type="range" id="{ident}" data-control="{name}" min="0" '
                 f'max="{len(c.values) - 1}" step="1" value="{j}" '
                 f'aria-valuetext="{html.escape(c.labels[j])}">')
    return (f'<span style="display:inline-flex;align-items:center;gap:0.4em;'
            f'margin-right:1.5em"><label for="{ident}">{text}</label> {field} '
            f'<output for="{ident}">{html.escape(c.labels[j])}</output></span>')


def _state_words(controls, indices) -> str:
    """``θ_j = 0.5, K = 6``: the state in the reader's names."""
    return ", ".join(f"{c.text} = {c.labels[j]}" for c, j in zip(controls, indices, strict=True))


def _alt(title: str, controls, indices) -> str:
    return f"{title}, at {_state_words(controls, indices)}"


def static_html(title: str, controls: tuple[Control, ...], frames: list[bytes],
                initial: tuple[int, ...], caption: str, alts: list[str] | None = None,
                size: tuple[int, int] | None = None) -> str:
    """Self-contained HTML control over precomputed frames (see the module docstring).

    Parameters
    ----------
    title : str
        What the figure shows, in words; the alt text of each state is this
        followed by the control values (unless ``alts`` is given).
    controls : tuple of Control, shape (m,)
    frames : list of bytes, shape (n_1 * ... * n_m,)
        PNG of every state, row-major over the controls.
    initial : tuple of int, shape (m,)
        0-based index of the initial value of each control.
    caption : str
        Text of the ``<figcaption>`` (Unicode, no markup).
    alts : list of str, shape (n_1 * ... * n_m,), optional
        Alt text of every state.
    size : (int, int), optional
        Width and height of the frames in pixels (``width``/``height`` of the image).

    Examples
    --------
    >>> c = Control("n", "int", (1, 2), ("1", "2"))
    >>> page = static_html("f", (c,), [b"a", b"b"], (0,), "A caption.")
    >>> page.count('type="range"'), "http" in page
    (1, False)
    """
    sizes = [len(c.values) for c in controls]
    if alts is None:
        alts = [_alt(title, controls, np.unravel_index(k, sizes)) for k in range(len(frames))]
    unique: dict[bytes, int] = {}
    index = [unique.setdefault(png, len(unique)) for png in frames]
    uris = [_data_uri(png) for png in unique]
    data = {"title": title, "names": [c.name for c in controls],
            "labels": [list(c.labels) for c in controls],
            "sizes": sizes, "index": index, "alts": alts, "frames": uris}
    payload = _json_for_html(data)
    ident = "nbcourse-explore-" + hashlib.sha256(
        (payload + caption).encode()).hexdigest()[:12]
    k = int(np.ravel_multi_index(initial, sizes))
    dims = f'width="{size[0]}" height="{size[1]}" ' if size else ""
    return (
        f'<figure class="nbcourse-explore" id="{ident}" style="margin:0 0 1em 0;'
        f'background:#fff;color:#1f2328;padding:0.5em;border-radius:0.25em">'
        f'<img class="nbcourse-explore-frame" src="{uris[index[k]]}" {dims}'
        f'alt="{html.escape(alts[k])}" style="max-width:100%;height:auto">'
        f"<figcaption>{html.escape(caption)}</figcaption>"
        f'<form class="nbcourse-explore-controls" hidden onsubmit="return false" '
        f'aria-label="{html.escape("Controls: " + ", ".join(c.text for c in controls))}">'
        + "".join(_control_html(c, j, f"{ident}-{i}")
                  for i, (c, j) in enumerate(zip(controls, initial, strict=True)))
        + "</form>"
        f'<script type="application/json" class="nbcourse-explore-data">{payload}</script>'
        f"<script>{_SCRIPT % {'id': ident}}</script></figure>"
    )


def _title(plot_fn: Callable) -> str:
    fn = getattr(plot_fn, "func", plot_fn)  # functools.partial
    return getattr(fn, "__name__", type(fn).__name__)
