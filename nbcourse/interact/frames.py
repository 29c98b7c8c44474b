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

from ..mime import EXPLORE, VERSION, payload
from .controls import Control

__all__ = ["PALETTE_COLOURS", "check_static", "static_data", "static_html"]

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


def _control_html(c: dict, j: int, ident: str) -> str:
    """One labelled ``<input type=range>`` or ``<select>`` with its read-out; ``c`` is a control
    of the JSON form (``name``, ``text``, ``kind``, ``labels``)."""
    name, text, labels = html.escape(c["name"]), html.escape(c["text"]), c["labels"]
    if c["kind"] == "options":
        options = "".join(f'<option value="{i}"{" selected" if i == j else ""}>'
                          f"{html.escape(label)}</option>" for i, label in enumerate(labels))
        field = f'<select id="{ident}" data-control="{name}">{options}</select>'
    else:
        field = (f'<input type="range" id="{ident}" data-control="{name}" min="0" '
                 f'max="{len(labels) - 1}" step="1" value="{j}" '
                 f'aria-valuetext="{html.escape(labels[j])}">')
    return (f'<span style="display:inline-flex;align-items:center;gap:0.4em;'
            f'margin-right:1.5em"><label for="{ident}">{text}</label> {field} '
            f'<output for="{ident}">{html.escape(labels[j])}</output></span>')


def _state_words(controls, indices) -> str:
    """``θ_j = 0.5, K = 6``: the state in the reader's names."""
    return ", ".join(f"{c.text} = {c.labels[j]}" for c, j in zip(controls, indices, strict=True))


def _alt(title: str, controls, indices) -> str:
    return f"{title}, at {_state_words(controls, indices)}"


def static_data(title: str, controls: tuple[Control, ...], frames: list[bytes],
                initial: tuple[int, ...], caption: str, alts: list[str] | None = None,
                size: tuple[int, int] | None = None) -> dict:
    """The JSON form of a static figure (MIME type :data:`nbcourse.mime.EXPLORE`).

    Parameters
    ----------
    title : str
        What the figure shows, in words; the alt text of each state is this
        followed by the control values (unless ``alts`` is given).
    controls : tuple of Control, shape (m,)
    frames : list of bytes, shape (n_1 * ... * n_m,)
        PNG of every state, row-major over the controls; identical frames are kept once.
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
    >>> data = static_data("f", (c,), [b"a", b"a"], (0,), "A caption.")
    >>> data["index"], len(data["frames"]), data["id"].startswith("nbcourse-explore-")
    ([0, 0], 1, True)
    """
    sizes = [len(c.values) for c in controls]
    if alts is None:
        alts = [_alt(title, controls, np.unravel_index(k, sizes)) for k in range(len(frames))]
    unique: dict[bytes, int] = {}
    index = [unique.setdefault(png, len(unique)) for png in frames]
    data = {"version": VERSION, "id": "", "title": title, "caption": caption,
            "controls": [{"name": c.name, "text": c.text, "kind": c.kind,
                          "labels": list(c.labels)} for c in controls],
            "initial": [int(j) for j in initial], "sizes": sizes, "index": index,
            "alts": list(alts),
            "frames": [base64.b64encode(png).decode("ascii") for png in unique],
            "width": int(size[0]) if size else 0, "height": int(size[1]) if size else 0}
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]
    data["id"] = "nbcourse-explore-" + digest
    return data


