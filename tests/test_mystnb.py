"""The book's myst-nb MIME render plugin (nbcourse_book.renderer): nodes from the JSON outputs."""

import base64
import importlib
import json
import tomllib
import types
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402
from docutils import nodes  # noqa: E402
from myst_nb.core.render import MimeData, get_mime_priority  # noqa: E402
from nbcourse_book.selfcheck import questions_in  # noqa: E402
from sphinx import addnodes  # noqa: E402

from nbcourse.interact import explore, static_html  # noqa: E402
from nbcourse.mime import EXPLORE, SELFCHECK, TABLE  # noqa: E402
from nbcourse.publish import table_form  # noqa: E402
from nbcourse.selfcheck import choice, number  # noqa: E402
from nbcourse_book import renderer as mystnb  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


class Logger:
    def __init__(self):
        self.warnings = []

    def warning(self, message, **kwargs):
        self.warnings.append(message)


def render(bundle, mime_type, logger=None):
    renderer = types.SimpleNamespace(logger=logger or Logger())
    stored = json.loads(json.dumps(bundle))  # as a notebook stores it
    return mystnb.MimeRenderer.handle_mime(
        renderer, MimeData(mime_type, stored[mime_type], cell_index=3, output_index=0), False)


def square(n):
    fig = plt.figure(figsize=(1.0, 0.75))
    fig.patch.set_facecolor((0.2 * n, 0.5, 0.5))
    return fig


SMALL = {"_figsize": (1.0, 0.75), "_dpi": 40, "_still_dpi": 60}


def test_the_entry_point_names_the_plugin():
    project = tomllib.loads((ROOT / "nbcourse_book" / "pyproject.toml").read_text(encoding="utf-8"))
    (value,) = project["project"]["entry-points"]["myst_nb.mime_renderers"].values()
    module, name = value.split(":")
    assert getattr(importlib.import_module(module), name) is mystnb.MimeRenderer


def test_a_question_renders_as_its_form_in_html_and_as_text_in_print():
    q = choice("Which is larger?", ["0.3", "0.7 < 1"], right=1, feedback=["No.", "Yes."])
    form, printed = render(q._repr_mimebundle_(), SELFCHECK)
    assert isinstance(form, nodes.raw) and form["format"] == "html"
    assert form.astext() == q._repr_html_(), "the markup the book showed from text/html"
    assert form["classes"] == ["output", "text_html"]
    assert isinstance(printed, addnodes.only) and printed["expr"] == "format_latex"
    label, *prompt = printed[0].children
    assert label.astext() == rf"\phantomsection\label{{nbcourse-question:{q.ident}}}"
    assert "".join(n.astext() for n in prompt) == "Self-check: Which is larger?"
    answer = f"nbcourse-answer:{q.ident}"
    assert printed[-1]["format"] == "latex" and printed[-1].astext().startswith(
        rf"\ifcsname r@{answer}\endcsname\par\noindent\hyperref[{answer}]"), \
        "the page of the answer, where the book has the answers page"
    assert [item.astext() for item in printed[1]] == ["0.3", "0.7 < 1"]
    assert "0.7 < 1" not in printed[0].astext() and "Yes." not in printed.astext(), \
        "no answer in print"
    doctree = nodes.container("", form, printed)
    assert questions_in(doctree) == [q], "the answers appendix reads the node"


def test_a_number_question_prints_without_options():
    q = number("2 + 2 = ?", 4)
    form, printed = render(q._repr_mimebundle_(), SELFCHECK)
    prompt, pointer = printed.children
    assert "".join(n.astext() for n in prompt[1:]) == "Self-check: 2 + 2 = ?"
    assert pointer["format"] == "latex" and "Answer: appendix" in pointer.astext()


def test_other_types_and_inline_outputs_are_left_to_myst_nb():
    renderer = types.SimpleNamespace(logger=Logger())
    plain = MimeData("text/html", "<p>x</p>")
    assert mystnb.MimeRenderer.handle_mime(renderer, plain, False) is None
    q = number("2 + 2 = ?", 4)
    inline = MimeData(SELFCHECK, q.to_json())
    assert mystnb.MimeRenderer.handle_mime(renderer, inline, True) is None


def test_a_malformed_output_is_reported_and_left_out():
    logger = Logger()
    bundle = {SELFCHECK: dict(number("2 + 2 = ?", 4).to_json(), kind="essay")}
    assert render(bundle, SELFCHECK, logger) == []
    (warning,) = logger.warnings
    assert "cell 3" in warning and "['kind'] must be 'choice' or 'number'" in warning


def test_the_priorities_show_the_data_in_html_and_the_still_in_print():
    book = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config = [tuple(o) for o in book["sphinx"]["config"]["nb_mime_priority_overrides"]]
    assert "nbcourse_book" in book["sphinx"]["config"]["extensions"]
    overrides = list(mystnb.MimeRenderer.mime_priority_overrides) + config

    def chosen(builder, bundle):
        return next(m for m in get_mime_priority(builder, overrides) if m in bundle)

    question = {SELFCHECK, "text/html", "text/plain"}
    figure = {EXPLORE, "image/png", "text/plain"}
    table = {TABLE, "text/html", "text/plain"}
    for builder in ("html", "dirhtml", "singlehtml", "latex"):
        assert chosen(builder, question) == SELFCHECK, builder
        assert chosen(builder, table) == TABLE, builder
    assert chosen("latex", {"text/html", "text/plain"}) == "text/plain"
    for builder in mystnb.HTML_BUILDERS:
        assert chosen(builder, figure) == EXPLORE, builder
    assert chosen("latex", figure) == "image/png"


