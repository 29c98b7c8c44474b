"""Interactive figures: live widget, static HTML control and still image from one call."""

import base64
import io
import itertools
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402
from PIL import Image  # noqa: E402

from conftest import BROWSER_ARGS, CHROMIUM, skip_or_fail_without_browser  # noqa: E402
from nbcourse import interact  # noqa: E402
from nbcourse.interact import explore, parse_control, static_html  # noqa: E402
from nbcourse.mime import EXPLORE  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SMALL = {"_figsize": (1.0, 0.75), "_dpi": 40, "_still_dpi": 60}

# The oracle: a swatch whose colour encodes the state, chosen independently of the code.
RED = {1: 40, 2: 120, 3: 200}
GREEN = {"x": 30, "y": 160}


def swatch(n, kind):
    """A figure of one flat colour: red from ``n``, green from ``kind``."""
    fig = plt.figure(figsize=(1.0, 0.75))
    fig.patch.set_facecolor((RED[n] / 255, GREEN[kind] / 255, 90 / 255))
    return fig


def colour_of(png: bytes):
    """The RGB colour at the centre of a PNG."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.getpixel((image.width // 2, image.height // 2)), image.size


def assert_colour(png, n, kind):
    (r, g, b), _ = colour_of(png)
    assert abs(r - RED[n]) <= 3 and abs(g - GREEN[kind]) <= 3 and abs(b - 90) <= 3, \
        ((r, g, b), n, kind)


class Recorder:
    """Wraps a plotting function and records the keywords of every call."""

    def __init__(self, fn):
        self.fn, self.calls = fn, []

    def __call__(self, **params):
        self.calls.append(params)
        return self.fn(**params)


@pytest.fixture(autouse=True)
def no_figure_leaks():
    before = plt.get_fignums()
    yield
    assert plt.get_fignums() == before, "explore left figures open"


# --------------------------------------------------------------------------- control specs


def test_integer_range_is_inclusive_and_gives_an_integer_slider():
    c = parse_control("K", (2, 5, 1))
    assert (c.kind, c.values) == ("int", (2, 3, 4, 5))
    assert all(type(v) is int for v in c.values)


def test_float_range_lands_on_the_decimal_grid():
    c = parse_control("theta", (0, 0.3, 0.1))
    assert c.kind == "float"
    assert c.values == (0.0, 0.1, 0.2, 0.3)  # not 0.30000000000000004
    assert parse_control("t", (0.2, 0.5, 0.1)).step == 0.1  # not 0.09999999999999998
    assert parse_control("t", (0.5, 1.5, 0.25)).labels == ("0.50", "0.75", "1.00", "1.25", "1.50")


@pytest.mark.parametrize("spec", [[1, 2, 5], ("a", "b"), ["only"], [None, "x"]])
def test_lists_and_non_numeric_tuples_are_dropdowns(spec):
    c = parse_control("opt", spec)
    assert c.kind == "options" and c.values == tuple(spec)


SLIDER = r"theta must be a slider \(start, stop, step\) "


@pytest.mark.parametrize("spec, error, pattern", [
    ((1, 1, 1), ValueError, SLIDER + r"with start < stop, got \(1, 1, 1\), an empty range"),
    ((3, 1, 1), ValueError, SLIDER + r"with start < stop, got \(3, 1, 1\), an empty range"),
    ((1, 3, 0), ValueError, SLIDER + r"with a non-zero step, got \(1, 3, 0\)"),
    ((0.0, 1.0, 0.0), ValueError, SLIDER + r"with a non-zero step, got \(0.0, 1.0, 0.0\)"),
    ((1, 3, -1), ValueError, SLIDER + r"with a positive step, got \(1, 3, -1\)"),
    ((0, 1, 0.3), ValueError,
     SLIDER + r"whose stop - start is a whole number of steps, got \(0, 1, 0.3\) \(3.333 steps\)"),
    ((0, float("nan"), 0.1), ValueError, SLIDER + r"of finite numbers, got \(0, nan, 0.1\)"),
    ((0, float("inf"), 1), ValueError, SLIDER + r"of finite numbers, got \(0, inf, 1\)"),
    ((0, 1), TypeError, SLIDER + r"of three numbers .*, got \(0, 1\)"),
    ((0, 1, 0.5, 2), TypeError, SLIDER + r"of three numbers .*, got \(0, 1, 0.5, 2\)"),
    ((0, True, 1), TypeError, SLIDER + r"of numbers, not bool, got \(0, True, 1\)"),
    ([], ValueError, r"theta must be a dropdown with at least one option, got \[\]"),
    ((), ValueError, r"theta must be a dropdown with at least one option, got \(\)"),
    (["a", "a"], ValueError, r"theta must be a dropdown of distinct options, got \['a', 'a'\]"),
    ([[1], [2]], TypeError, r"theta must be a dropdown of hashable options .*, got list \[1\]"),
    ("abc", TypeError, r"theta must be \(start, stop, step\) for a slider or a list of "
                       r"options for a dropdown, got str 'abc'"),
    (5, TypeError, r"theta must be \(start, stop, step\) .*, got int 5"),
    ({"a": 1}, TypeError, r"theta must be \(start, stop, step\) .*, got dict \{'a': 1\}"),
])
def test_bad_control_specs_name_the_control(spec, error, pattern):
    calls = []
    with pytest.raises(error, match="^" + pattern + "$"):
        explore(lambda theta: calls.append(theta), theta=spec)
    assert calls == [], "nothing is drawn for a bad specification"


def test_unknown_parameter_is_named():
    def f(n):  # pragma: no cover - never called
        raise AssertionError

    with pytest.raises(TypeError, match=r"^m must be a keyword parameter of f, which accepts "
                                        r"\['n'\], got a control 'm'$"):
        explore(f, n=(1, 3, 1), m=[1, 2])


def test_required_parameter_without_control_is_named():
    def f(n, alpha):  # pragma: no cover - never called
        raise AssertionError

    with pytest.raises(TypeError, match=r"^plot_fn must be a function whose required parameters "
                                        r"all have a control .*, got f requiring parameter "
                                        r"'alpha' that no control sets$"):
        explore(f, n=(1, 3, 1))


def test_keyword_catch_all_accepts_any_control_name():
    seen = Recorder(lambda **kw: swatch(kw["n"], "x"))
    fig = explore(seen, n=(1, 3, 1), anything=["p", "q"], **SMALL)
    assert {tuple(sorted(c)) for c in seen.calls} == {("anything", "n")}
    assert len(fig.states) == 6


def test_unknown_setting_and_no_controls_are_refused():
    with pytest.raises(TypeError, match=r"^_colour must be one of the settings _initial, .*"
                                        r"got an unknown setting _colour='red'$"):
        explore(swatch, n=(1, 3, 1), kind=["x"], _colour="red")
    with pytest.raises(ValueError, match=r"^controls must be at least one keyword .*, got none$"):
        explore(swatch)
    with pytest.raises(TypeError, match=r"^plot_fn must be a callable that draws a figure, "
                                        r"got str 'swatch'$"):
        explore("swatch", n=(1, 3, 1))
    with pytest.raises(ValueError, match=r"^_dpi must be an integer >= 1, got 0$"):
        explore(swatch, n=(1, 3, 1), kind=["x"], _dpi=0)
    with pytest.raises(TypeError, match=r"^_still_dpi must be an integer >= 1, got 150.5$"):
        explore(swatch, n=(1, 3, 1), kind=["x"], _still_dpi=150.5)
    with pytest.raises(ValueError, match=r"^_max_frames must be an integer >= 1, got -1$"):
        explore(swatch, n=(1, 3, 1), kind=["x"], _max_frames=-1)
    with pytest.raises(ValueError, match=r"^_figsize must be \(width, height\) in inches, "
                                         r"both finite and > 0, got \(0, 2\)$"):
        explore(swatch, n=(1, 3, 1), kind=["x"], _figsize=(0, 2))
    with pytest.raises(TypeError, match=r"^_figsize must be \(width, height\) .*, got str '6x4'$"):
        explore(swatch, n=(1, 3, 1), kind=["x"], _figsize="6x4")


def test_plot_function_raising_on_the_first_state_is_a_clear_error():
    def broken(n, kind):
        plt.figure()  # opened before failing: must still be closed
        return 1 / 0

    with pytest.raises(ValueError, match=r"^plot_fn must be a function that draws every state, "
                                         r"got broken raising "
                                         r"ZeroDivisionError at the state n=2, kind='x' "
                                         r"\(controls n, kind\): division by zero$") as info:
        explore(broken, n=(1, 3, 1), kind=["x", "y"])
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_plot_function_raising_on_a_later_state_names_that_state():
    def fussy(n, kind):
        if kind == "y" and n == 3:
            raise RuntimeError("no data")
        return swatch(n, kind)

    with pytest.raises(ValueError, match=r"at the state n=3, kind='y'.*no data"):
        explore(fussy, n=(1, 3, 1), kind=["x", "y"], **SMALL)


def test_plot_function_must_return_a_figure_or_axes():
    def nothing(n):
        plt.plot([0, n])

    with pytest.raises(TypeError, match=r"^plot_fn must be a function returning a matplotlib "
                                        r"Figure or Axes, got nothing returning NoneType$"):
        explore(nothing, n=(1, 3, 1))


def test_axes_and_arrays_of_axes_are_accepted():
    def one(n):
        return plt.subplots()[1]

    def two(n):
        return plt.subplots(1, 2)[1]

    assert len(explore(one, n=(1, 2, 1), **SMALL).frames) == 2
    assert len(explore(two, n=(1, 2, 1), **SMALL).frames) == 2


def test_grid_over_the_frame_cap_is_refused_before_drawing():
    seen = Recorder(swatch)
    with pytest.raises(ValueError, match=r"^controls must be a grid of at most 32 states \(the cap "
                                         r"_max_frames\), got a grid of 42 states "
                                         r"\(a: 6, b: 7\)"):
        explore(seen, a=(0, 5, 1), b=list("abcdefg"))
    assert seen.calls == []
    assert interact.MAX_FRAMES == 32


def test_frame_cap_can_be_raised_explicitly():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], _max_frames=6, **SMALL)
    assert len(fig.frames) == 6
    with pytest.raises(ValueError, match=r"^controls must be a grid of at most 5 states .*, "
                                         r"got a grid of 6 states"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], _max_frames=5, **SMALL)


def test_static_figure_over_the_byte_budget_is_refused(monkeypatch):
    monkeypatch.setattr(interact, "MAX_HTML_BYTES", 2_000)
    with pytest.raises(ValueError, match=r"^controls must be few enough for a static figure of at most "
                                         r"2,000 bytes, got [\d,]+ bytes for controls n, kind"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)


def test_initial_state_defaults_to_middle_slider_value_and_first_option():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    assert fig.initial == {"n": 2, "kind": "x"}
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial={"kind": "y", "n": 3}, **SMALL)
    assert fig.initial == {"n": 3, "kind": "y"}
    with pytest.raises(ValueError, match=r"^_initial\['n'\] must be a value on the grid "
                                         r"1, 2, \.\.\., 3, got 2.5$"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial={"n": 2.5})
    with pytest.raises(TypeError, match=r"^_initial\['n'\] must be a number on the grid "
                                        r"1, 2, \.\.\., 3, got str 'two'$"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial={"n": "two"})
    with pytest.raises(ValueError, match=r"^_initial\['kind'\] must be one of the options "
                                         r"\['x', 'y'\], got 'z'$"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial={"kind": "z"})
    with pytest.raises(ValueError, match=r"^_initial must be a mapping whose keys are control "
                                         r"names \['n', 'kind'\], got 'm', which is not a "
                                         r"control$"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial={"m": 1})
    with pytest.raises(TypeError, match=r"^_initial must be a mapping of control name to "
                                        r"value, got list$"):
        explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial=[("n", 1)])


# --------------------------------------------------------------------------- live widget


class Figure:
    """The live figure output of an explorer, as a front end holding its display id sees it."""

    def __init__(self, fig):
        self.fig = fig

    @property
    def data(self):
        return self.fig.current[0]


def widget_parts(fig):
    return list(fig.widget.children), Figure(fig)


def test_live_widget_has_one_control_per_parameter():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    (slider, dropdown), output = widget_parts(fig)
    assert type(slider).__name__ == "IntSlider"
    assert (slider.min, slider.max, slider.step, slider.value) == (1, 3, 1, 2)
    assert slider.continuous_update is True and slider.description == "n"
    assert type(dropdown).__name__ == "Dropdown" and dropdown.label == "x"
    assert dropdown.options == (("x", "x"), ("y", "y"))  # (label, value) pairs
    assert_colour(base64.b64decode(output.data["image/png"]), 2, "x")
    assert output.data["text/plain"] == f"<{fig.alts[2]}>", "its alt text, for text readers"


def test_moving_each_control_calls_the_plot_function_and_redraws():
    seen = Recorder(swatch)
    fig = explore(seen, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    (slider, dropdown), output = widget_parts(fig)
    before = plt.get_fignums()
    for widget, value, state in [(slider, 3, {"n": 3, "kind": "x"}),
                                 (dropdown, "y", {"n": 3, "kind": "y"}),
                                 (slider, 1, {"n": 1, "kind": "y"})]:
        seen.calls.clear()
        old = output.data
        widget.value = value
        assert seen.calls == [state]
        assert output.data != old
        png = base64.b64decode(output.data["image/png"])
        assert_colour(png, state["n"], state["kind"])
        assert colour_of(png)[1] == (40, 30)  # 1 x 0.75 in at 40 dpi
    assert plt.get_fignums() == before


def test_live_controls_take_the_width_a_long_label_leaves():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL,
                  _labels={"n": "a long description of the number of things n"})
    for control in widget_parts(fig)[0]:
        assert (control.layout.width, control.layout.max_width) == ("100%", "42em")


def test_float_slider_passes_grid_values():
    seen = Recorder(lambda theta: swatch(1, "x"))
    fig = explore(seen, theta=(0.0, 0.3, 0.1), **SMALL)
    (slider,), _ = widget_parts(fig)
    assert type(slider).__name__ == "FloatSlider" and slider.readout_format == ".1f"
    seen.calls.clear()
    slider.value = 0.1 + 0.2  # 0.30000000000000004, as a browser slider may send
    assert seen.calls == [{"theta": 0.3}]


def test_live_failure_is_shown_in_the_output_area_not_raised():
    state = {"fail": False}

    def flaky(n):
        if state["fail"]:
            raise RuntimeError("data went away")
        return swatch(n, "x")

    fig = explore(flaky, n=(1, 3, 1), **SMALL)
    (slider,), output = widget_parts(fig)
    state["fail"] = True
    slider.value = 3
    assert output.data == {"text/plain": "ValueError: plot_fn must be a function that draws "
                                         "every state, got flaky raising RuntimeError at the "
                                         "state n=3 (controls n): data went away"}


# --------------------------------------------------------------------------- static control


class StaticParser(HTMLParser):
    """Collect the elements and attributes of the static control."""

    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.scripts, self._script = [], [], [], None
        self.options = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.append((tag, dict(attrs)))
        if tag == "script":
            self._script = [dict(attrs), ""]
        if tag == "option":
            self.options.append(dict(attrs))

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self.scripts.append(tuple(self._script))
            self._script = None


def parse_static(page):
    parser = StaticParser()
    parser.feed(page)
    (data_text,) = [text for attrs, text in parser.scripts
                    if attrs.get("class") == "nbcourse-explore-data"]
    return parser, json.loads(data_text)


def frame_png(uri):
    prefix = "data:image/png;base64,"
    assert uri.startswith(prefix)
    return base64.b64decode(uri[len(prefix):])


def test_static_control_holds_every_state_in_row_major_order():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    parser, data = parse_static(fig.html)
    states = list(itertools.product([1, 2, 3], ["x", "y"]))  # first control slowest
    assert data["sizes"] == [3, 2] and len(data["index"]) == len(states) == 6
    frames = [frame_png(data["frames"][i]) for i in data["index"]]
    assert len(set(frames)) == 6, "every state has its own image"
    for png, (n, kind) in zip(frames, states, strict=True):
        assert_colour(png, n, kind)
    assert data["labels"] == [["1", "2", "3"], ["x", "y"]]


def test_static_control_has_one_input_per_control_and_shows_the_initial_state():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], _initial={"n": 3, "kind": "y"}, **SMALL)
    parser, data = parse_static(fig.html)
    ranges = [a for t, a in parser.attrs if t == "input"]
    selects = [a for t, a in parser.attrs if t == "select"]
    assert [(r["type"], r["min"], r["max"], r["value"], r["data-control"]) for r in ranges] == \
        [("range", "0", "2", "2", "n")]
    assert [s["data-control"] for s in selects] == ["kind"]
    assert [o["value"] for o in parser.options] == ["0", "1"]
    assert "selected" in parser.options[1]
    (img,) = [a for t, a in parser.attrs if t == "img"]
    assert_colour(frame_png(img["src"]), 3, "y")
    assert img["alt"] == "swatch, at n = 3, kind = y"
    assert "figcaption" in parser.tags and "form" in parser.tags


def test_static_control_needs_no_network():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    parser, _ = parse_static(fig.html)
    for tag, attrs in parser.attrs:
        for key in ("src", "href"):
            if key in attrs:
                assert attrs[key].startswith("data:image/png;base64,"), (tag, attrs[key][:40])
    assert all("src" not in attrs for attrs, _ in parser.scripts), "no external script"
    without_images = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", fig.html)
    assert not re.search(r"https?:|//|@import|url\(", without_images)
    assert "cdn" not in without_images.lower()


def test_static_html_is_deterministic_with_content_derived_id():
    page = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL).html
    again = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL).html
    assert page == again
    (ident,) = re.findall(r'id="(nbcourse-explore-[0-9a-f]{12})"', page)
    other = explore(swatch, n=(1, 3, 1), kind=["y", "x"], **SMALL).html
    assert ident not in other


def test_identical_frames_are_stored_once():
    fig = explore(lambda n, kind: swatch(n, "x"), n=(1, 3, 1), kind=["x", "y"], **SMALL)
    _, data = parse_static(fig.html)
    assert len(data["index"]) == 6 and len(data["frames"]) == 3
    assert data["index"] == [0, 0, 1, 1, 2, 2]


def test_static_html_has_no_div_and_a_caption():
    # myst-nb wraps an output in two <div>s; a </div></div> inside would end the cell's
    # output early for tools that look for the figure caption
    fig = explore(swatch, n=(1, 3, 1), kind=["x"], _caption="Red <grows> with n.", **SMALL)
    assert "<div" not in fig.html and "</div>" not in fig.html
    assert "<figcaption>Red &lt;grows&gt; with n.</figcaption>" in fig.html


def test_mime_bundle_outside_a_kernel_has_data_still_and_text():
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    data, metadata = fig._repr_mimebundle_()
    assert set(data) == {"text/plain", EXPLORE, "image/png"}, "the frames once, in the data"
    stored = json.loads(json.dumps(data))  # as a notebook stores it
    assert static_html(stored) == static_html(stored[EXPLORE]) == fig.html
    form = stored[EXPLORE]
    assert form["version"] == 1 and len(form["frames"]) == 6 and len(form["alts"]) == 6
    assert [base64.b64decode(f) for f in form["frames"]] == fig.frames
    assert form["controls"][1] == {"name": "kind", "text": "kind", "kind": "options",
                                   "labels": ["x", "y"]}
    still = base64.b64decode(data["image/png"])
    image = Image.open(io.BytesIO(still))
    assert image.mode == "RGB", "opaque, so it reads in dark mode"
    assert image.size == (60, 45)  # 1 x 0.75 in at 60 dpi
    assert_colour(still, 2, "x")
    assert metadata["image/png"] == {"width": 40, "height": 30}
    assert "run the cell in a live kernel" in data["text/plain"]


def _form(**changes):
    data = dict(explore(swatch, n=(1, 2, 1), kind=["x"], **SMALL).data)
    data.update(changes)
    return {EXPLORE: data}


@pytest.mark.parametrize(("bundle", "error", "words"), [
    ("<figure>", TypeError, "bundle must be a MIME bundle (dict) holding "
                            "'application/vnd.nbcourse.explore+json'"),
    ({"text/html": "<figure></figure>"}, ValueError, "got a bundle of ['text/html']"),
    (lambda: _form(version=0), ValueError, "['version'] must be 1"),
    (lambda: _form(frames="abc"), TypeError, "['frames'] must be list"),
    (lambda: _form(index=[0, 5]), ValueError, "['index'] must point into 'frames'"),
    (lambda: _form(alts=["one"]), ValueError, "one entry per state (2)"),
    (lambda: _form(sizes=[3]), ValueError, "'sizes' and 'initial' must give one entry"),
    (lambda: _form(controls=[{"name": "n"}]), ValueError, "['controls'][0] must be an object"),
])
def test_a_malformed_figure_bundle_says_what_was_expected(bundle, error, words):
    with pytest.raises(error) as info:
        static_html(bundle() if callable(bundle) else bundle)
    assert words in str(info.value)


def in_a_kernel(monkeypatch, live):
    """Make IPython report a shell with a kernel (as in Jupyter), or none (as in a script)."""
    import types

    import IPython

    shell = types.SimpleNamespace(kernel=object()) if live else None
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)


def test_in_a_live_kernel_the_figure_displays_as_controls_and_an_image(monkeypatch):
    in_a_kernel(monkeypatch, True)
    monkeypatch.delenv(interact.STATIC_ENV, raising=False)
    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    assert callable(fig._ipython_display_), "IPython then calls it instead of the bundle"
    data, _ = fig._repr_mimebundle_()
    assert WIDGET_VIEW not in data, "the stored form never carries a widget view"
    monkeypatch.setenv(interact.STATIC_ENV, "static")
    assert not hasattr(fig, "_ipython_display_"), "the book's runner gets the stored form"
    in_a_kernel(monkeypatch, False)
    monkeypatch.delenv(interact.STATIC_ENV)
    assert not hasattr(fig, "_ipython_display_"), "no kernel: the stored form"


def test_a_live_figure_draws_only_the_states_the_reader_reaches(monkeypatch):
    in_a_kernel(monkeypatch, True)
    monkeypatch.delenv(interact.STATIC_ENV, raising=False)
    drawn = []

    def counted(n, kind):
        drawn.append((n, kind))
        return swatch(n, kind)

    fig = explore(counted, n=(1, 3, 1), kind=["x", "y"], _initial={"n": 2}, **SMALL)
    assert drawn == [(2, "x")], "a live kernel shows the first state without drawing all six"
    assert colour_of(base64.b64decode(fig.current[0]["image/png"]))[0] == (RED[2], GREEN["x"], 90)
    assert len(fig.frames) == 6 and "<img" in fig.html, "the stored form, drawn when asked for"
    assert len(drawn) == 1 + 6  # then each state once (the initial one for frame and still)


# --------------------------------------------------------------------------- book and nbval


def test_book_configuration_shows_the_static_control_in_html_and_the_still_in_print():
    from myst_nb.core.render import get_mime_priority

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    sphinx = config["sphinx"]["config"]
    from nbcourse_book.renderer import MimeRenderer

    overrides = [tuple(o) for o in sphinx["nb_mime_priority_overrides"]]
    plugin = list(MimeRenderer.mime_priority_overrides)  # what its entry point adds
    overrides = plugin + overrides
    bundle = {WIDGET_VIEW, EXPLORE, "image/png", "text/plain"}

    def chosen(builder, overrides, bundle=bundle):
        return next(m for m in get_mime_priority(builder, overrides) if m in bundle)

    live = {WIDGET_VIEW, "image/png", "text/plain"}  # an output saved from a live kernel
    assert chosen("html", plugin, live) == WIDGET_VIEW, \
        "without the override the dead widget is shown"
    assert chosen("html", overrides, live) == "image/png"
    for builder in ("html", "dirhtml", "singlehtml", "epub"):
        assert chosen(builder, overrides) == EXPLORE, builder
    assert chosen("latex", overrides) == "image/png"
    assert sphinx["nb_ipywidgets_js"] == {}, "no ipywidgets JavaScript from a CDN"


def test_sanitize_patterns_mask_only_what_may_differ_between_machines(monkeypatch):
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns((ROOT / "tests/nbval_sanitize.cfg").read_text())

    def sanitize(text):
        for regex, replace in patterns:
            text = re.sub(regex, replace, text)
        return text

    def stored(fig):  # the JSON form as nbval compares it (conftest.py)
        return json.dumps(fig.data, sort_keys=True, ensure_ascii=False, indent=1)

    one = stored(explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL))
    monkeypatch.setitem(RED, 1, 90)  # other pixels, as another machine might draw them
    two = stored(explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL))
    assert one != two and sanitize(one) == sanitize(two)
    assert sanitize(one).count('"PNG"') == 6, "the number of frames is still compared"
    three = stored(explore(swatch, n=(1, 2, 1), kind=["x", "y"], **SMALL))
    assert sanitize(three) != sanitize(one), "structure and values are still compared"


def test_nbval_compares_a_json_output_as_text_through_the_sanitize_patterns():
    """conftest.py makes nbval sanitize the project's JSON outputs, which it stores as dicts."""
    import types

    from nbval.plugin import IPyNbCell, get_sanitize_patterns

    patterns = get_sanitize_patterns((ROOT / "tests/nbval_sanitize.cfg").read_text())
    cell = types.SimpleNamespace(parent=types.SimpleNamespace(sanitize_patterns=dict(patterns)))
    data = explore(swatch, n=(1, 2, 1), kind=["x"], **SMALL).data
    text = IPyNbCell.sanitize(cell, json.loads(json.dumps(data)))
    assert isinstance(text, str) and text.count('"PNG"') == 2 and "nbcourse-explore-ID" in text
    assert "swatch, at n = 2, kind = x" in text, "the alt texts (and the rest) are compared"