def check_static(data) -> dict:
    """``data`` (a JSON form or a MIME bundle holding one), its fields checked."""
    data = payload(data, EXPLORE, {"id": str, "title": str, "caption": str, "controls": list,
                                   "initial": list, "sizes": list, "index": list,
                                   "alts": list, "frames": list, "width": int,
                                   "height": int})
    where = f"bundle[{EXPLORE!r}]"
    controls, sizes = data["controls"], data["sizes"]
    for i, c in enumerate(controls):
        if (not isinstance(c, dict) or not {"name", "text", "kind", "labels"} <= set(c)
                or c["kind"] not in ("int", "float", "options")):
            raise ValueError(f"{where}['controls'][{i}] must be an object with name, text, "
                             f"kind ('int', 'float' or 'options') and labels, got {c!r}")
    if [len(c["labels"]) for c in controls] != sizes or len(data["initial"]) != len(sizes):
        raise ValueError(f"{where}: 'sizes' and 'initial' must give one entry per control "
                         f"and match the controls' labels, got sizes {sizes} and initial "
                         f"{data['initial']} for {len(controls)} controls")
    states = int(np.prod(sizes)) if sizes else 1
    if len(data["index"]) != states or len(data["alts"]) != states:
        raise ValueError(f"{where}: 'index' and 'alts' must have one entry per state "
                         f"({states}), got {len(data['index'])} and {len(data['alts'])}")
    if not data["frames"] or any(not 0 <= k < len(data["frames"]) for k in data["index"]):
        raise ValueError(f"{where}['index'] must point into 'frames' "
                         f"({len(data['frames'])} frames), got {data['index']}")
    return data


def static_html(data, uris: list[str] | None = None, lazy: bool = False) -> str:
    """Self-contained HTML control of a static figure (see :mod:`nbcourse.interact`).

    Parameters
    ----------
    data : dict
        The JSON form of the figure (:func:`static_data`), or a MIME bundle holding it.
    uris : list of str, optional
        Where each frame of ``data["frames"]`` is (the book's files under ``_images``);
        default: the frames as PNG data URIs, for a page that stands alone.
    lazy : bool, default False
        The image loads when it nears the screen (``loading="lazy"``), as every image of
        the book's pages does.

    Examples
    --------
    >>> c = Control("n", "int", (1, 2), ("1", "2"))
    >>> page = static_html(static_data("f", (c,), [b"a", b"b"], (0,), "A caption."))
    >>> page.count('type="range"'), "http" in page
    (1, False)
    """
    data = check_static(data)
    if uris is None:
        uris = ["data:image/png;base64," + frame for frame in data["frames"]]
    if len(uris) != len(data["frames"]):
        raise ValueError(f"uris must give one address per frame ({len(data['frames'])}), "
                         f"got {len(uris)}")
    controls, sizes, index, alts = data["controls"], data["sizes"], data["index"], data["alts"]
    script = {"title": data["title"], "names": [c["name"] for c in controls],
              "labels": [c["labels"] for c in controls], "sizes": sizes, "index": index,
              "alts": alts, "frames": list(uris)}
    ident, initial = data["id"], data["initial"]
    k = int(np.ravel_multi_index(initial, sizes)) if sizes else 0
    dims = (f'width="{data["width"]}" height="{data["height"]}" '
            if data["width"] and data["height"] else "") + ('loading="lazy" ' if lazy else "")
    return (
        f'<figure class="nbcourse-explore" id="{html.escape(ident)}" style="margin:0 0 1em 0;'
        f'background:#fff;color:#1f2328;padding:0.5em;border-radius:0.25em">'
        f'<img class="nbcourse-explore-frame" src="{html.escape(uris[index[k]])}" {dims}'
        f'alt="{html.escape(alts[k])}" style="max-width:100%;height:auto">'
        f"<figcaption>{html.escape(data['caption'])}</figcaption>"
        f'<form class="nbcourse-explore-controls" hidden onsubmit="return false" '
        f'aria-label="{html.escape("Controls: " + ", ".join(c["text"] for c in controls))}">'
        + "".join(_control_html(c, j, f"{ident}-{i}")
                  for i, (c, j) in enumerate(zip(controls, initial, strict=True)))
        + "</form>"
        f'<script type="application/json" class="nbcourse-explore-data">'
        f"{_json_for_html(script)}</script>"
        f"<script>{_SCRIPT % {'id': ident}}</script></figure>"
    )


def _title(plot_fn: Callable) -> str:
    fn = getattr(plot_fn, "func", plot_fn)  # functools.partial
    return getattr(fn, "__name__", type(fn).__name__)