def test_a_figure_writes_its_frames_as_files_and_links_them(tmp_path):
    fig = explore(square, n=(1, 3, 1), **SMALL)
    data, _ = fig._repr_mimebundle_()
    (node,) = render(data, EXPLORE)
    assert isinstance(node, mystnb.explore_figure)
    builder = types.SimpleNamespace(outdir=str(tmp_path), imagedir="_images",
                                    imgpath="../_images")
    writer = types.SimpleNamespace(builder=builder, body=[])
    with pytest.raises(nodes.SkipNode):
        mystnb.visit_explore_html(writer, node)
    (page,) = writer.body
    files = sorted((tmp_path / "_images").iterdir())
    assert sorted(f.read_bytes() for f in files) == sorted(fig.frames)
    assert "data:image" not in page and page.count("../_images/nbcourse-frame-") == 4, \
        "three frames in the data and the first again in the image"
    uris = [f"../_images/{f.name}" for f in files]
    by_frame = {f.read_bytes(): u for f, u in zip(files, uris, strict=True)}
    inline = static_html(data[EXPLORE])
    assert page == ('<div class="output text_html">'
                    + static_html(data[EXPLORE], [by_frame[base64.b64decode(f)]
                                                  for f in data[EXPLORE]["frames"]], lazy=True)
                    + "</div>")
    assert inline.count("data:image/png;base64,") == 4
    assert 'class="nbcourse-explore-frame"' in page and 'loading="lazy"' in page, \
        "the book's frame loads when it nears the screen"
    assert 'loading="lazy"' not in inline, "a notebook's own figure loads at once"


HIERARCHICAL = pd.DataFrame(
    [[0.5, -0.25, 1.0], [0.125, 2.0, -3.5], [1.5, 0.0, 4.25]],
    index=pd.MultiIndex.from_tuples([("u", 1), ("u", 2), ("v", 1)], names=["g", "k"]),
    columns=pd.MultiIndex.from_tuples([("A", "s"), ("A", "t"), ("B", "s")]))


def test_a_table_renders_in_html_with_every_header_named():
    shown, printed = render({TABLE: table_form(HIERARCHICAL)}, TABLE)
    page = shown.astext()
    assert shown["format"] == "html" and shown["classes"] == ["output", "text_html"]
    assert page.startswith('<table class="dataframe"><thead>')
    assert "<th></th>" not in page  # an empty header cell is a data cell
    assert '<th colspan="2">A</th>' in page and '<th rowspan="2">u</th>' in page
    assert "<td>-0.25</td>" in page
    assert printed["expr"] == "format_latex"


def test_a_table_prints_as_a_docutils_table_with_its_spans():
    _, printed = render({TABLE: table_form(HIERARCHICAL)}, TABLE)
    (table,) = printed.findall(nodes.table)
    group = table[0]
    assert group["cols"] == 5  # two index levels, three columns
    assert "colwidths-given" not in table["classes"], "Sphinx sizes the columns"
    head, body = group.findall(nodes.thead), group.findall(nodes.tbody)
    head, body = next(head), next(body)
    rows = [[entry.astext() for entry in row] for row in body]
    # "u" spans two rows, so the second row starts under it; minus signs are U+2212
    assert rows == [["u", "1", "0.500", "\u22120.25", "1.00"],
                    ["2", "0.125", "2.00", "\u22123.50"],
                    ["v", "1", "1.500", "0.00", "4.25"]]
    assert body[0][0]["morerows"] == 1 and "morerows" not in body[2][0]
    first = head[0]
    assert [e.astext() for e in first] == ["", "", "A", "B"]
    assert first[2]["morecols"] == 1 and "morecols" not in first[3]
    # ragged-right columns, none narrower than the longest word, "0.500": five digits and one
    assert [n.astext() for n in printed.findall(nodes.raw)] == [
        r"\begingroup\small\newcolumntype{T}{L}\setlength{\tabcolsep}{5pt}"
        r"\setlength{\tymin}{6\fontcharwd\font`0 }", r"\endgroup"]


@pytest.mark.parametrize("rows", [mystnb.LONGTABLE_ROWS - 1, mystnb.LONGTABLE_ROWS])
def test_only_a_table_longer_than_a_page_of_rows_gets_equal_columns(rows):
    frame = pd.DataFrame({"x": range(rows), "words": ["a label of several words"] * rows})
    _, printed = render({TABLE: table_form(frame)}, TABLE)
    (table,) = printed.findall(nodes.table)
    long = rows + 1 > mystnb.LONGTABLE_ROWS  # the head row counts, as in Sphinx
    assert ("colwidths-given" in table["classes"]) == long
    assert [c["colwidth"] for c in table.findall(nodes.colspec)] == [1, 1, 1]


def test_a_malformed_table_is_reported_and_left_out():
    logger = Logger()
    form = table_form(HIERARCHICAL)
    form["body"][1] = ["0.5"]
    assert render({TABLE: form}, TABLE, logger) == []
    (warning,) = logger.warnings
    assert "body row 1 must be a list of cells" in warning
