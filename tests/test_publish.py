"""nbcourse.publish: what chapters store for their prose and their tables, and nbval's view of it.

The last tests execute a small notebook that glues a computed float and a count, store its
outputs, and run nbval on it with the book's sanitize file: it passes as stored, and fails
when a stored value is changed in its third significant digit or a count by one.
"""

import json
import math
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nbcourse.calibration import PairedBootstrap
from nbcourse.evaluation import TInterval
from nbcourse.mime import TABLE
from nbcourse.publish import (
    AGREEMENT_FLOOR,
    SIGNIFICANT_DIGITS,
    glue,
    stable,
    table_form,
    verdict,
    within,
)

ROOT = Path(__file__).resolve().parent.parent
finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


def test_stable_rounds_floats_to_eight_significant_digits():
    assert SIGNIFICANT_DIGITS == 8
    assert stable(0.2366960491666734) == 0.23669605
    assert stable(1.1823485419111726) == stable(1.182348541910002) == 1.1823485
    assert stable(-6.886091763576365) == -6.8860918
    assert stable(12345.678901) == 12345.679
    assert stable(6.765380073933953e-19) == 6.7653801e-19


def test_stable_removes_the_noise_that_decides_a_displayed_tie():
    # 0.02025 and 3.025 lie on a rounding boundary of four decimals; their computed values
    # land on either side of it depending on the processor.
    below, above = 0.020249999999999997, 0.020250000000000004
    assert round(below, 4) != round(above, 4)
    assert round(stable(below), 4) == round(stable(above), 4)
    assert stable(3.024999999999999) == stable(3.025) == 3.025


def test_stable_keeps_what_is_not_a_float():
    for value in (7, True, np.int64(3), "0.123456789123", None, np.bool_(False)):
        assert stable(value) is value
    counts = np.arange(5)
    assert stable(counts) is counts
    assert stable(0.0) == 0.0 and math.isnan(stable(float("nan")))
    assert stable(float("-inf")) == float("-inf")
    assert type(stable(np.float64(0.1))) is float


def test_stable_rounds_inside_arrays_containers_and_tables():
    array = np.array([[1 / 3, 2 / 3], [1.0, 1e-20 / 3]], dtype=np.float32)
    out = stable(array, digits=3)
    assert out.dtype == np.float32 and out.shape == (2, 2)
    np.testing.assert_array_equal(out, np.array([[0.333, 0.667], [1.0, 3.33e-21]], np.float32))
    assert stable([1 / 3, (2 / 3, 5)], digits=2) == [0.33, (0.67, 5)]
    assert stable({"a": 1 / 7}, digits=4) == {"a": 0.1429}
    table = pd.DataFrame({"share": [1 / 3, 0.5], "n": [3, 4], "name": ["x", "y"]})
    rounded = stable(table, digits=2)
    assert rounded["share"].tolist() == [0.33, 0.5]
    assert rounded["n"].tolist() == [3, 4] and rounded["name"].tolist() == ["x", "y"]
    assert stable(pd.Series([2 / 3]), digits=1).tolist() == [0.7]


@pytest.mark.parametrize("digits", [0, 18, 2.5, True, "8"])
def test_stable_names_a_bad_number_of_digits(digits):
    with pytest.raises(ValueError, match=r"digits must be an integer from 1 to 17, got"):
        stable(0.5, digits=digits)


@given(finite)
def test_stable_is_within_half_a_unit_of_the_last_kept_digit_and_idempotent(x):
    y = stable(x)
    assert stable(y) == y
    assert abs(y - x) <= 0.5e-7 * abs(x) * (1 + 1e-12)


def test_within_gives_the_smallest_power_of_ten_at_or_above():
    assert AGREEMENT_FLOOR == 1e-12
    assert within(2.220446049250313e-16) == 1e-12
    assert within(0.0) == 1e-12
    assert within(3.664938952319119e-07) == within(3.6627185062698686e-07) == 1e-06
    assert within(1e-6) == 1e-6
    assert within(1.0000001e-6) == 1e-5
    assert within(-0.02) == 0.1
    assert within([1e-3, -0.02, 0.0]) == 0.1
    assert within(np.array([[5.0]])) == 10.0
    assert within(3e-9, floor=1e-6) == 1e-6