NOTEBOOK_CODE = [
    """import matplotlib.pyplot as plt
import nbcourse

def swatch(n, kind):
    fig = plt.figure(figsize=(1.0, 0.75))
    fig.patch.set_facecolor((40 * n / 255, {"x": 30, "y": 160}[kind] / 255, 90 / 255))
    return fig

fig = nbcourse.explore(swatch, n=(1, 3, 1), kind=["x", "y"], _dpi=40)
fig""",
    """slider, dropdown = fig.widget.children
slider.value, dropdown.value = 3, "y"
print(len(plt.get_fignums()))""",
    """plt.plot([0, 1])  # a plain figure after the first one that explore drew""",
]


def execute_notebook(directory, figures):
    """Run NOTEBOOK_CODE in a fresh kernel with NBCOURSE_FIGURES=``figures`` (None: unset)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(code) for code in NOTEBOOK_CODE]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    saved = os.environ.pop(interact.STATIC_ENV, None)
    try:
        if figures is not None:
            os.environ[interact.STATIC_ENV] = figures
        NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    finally:
        os.environ.pop(interact.STATIC_ENV, None)
        if saved is not None:
            os.environ[interact.STATIC_ENV] = saved
    path = directory / "explore.ipynb"
    nbformat.write(nb, path)
    return nb, path


@pytest.fixture(scope="module")
def executed_notebook(tmp_path_factory):
    return execute_notebook(tmp_path_factory.mktemp("static"), "static")


@pytest.fixture(scope="module")
def live_notebook(tmp_path_factory):
    return execute_notebook(tmp_path_factory.mktemp("live"), None)


@pytest.mark.notebooks
def test_stored_output_carries_the_static_control_and_the_still(executed_notebook):
    nb, _ = executed_notebook
    outputs = nb.cells[0].outputs
    assert [o.output_type for o in outputs] == ["execute_result"], "no stray figure output"
    data = outputs[0].data
    assert set(data) == {EXPLORE, "image/png", "text/plain"}
    _, static = parse_static(static_html(data))
    assert len(static["index"]) == 6 and len(set(static["index"])) == 6
    assert Image.open(io.BytesIO(base64.b64decode(data["image/png"]))).mode == "RGB"


@pytest.mark.parametrize("run", ["executed_notebook", "live_notebook"])
@pytest.mark.notebooks
def test_later_plain_figures_still_show(run, request):
    """The inline backend, loaded while explore drew, keeps its interactive mode."""
    nb, _ = request.getfixturevalue(run)
    assert any("image/png" in o.get("data", {}) for o in nb.cells[2].outputs), nb.cells[2].outputs


def test_a_live_run_saves_the_figure_in_the_state_the_reader_left(live_notebook):
    """Controls as a widget view; the figure an image output that each move replaced.

    Opened again without a kernel, the widget view has no model, but the image output is
    ordinary data in the file, so the figure still shows, in its last state.
    """
    nb, _ = live_notebook
    controls, figure = nb.cells[0].outputs
    assert controls.output_type == figure.output_type == "display_data"
    model_id = controls.data[WIDGET_VIEW]["model_id"]
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert state[model_id]["model_name"] == "VBoxModel", "the kernel built the live controls"
    assert "run the cell" in controls.data["text/plain"]
    assert set(figure.data) == {"image/png", "text/plain"}
    (r, g, b), _ = colour_of(base64.b64decode(figure.data["image/png"]))
    assert max(abs(r - 40 * 3), abs(g - 160), abs(b - 90)) <= 3, "n = 3, kind = y"
    assert figure.data["text/plain"] == "<swatch, at n = 3, kind = y>", "the state's alt text"
    assert nb.cells[1].outputs[0].text == "0\n", "every figure the kernel drew was closed"


def test_nbval_passes_on_the_stored_outputs(executed_notebook):
    _, path = executed_notebook
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--nbval", "-o", "addopts=",
         "-o", "testpaths=", "--confcutdir", str(path.parent),
         "--nbval-sanitize-with", str(ROOT / "tests/nbval_sanitize.cfg"),
         str(path)], capture_output=True, text=True, cwd=path.parent, timeout=300,
        env={**os.environ, interact.STATIC_ENV: "static"})
    assert run.returncode == 0, run.stdout[-3000:]
    assert "3 passed" in run.stdout


# --------------------------------------------------------------------------- browser


@pytest.mark.browser
def test_moving_a_static_control_changes_the_image_in_chromium(tmp_path):
    skip_or_fail_without_browser()
    from playwright.sync_api import sync_playwright

    fig = explore(swatch, n=(1, 3, 1), kind=["x", "y"], **SMALL)
    _, data = parse_static(fig.html)
    page_file = tmp_path / "explore.html"
    page_file.write_text(f"<!doctype html><html><body>{fig.html}</body></html>")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=BROWSER_ARGS)
        try:
            page = browser.new_page()
            requests, errors = [], []
            page.on("request", lambda r: r.url.startswith("file:") or requests.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            img = page.locator("img.nbcourse-explore-frame")
            assert page.locator("form.nbcourse-explore-controls").is_visible()
            for n_index, kind_index in [(2, 0), (2, 1), (0, 1)]:
                before = img.get_attribute("src")
                page.locator('input[data-control="n"]').fill(str(n_index))
                page.locator('select[data-control="kind"]').select_option(str(kind_index))
                k = n_index * 2 + kind_index
                assert img.get_attribute("src") == data["frames"][data["index"][k]]
                assert img.get_attribute("src") != before
                n, kind = [1, 2, 3][n_index], ["x", "y"][kind_index]
                assert img.get_attribute("alt") == f"swatch, at n = {n}, kind = {kind}"
            assert not requests and not errors
        finally:
            browser.close()


# --------------------------------------------------------------------------- accessibility

SHADE = {0.25: 60, 0.5: 130, 0.75: 200}


def shade(theta_j, K):
    """A flat swatch: red from ``theta_j``, green from ``K``."""
    fig = plt.figure(figsize=(1.0, 0.75))
    fig.patch.set_facecolor((SHADE[theta_j] / 255, (20 * K) / 255, 90 / 255))
    return fig


def test_control_names_read_as_mathematics():
    assert interact.readable_name("theta_j") == "θ_j"
    assert interact.readable_name("pi_1") == "π_1"
    assert interact.readable_name("alpha") == "α"
    assert interact.readable_name("K") == "K"
    fig = explore(shade, theta_j=(0.25, 0.75, 0.25), K=[6, 2, 3, 10],
                  _labels={"K": "number of values K"}, **SMALL)
    assert [c.text for c in fig.controls] == ["θ_j", "number of values K"]
    assert fig.caption == "Interactive figure: move the controls to change θ_j, number of values K."
    parser, _ = parse_static(fig.html)
    assert "<label for=" in fig.html and ">θ_j</label>" in fig.html
    widget_names = [w.description for w in fig.widget.children]
    assert widget_names == ["θ_j", "number of values K"]


def test_numeric_options_are_listed_in_order_with_the_first_written_selected():
    fig = explore(shade, theta_j=(0.25, 0.75, 0.25), K=[6, 2, 3, 10], **SMALL)
    parser, data = parse_static(fig.html)
    assert [o.get("value") for o in parser.options] == ["0", "1", "2", "3"]
    assert data["labels"][1] == ["2", "3", "6", "10"]
    assert ["selected" in o for o in parser.options] == [False, False, True, False]
    assert fig.initial == {"theta_j": 0.5, "K": 6}
    dropdown = fig.widget.children[1]
    assert [label for label, _ in dropdown.options] == ["2", "3", "6", "10"]
    assert dropdown.value == 6


def test_slider_carries_the_shown_value_as_aria_valuetext_and_images_their_size():
    fig = explore(shade, theta_j=(0.25, 0.75, 0.25), K=[2], **SMALL)
    parser, _ = parse_static(fig.html)
    (slider,) = [a for t, a in parser.attrs if t == "input"]
    assert slider["aria-valuetext"] == "0.50"
    (img,) = [a for t, a in parser.attrs if t == "img"]
    assert (img["width"], img["height"]) == ("40", "30")  # 1.0 x 0.75 in at 40 dpi


def test_alt_text_per_state_from_a_description_or_a_function():
    fig = explore(shade, theta_j=(0.25, 0.75, 0.25), K=[2, 3],
                  _alt="Swatch whose red grows with θ_j", **SMALL)
    assert fig.alts[0] == "Swatch whose red grows with θ_j, at θ_j = 0.25, K = 2"
    assert fig.alts[-1] == "Swatch whose red grows with θ_j, at θ_j = 0.75, K = 3"
    fig = explore(shade, theta_j=(0.25, 0.75, 0.25), K=[2, 3],
                  _alt=lambda theta_j, K: f"red {theta_j}, green {K}", **SMALL)
    assert fig.alts == ["red 0.25, green 2", "red 0.25, green 3", "red 0.5, green 2",
                        "red 0.5, green 3", "red 0.75, green 2", "red 0.75, green 3"]
    _, data = parse_static(fig.html)
    assert data["alts"] == fig.alts


@pytest.mark.parametrize("kwargs, error, message", [
    ({"_labels": {"phi": "φ"}}, ValueError,
     "_labels must be a mapping whose keys are control names ['theta_j', 'K'], got 'phi', "
     "which is not a control"),
    ({"_labels": ["θ"]}, TypeError, "_labels must be a mapping of control name to text, got list"),
    ({"_labels": {"K": ""}}, ValueError, "_labels['K'] must be a non-empty str, got ''"),
    ({"_labels": {"K": 2}}, TypeError, "_labels['K'] must be a non-empty str, got 2"),
    ({"_alt": 3}, TypeError, "_alt must be a non-empty str or a callable, got 3"),
    ({"_alt": " "}, ValueError, "_alt must be a non-empty str, got ' '"),
    ({"_alt": lambda **s: None}, TypeError,
     "_alt(theta_j=0.25, K=2) must be a non-empty str, got NoneType None"),
])
def test_bad_labels_and_alt_are_named(kwargs, error, message):
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        explore(shade, theta_j=(0.25, 0.75, 0.25), K=[2], **kwargs, **SMALL)


@pytest.mark.browser
def test_every_control_works_by_keyboard_and_reads_sensibly_in_chromium(tmp_path):
    skip_or_fail_without_browser()
    from playwright.sync_api import sync_playwright

    fig = explore(shade, theta_j=(0.25, 0.75, 0.25), K=[3, 2], _labels={"K": "K"}, **SMALL)
    page_file = tmp_path / "explore.html"
    page_file.write_text(f'<!doctype html><html lang="en"><body>{fig.html}</body></html>',
                         encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=BROWSER_ARGS)
        try:
            page = browser.new_page()
            page.goto(page_file.as_uri())
            img = page.locator("img.nbcourse-explore-frame")
            slider = page.get_by_role("slider", name="θ_j", exact=True)
            dropdown = page.get_by_role("combobox", name="K", exact=True)
            assert slider.get_attribute("aria-valuetext") == "0.50"
            assert dropdown.evaluate("e => e.options[e.selectedIndex].text") == "3"
            # Tab reaches the slider, then the dropdown; arrow keys move each one
            page.keyboard.press("Tab")
            assert slider.evaluate("e => e === document.activeElement")
            seen = []
            for key, theta in [("ArrowRight", "0.75"), ("Home", "0.25")]:
                before = (img.get_attribute("src"), img.get_attribute("alt"))
                page.keyboard.press(key)
                after = (img.get_attribute("src"), img.get_attribute("alt"))
                assert after[0] != before[0] and after[1] != before[1], key
                assert slider.get_attribute("aria-valuetext") == theta
                assert after[1] == f"shade, at θ_j = {theta}, K = 3"
                seen.append(after[0])
            page.keyboard.press("Tab")
            assert dropdown.evaluate("e => e === document.activeElement")
            before = (img.get_attribute("src"), img.get_attribute("alt"))
            page.keyboard.press("ArrowUp")  # options 2, 3: up goes from 3 to 2
            after = (img.get_attribute("src"), img.get_attribute("alt"))
            assert after[0] != before[0] and after[1] == "shade, at θ_j = 0.25, K = 2"
            red, green = colour_of(frame_png(after[0]))[0][:2]
            assert abs(red - SHADE[0.25]) <= 3 and abs(green - 40) <= 3
            snapshot = page.locator("form").aria_snapshot()
            assert 'slider "θ_j"' in snapshot and 'combobox "K"' in snapshot, snapshot
        finally:
            browser.close()