@given(st.floats(min_value=1e-11, max_value=1e200))
def test_within_is_a_power_of_ten_that_bounds_the_difference(x):
    bound = within(x)
    k = round(math.log10(bound))
    assert bound == float(f"1e{k}")
    assert x <= bound and (float(f"1e{k - 1}") < x or bound == AGREEMENT_FLOOR)


@pytest.mark.parametrize("difference, floor, message", [
    ([], 1e-12, "difference must be finite numbers"),
    (float("nan"), 1e-12, "difference must be finite numbers"),
    ([1.0, np.inf], 1e-12, "difference must be finite numbers"),
    (1e-3, 0.0, "floor must be a positive number"),
    (1e-3, "1e-12", "floor must be a positive number"),
])
def test_within_names_bad_input(difference, floor, message):
    with pytest.raises(ValueError, match=message):
        within(difference, floor=floor)


def test_glue_stores_the_rounded_value_through_myst_nb(monkeypatch):
    import myst_nb

    stored = []
    monkeypatch.setattr(myst_nb, "glue",
                        lambda name, value, display=True: stored.append((name, value, display)))
    assert glue("share", np.float64(0.29629629629629634)) is None
    glue("count", 4851, display=True)
    assert stored == [("share", 0.2962963, False), ("count", 4851, True)]
    assert repr(stored[0][1]) == "0.2962963"


def test_glue_without_myst_nb_returns_the_value_and_stores_nothing(monkeypatch):
    monkeypatch.setitem(sys.modules, "myst_nb", None)
    assert glue("share", 1 / 3) is None


@pytest.mark.parametrize("name", ["", "two words", 3, "1st"])
def test_glue_names_a_bad_key(name):
    with pytest.raises(ValueError, match="name must be a Python identifier"):
        glue(name, 1.0)


# --- verdicts ------------------------------------------------------------------------

LOSS_WORDS = ("beats", "ties with", "loses to")


@pytest.mark.parametrize(("interval", "word"), [
    ((-0.3, -0.01), "beats"), ((0.01, 0.3), "loses to"), ((-0.01, 0.02), "ties with"),
    ((0.0, 0.02), "ties with"), ((-0.02, 0.0), "ties with"), (-0.5, "beats"), (0.0, "ties with"),
    (2.5, "loses to"), ([np.float64(-2.0), np.float64(-1.0)], "beats"),
])
def test_verdict_reads_where_the_interval_lies_around_zero(interval, word):
    assert verdict(interval, LOSS_WORDS) == word


def test_verdict_reads_the_intervals_the_library_computes():
    tie = TInterval(mean=0.004, se=0.003, low=-0.002, high=0.01, df=19, confidence=0.95,
                    corrected=True)
    win = PairedBootstrap(difference=-0.05, low=-0.08, high=-0.02, confidence=0.95, n_boot=500)
    assert verdict(tie, LOSS_WORDS) == "ties with"
    assert verdict(win, LOSS_WORDS) == "beats"
    assert verdict(win) == "below"


@given(st.floats(-1e6, 1e6), st.floats(0, 1e6))
def test_verdict_is_a_tie_exactly_when_zero_is_inside(centre, half):
    low, high = centre - half, centre + half
    word = verdict((low, high), LOSS_WORDS)
    assert (word == "ties with") == (low <= 0 <= high)
    assert verdict((-high, -low), LOSS_WORDS) == {"beats": "loses to", "loses to": "beats",
                                                  "ties with": "ties with"}[word]


@pytest.mark.parametrize(("interval", "words", "message"), [
    ((0.2, 0.1), LOSS_WORDS, "low <= high"),
    ((float("nan"), 0.1), LOSS_WORDS, "finite real ends"),
    ("0.1", LOSS_WORDS, "interval must be a number"),
    ((1, 2, 3), LOSS_WORDS, "interval must be a number"),
    (True, LOSS_WORDS, "interval must be a number"),
    (0.1, ("beats", "loses to"), "words must be three"),
    (0.1, "abc", "words must be three"),
    (0.1, ("beats", "", "loses to"), "words must be three"),
])
def test_verdict_names_bad_input(interval, words, message):
    with pytest.raises(ValueError, match=message):
        verdict(interval, words)


# --- nbval keeps failing on a real change ----------------------------------------------

CELLS = [
    "import numpy as np\nfrom nbcourse import glue",
    "x = np.random.default_rng(0).random((200, 50))\n"
    "w = np.linspace(-1, 1, 50)\n"
    "score = float(np.log1p(np.exp(x @ w)).mean())\n"
    "glue('score', score)\nglue('n_high', int((x @ w > 0).sum()))",
    "print(f'mean log(1 + e^s) = {score:.4f}')",
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """A notebook glueing a float that sums 10,000 products and a count, run and stored."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    return nb, tmp_path_factory.mktemp("nbval")


def _stored(nb, name):
    for output in nb.cells[1].outputs:
        if output.get("metadata", {}).get("scrapbook", {}).get("name") == name:
            return output
    raise AssertionError(f"{name} not glued")


def _perturbed(nb, name, change):
    copy = nbformat.reads(nbformat.writes(nb), as_version=4)
    data = _stored(copy, name)["data"]
    key = "application/papermill.record/text/plain"
    data[key] = change(data[key])
    return copy, data[key]


@pytest.mark.notebooks
def test_nbval_passes_the_stored_values_and_fails_a_changed_one(executed):
    """One nbval run over three copies: as stored, a float changed in its third significant
    digit, and a count changed by one.  Only the two changed copies fail, each at the cell
    that glued the value, naming the stored value it rejects."""
    nb, folder = executed
    stored = _stored(nb, "score")["data"]["application/papermill.record/text/plain"]
    assert len(stored.replace("0.", "", 1).lstrip("0")) <= SIGNIFICANT_DIGITS
    copies = {
        "as-stored": (nb, None),
        "third-digit": _perturbed(nb, "score", lambda v: f"{float(v) * 1.001:.8g}"),
        "count": _perturbed(nb, "n_high", lambda v: str(int(v) + 1)),
    }
    paths = []
    for label, (copy, _) in copies.items():
        paths.append(folder / f"{label}.ipynb")
        nbformat.write(copy, paths[-1])
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--rootdir", str(folder), "--confcutdir", str(folder), "-c", os.devnull, "-rf",
         "--nbval", "--nbval-sanitize-with",
         str(ROOT / "tests" / "nbval_sanitize.cfg"), *(p.name for p in paths)],
        cwd=folder, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1, run.stdout[-3000:]
    assert "2 failed, 7 passed" in run.stdout, run.stdout[-3000:]
    failed = set(re.findall(r"^FAILED (\S+::Cell \d+)", run.stdout, re.MULTILINE))
    assert failed == {"third-digit.ipynb::Cell 1", "count.ipynb::Cell 1"}, run.stdout[-3000:]
    for label in ("third-digit", "count"):
        assert copies[label][1] in run.stdout  # the rejected stored value is named


class PandasCells(HTMLParser):
    """The cells of pandas' own notebook HTML, read here only to compare with the table form."""

    def __init__(self):
        super().__init__()
        self.head, self.body, self.part, self.cell = [], [], None, None

    def handle_starttag(self, tag, attrs):
        if tag in ("thead", "tbody"):
            self.part = self.head if tag == "thead" else self.body
        elif tag == "tr" and self.part is not None:
            self.part.append([])
        elif tag in ("th", "td") and self.part is not None:
            self.cell = {"text": ""}
            if tag == "th":
                self.cell["th"] = True
            self.cell.update((k, int(v)) for k, v in attrs if k in ("colspan", "rowspan"))

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cell is not None:
            self.cell["text"] = self.cell["text"].strip().replace("\xa0", " ")
            self.part[-1].append(self.cell)
            self.cell = None
        elif tag in ("thead", "tbody"):
            self.part = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data


def pandas_cells(html):
    parser = PandasCells()
    parser.feed(html)
    dimensions = re.search(r"<p>(.*?)</p>", html)
    return parser.head, parser.body, dimensions.group(1) if dimensions else ""


rng = np.random.default_rng(7)
FRAMES = {
    "floats and a named index": pd.DataFrame(
        {"p": [0.25, 1 / 3, 2e-7], "count": [3, 40, 500], "name": ["a<b", "c & d", "e"]},
        index=pd.Index(["x", "y", "z"], name="row")),
    "hierarchical rows and columns": pd.DataFrame(
        rng.random((4, 3)), index=pd.MultiIndex.from_product([["u", "v"], [1, 2]],
                                                             names=["g", "k"]),
        columns=pd.MultiIndex.from_tuples([("A", "s"), ("A", "t"), ("B", "s")])),
    "missing values and negatives": pd.DataFrame({"d": [-0.5, np.nan, 1.25]}),
    "shortened: many rows": pd.DataFrame({"v": np.arange(100) / 7}),
    "shortened: many columns": pd.DataFrame(rng.random((2, 40))),
}


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_the_table_form_holds_the_cells_pandas_shows(name):
    frame = FRAMES[name]
    form = table_form(frame)
    assert form["version"] == 1
    assert (form["head"], form["body"], form["dimensions"]) == pandas_cells(frame._repr_html_())


def test_the_table_form_follows_the_display_precision():
    frame = pd.DataFrame({"p": [1 / 3]})
    with pd.option_context("display.precision", 3):
        assert table_form(frame)["body"][0][1]["text"] == "0.333"


def test_a_shortened_table_says_its_size():
    form = table_form(FRAMES["shortened: many rows"])
    assert form["dimensions"] == "100 rows \u00d7 1 columns"
    assert any(cell["text"] == "..." for row in form["body"] for cell in row)


@pytest.mark.parametrize("bad", [[[1, 2]], pd.Series([1.0]), "table"])
def test_table_form_names_bad_input(bad):
    with pytest.raises(TypeError, match="frame must be a pandas DataFrame, got"):
        table_form(bad)


def test_ipython_shows_a_dataframe_with_its_table_form_once_nbcourse_is_imported():
    code = (
        "import json, pandas as pd\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "frame = pd.DataFrame({'p': [0.5]})\n"
        "before = sorted(shell.display_formatter.format(frame)[0])\n"
        "import nbcourse\n"
        "data = shell.display_formatter.format(frame)[0]\n"
        f"print(json.dumps([before, sorted(data), data.get('{TABLE}')]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    before, after, form = json.loads(done.stdout.strip().splitlines()[-1])
    assert before == ["text/html", "text/plain"]
    assert after == sorted([TABLE, "text/html", "text/plain"])
    assert form == table_form(pd.DataFrame({"p": [0.5]}))


def stored_tables():
    """(notebook, cell index, output data) of every stored output that holds a pandas table."""
    from conftest import toc_files

    for doc in toc_files():
        path = ROOT / f"{doc}.ipynb"
        if not path.is_file():
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            for output in cell.get("outputs", []):
                html = "".join(output.get("data", {}).get("text/html", ""))
                if 'class="dataframe' in html:
                    yield path.relative_to(ROOT).as_posix(), index, output["data"]


def test_every_table_of_the_book_is_stored_with_its_table_form():
    tables = list(stored_tables())
    assert len(tables) >= 50, "the book's chapters show pandas tables"
    for where, index, data in tables:
        assert TABLE in data, f"{where}, cell {index}: a table without its form (re-run it)"
        form = data[TABLE]
        html = "".join(data["text/html"])
        assert (form["head"], form["body"], form["dimensions"]) == pandas_cells(html), \
            f"{where}, cell {index}: the table form and the table pandas showed differ"
