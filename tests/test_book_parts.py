"""Each part of the build package (nbcourse_book) on a tiny Sphinx project, with sphinx.testing:
seconds each, not a book build.  The full book is checked by test_book, test_print, test_pdf,
test_student_tree and the browser tests."""

import json
import re
from io import StringIO
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from sphinx.testing.util import SphinxTestApp

from nbcourse.mime import SELFCHECK, TABLE
from nbcourse.publish import table_form
from nbcourse.selfcheck import choice
from nbcourse_book import HANDLERS, POST_TRANSFORMS, mathml

pytestmark = pytest.mark.book  # each builds a tiny book (seconds), not make check's Python alone
CONF = """\
extensions = ["myst_nb", "sphinx_exercise", "sphinxext.opengraph", "nbcourse_book"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
nb_execution_mode = "off"
html_theme = "sphinx_book_theme"
html_theme_options = {{"repository_url": "https://github.com/org/course",
                      "repository_branch": "main",
                      "launch_buttons": {{"binderhub_url": "https://mybinder.org",
                                         "notebook_interface": "jupyterlab"}}}}
html_math_renderer = {math!r}
numfig = True
project = "tiny"
root_doc = "index"
exclude_patterns = ["_build", "exercises"]
"""


def notebook(*cells):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language":
                                                           "python", "display_name": "Python 3"}})
    nb.cells = [nbformat.v4.new_markdown_cell(c) if isinstance(c, str) else c for c in cells]
    return nbformat.writes(nb)


@pytest.fixture
def project(tmp_path):
    """``project(files, builder, **overrides)`` builds the files (name -> text) of a project
    that loads the book's extension; it returns the app, whose ``warnings`` are its warnings."""
    apps = []

    def build(files, builder="html", math=None, extensions=(), **overrides):
        src = tmp_path / "src"
        src.mkdir(exist_ok=True)
        conf = CONF.format(math=math) + f"extensions += {list(extensions)!r}\n"
        for name, text in {"conf.py": conf, **files}.items():
            data = text if isinstance(text, bytes) else text.encode("utf-8")
            path = src / name
            if not path.is_file() or path.read_bytes() != data:  # a later build is incremental
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
        warnings = StringIO()
        app = SphinxTestApp(builder, srcdir=src, builddir=tmp_path / "_build",
                            confoverrides=overrides, status=StringIO(), warning=warnings)
        apps.append(app)
        app.build()
        app.warnings = re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue())
        return app

    yield build
    for app in apps:
        app.cleanup()


def page(app, name="index"):
    return (Path(app.outdir) / f"{name}.html").read_text(encoding="utf-8")


def test_setup_states_the_order_of_every_handler_and_transform_once():
    handlers = [handler for _, _, handler in HANDLERS]
    assert len(handlers) == len(set(handlers))
    assert all(when in (400, 900) for _, when, _ in HANDLERS)
    transforms = [transform for _, transform in POST_TRANSFORMS]
    assert len(transforms) == len(set(transforms))
    package = Path(__file__).resolve().parents[1] / "nbcourse_book" / "src" / "nbcourse_book"
    elsewhere = [path.name for path in package.glob("*.py") if path.name != "__init__.py"
                 and re.search(r"default_priority|app\.connect\(",
                               path.read_text(encoding="utf-8"))]
    assert not elsewhere, f"handler order stated outside setup(): {elsewhere}"


# --- launch links ----------------------------------------------------------------------------

EXERCISE = notebook("# Homework")


def test_an_assignment_link_follows_the_branch_after_an_incremental_build(project):
    files = {"index.md": "# Home\n\nDo {assignment}`hw1`.\n",
             "exercises/hw1/hw1.ipynb": EXERCISE}
    first = page(project(files))
    assert ('href="https://mybinder.org/v2/gh/org/course/main?urlpath=lab/tree/'
            'exercises/hw1/hw1.ipynb"') in first
    options = {"repository_url": "https://github.com/org/course", "repository_branch": "student",
               "launch_buttons": {"notebook_interface": "classic"}}
    app = project(files, html_theme_options=options)
    assert "index" not in app.status.getvalue().split("reading sources")[1].split("\n")[0], \
        "the page is not read again"
    second = page(app)
    assert ('href="https://mybinder.org/v2/gh/org/course/student?urlpath=tree/'
            'exercises/hw1/hw1.ipynb"') in second
    assert "/main?" not in second.split('role="main"')[1]


def test_an_assignment_without_a_student_notebook_is_an_error(project):
    app = project({"index.md": "# Home\n\nDo {assignment}`nowhere`.\n"})
    assert "assignment 'nowhere': no student notebook at exercises/nowhere/nowhere.ipynb" \
        in app.warnings


CHAPTER = notebook("# Chapter\n\n:::{exercise}\n:label: ex-one\n\nAdd.\n:::\n\n"
                   ":::{solution} ex-one\nTwo.\n:::\n\nAfter.\n")


def test_a_chapter_with_solutions_links_its_live_notebook_after_the_last(project):
    app = project({"index.md": "# Home\n\n```{toctree}\nch\nsolutions\n```\n",
                   "ch.ipynb": CHAPTER, "solutions.md": "# Solutions\n\n```{solutions}\n```\n"})
    chapter = page(app, "ch").split('role="main"')[1]
    note = re.search(r'class="nbcourse-student-version">(.*?)</p>', chapter, re.S)
    assert note and "https://mybinder.org/v2/gh/org/course/main?urlpath=lab/tree/ch.ipynb" \
        in note.group(1)
    assert chapter.index("Two.") < chapter.index("nbcourse-student-version") < \
        chapter.index("After.")
    solutions = page(app, "solutions")
    assert "Two." in solutions and "nbcourse-student-version" not in solutions
    assert 'id="solutions-ch"' in solutions


# --- HTML pages ------------------------------------------------------------------------------

PAGE = """\
# Home

Counts of $\\theta_j$.

```python
import os
name = "text" + os.sep
```

![A square](square.png)
"""


def test_pages_defer_scripts_describe_themselves_in_unicode_and_carry_less_markup(project):
    png = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x07\x00\x00\x00\x05\x08\x02\x00"
           b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00IEND\xaeB`\x82")  # 7 x 5 pixels
    text = page(project({"index.md": PAGE, "square.png": png}))
    head = text.split("</head>")[0]
    extensions = [s for s in re.findall(r"<script\b[^>]*>", head) if "_static/" in s
                  and not re.search(r"searchtools|language_data|searchindex", s)]
    blocking = [s for s in extensions if "defer" not in s and "async" not in s
                and "documentation_options" not in s]
    assert len(extensions) >= 4 and not blocking, blocking
    description = re.search(r'<meta name="description" content="([^"]+)"', text).group(1)
    assert "θ_j" in description and "\\" not in description
    assert re.search(r'<img alt="A square" height="5" (loading="lazy" )?src="[^"]+" width="7"',
                     text)
    assert "image-reference" not in text, "a sized image is not a link to its file"
    code = re.search(r'<div class="highlight"><pre>(.*?)</pre>', text, re.S).group(1)
    assert '<span class="k">import</span>' in code
    assert not re.search(r'<span class="[np]">', code), code


def test_a_page_loads_each_script_once(project):
    """Sphinx (7.4) lists sphinx-togglebutton's selector twice; the page keeps one copy."""
    scripts = re.findall(r"<script\b[^>]*>.*?</script>", page(project(
        {"index.md": "# Home\n\nText.\n"}, extensions=["sphinx_togglebutton"])), re.S)
    assert any("togglebuttonSelector" in s for s in scripts), "sphinx-togglebutton's selector"
    assert len(scripts) == len(set(scripts)), [s for s in scripts if scripts.count(s) > 1]


# --- mathematics -----------------------------------------------------------------------------

needs_temml = pytest.mark.skipif(not (mathml.TEMML / mathml.LIBRARY).is_file(),
                                 reason="Temml is not installed: make nbcourse_book/node_modules")


@needs_temml
def test_mathematics_is_mathml_core_with_numbers_and_no_script(project):
    app = project({"index.md": "# Home\n\nInline $\\boldsymbol\\theta_1$, $\\mathbb{R}$ and "
                               "$\\stackrel{?}{=}$.\n\n$$\na^2\n$$ (eq-a)\n\nSee {eq}`eq-a`.\n"},
                  math="bookmath")
    text = page(app)
    formulas = re.findall(r"<math\b.*?</math>", text, re.S)
    assert len(formulas) == 4, "one <math> per formula"
    assert formulas[0].startswith('<math class="math"><semantics><msub><mi>\U0001D73D</mi>'), \
        "bold theta as its mathematical letter (U+1D73D)"
    assert "\u211D" in formulas[1], "double-struck R as its letter"
    assert "mathvariant" not in text.replace('mathvariant="normal"', ""), \
        "letters styled by an attribute MathML Core does not know"
    assert not re.search(r"<(mi|mn|mo|mtext)\b[^>]*>[^<]*<(?!/)", text), "a token holds markup"
    tex = [re.search(r'<annotation encoding="application/x-tex">(.*?)</annotation>', f, re.S)
           for f in formulas]
    assert [t[1].strip() for t in tex] == ["\\boldsymbol\\theta_1", "\\mathbb{R}",
                                           "\\stackrel{?}{=}", "a^2"]
    assert re.search(r'<div class="math" id="equation-eq-a">\s*'
                     r'<span class="eqno">\(1\)<a class="headerlink" href="#equation-eq-a"', text)
    assert re.search(r'</span><math display="block" class="tml-display"', text)
    assert "katex" not in text.lower()
    assert 'src="_static/temml/copy-tex.min.js' in text
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', text)
    assert not [s for s in scripts if "temml" in s and "copy-tex" not in s], scripts


@needs_temml
def test_mathematics_temml_cannot_typeset_stops_the_build(project):
    with pytest.raises(Exception, match=r"Temml cannot typeset '\\\\frac\{1\}'"):
        project({"index.md": "# Home\n\n$\\frac{1}$\n"}, math="bookmath")


# --- stylesheet ------------------------------------------------------------------------------

needs_purgecss = pytest.mark.skipif(
    not (mathml.PROJECT / "node_modules" / "purgecss").is_dir(),
    reason="PurgeCSS is not installed: make nbcourse_book/node_modules")


@needs_purgecss
def test_every_page_links_one_purged_stylesheet(project):
    app = project({"index.md": "# Home\n\nText.\n"}, nbcourse_css_bundle=True)
    links = re.findall(r'<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"', page(app))
    assert [link.split("?")[0] for link in links] == ["_static/nbcourse-bundle.css"]
    bundle = (Path(app.outdir) / "_static" / "nbcourse-bundle.css").read_text(encoding="utf-8")
    assert ".bd-sidebar-primary" in bundle and ".accordion-button" not in bundle


# --- print -----------------------------------------------------------------------------------

def test_print_moves_solutions_to_an_appendix_with_page_pointers(project):
    app = project({"index.md": "# Home\n\nFront text.\n\n## Aim\n\nA.\n\n## Aside\n\n"
                               "```{toctree}\nch\nrefs\nsolutions\n```\n",
                   "ch.ipynb": CHAPTER, "refs.md": "# References\n",
                   "solutions.md": "```{raw} latex\n\\appendix\n```\n\n# Solutions\n\n"
                                   "```{solutions}\n```\n"}, builder="latex",
                  extensions=["sphinx_jupyterbook_latex"])
    tex = (Path(app.outdir) / "tiny.tex").read_text(encoding="utf-8")
    assert re.search(r"\\documentclass\[[^]]*\]\{nbcoursebook\}", tex)
    assert r"\chapter*{Introduction}" in (Path(app.outdir) / "nbcoursebook.cls").read_text()
    assert re.findall(r"\\sphinxstylestrong\{\\(\w+) (Aim|Aside)\}", tex) == [
        ("Large", "Aim"), ("Large", "Aside")], "the front page's headings sized by depth"
    label = re.search(r"\\hyperref\[(nbcourse-solution:[\w-]+)\]\{\\emph\{Solution: appendix",
                      tex).group(1)
    assert tex.index(label) < tex.index(r"\appendix") < tex.index(
        rf"\phantomsection\label{{{label}}}") < tex.index("Two.")
    assert tex.count("Two.") == 1, "the solution is printed once, in the appendix"
    assert r"\chapter{References}" not in tex, "an empty chapter is dropped"


def test_a_gathering_page_is_read_again_at_every_build(project):
    """So that the HTML builder, which writes the pages read again and those older than their
    source, writes the Solutions page again when a chapter changes."""
    files = {"index.md": "# Home\n\n```{toctree}\nch\nsolutions\n```\n", "ch.ipynb": CHAPTER,
             "solutions.md": "# Solutions\n\n```{solutions}\n```\n"}
    project(files)
    files["ch.ipynb"] = CHAPTER.replace("Two.", "Three.")
    app = project(files)
    read = re.findall(r"reading sources\.\.\. \S* ?\[\s*\d+%\] \S*?(\w+)\W*$",
                      re.sub(r"\x1b\[[0-9;]*m", "", app.status.getvalue()), re.M)
    assert sorted(read) == ["ch", "solutions"], read
    assert "Three." in page(app, "solutions")


def table_cell(frame):
    return nbformat.v4.new_code_cell("frame", outputs=[nbformat.v4.new_output(
        "display_data", data={TABLE: table_form(frame), "text/plain": "frame"})])


def test_print_leaves_a_table_s_columns_and_spans_to_sphinx(project):
    grouped = pd.DataFrame(
        [[0.5, -0.25], [0.125, 2.0], [1.5, 0.0]], columns=["a mean", "a long column label"],
        index=pd.MultiIndex.from_tuples([("u", 1), ("u", 2), ("v", 1)], names=["g", "k"]))
    long = pd.DataFrame({"x": range(40), "words": ["a label of several words"] * 40})
    app = project({"index.md": "# Home\n\n```{toctree}\nch\n```\n",
                   "ch.ipynb": notebook("# Chapter", table_cell(grouped), table_cell(long))},
                  builder="latex")
    tex = (Path(app.outdir) / "tiny.tex").read_text(encoding="utf-8")
    short, longer = tex.split(r"\begin{longtable}")
    # Sphinx sizes the short table's columns (tabulary's T) and spans "u" over two rows
    assert r"\begin{tabulary}{\linewidth}[t]{TTTT}" in short.replace("|", "")
    assert r"\sphinxmultirow{2}" in short and r"\X{" not in short
    assert r"\setlength{\tymin}{7\fontcharwd\font`0 }" in short, "its longest word: column"
    assert "\u22120.25" in short, "a minus sign keeps to its digits"
    # a table Sphinx sets as a longtable shares the line equally, so its texts break
    assert longer.startswith(r"{\X{1}{3}\X{1}{3}\X{1}{3}}")


# --- self-check questions and the answers page -----------------------------------------------

def question_cell(question):
    """A code cell whose stored output is ``question`` as the notebook saves it."""
    return nbformat.v4.new_code_cell("q", outputs=[nbformat.v4.new_output(
        "display_data", data=json.loads(json.dumps(question._repr_mimebundle_())))])


def test_a_question_renders_its_form_and_the_answers_page_lists_it(project):
    question = choice("Which is larger?", ["0.3", "0.7"], right=1, feedback=["No.", "Yes."])
    cell = question_cell(question)
    app = project({"index.md": "# Home\n\n```{toctree}\nch\nanswers\n```\n",
                   "ch.ipynb": notebook("# Chapter", cell),
                   "answers.md": "# Answers\n\n```{selfcheck-answers}\n```\n"})
    assert f'id="{question.ident}"' in page(app, "ch")
    answers = page(app, "answers")
    assert f'href="ch.html#{question.ident}">(the question)</a>' in answers
    assert "<strong>Answer: </strong>" in answers and "0.7" in answers
    assert SELFCHECK not in answers


def test_a_printed_question_points_to_the_page_of_its_answer(project):
    """LaTeX: the question and its answer label each other; the pointer to the answer is
    printed once LaTeX knows the answer's label, so only where the book has the answers page."""
    question = choice("Which is larger?", ["0.3", "0.7"], right=1, feedback=["No.", "Yes."])
    cell = question_cell(question)
    app = project({"index.md": "# Home\n\n```{toctree}\nch\nanswers\n```\n",
                   "ch.ipynb": notebook("# Chapter", cell),
                   "answers.md": "# Answers\n\n```{selfcheck-answers}\n```\n"},
                  builder="latex")
    tex = (Path(app.outdir) / "tiny.tex").read_text(encoding="utf-8")
    back, answer = (f"nbcourse-{kind}:{question.ident}" for kind in ("question", "answer"))
    assert rf"\phantomsection\label{{{back}}}" in tex
    assert rf"\ifcsname r@{answer}\endcsname\par\noindent\hyperref[{answer}]" in tex
    assert rf"\phantomsection\label{{{answer}}}" in tex
    assert rf"\hyperref[{back}]{{(question on page~\pageref*{{{back}}})}}" in tex
    assert tex.index(back) < tex.index(r"\chapter{Answers}") < tex.rindex(back)


# --- student notebooks -----------------------------------------------------------------------

def test_student_notebooks_link_the_assignment_file_and_leave_out_solutions(project):
    app = project({"index.md": "# Home\n\n```{toctree}\nch\nsolutions\n```\n",
                   "ch.ipynb": CHAPTER.replace("After.", "Do {assignment}`hw1`."),
                   "exercises/hw1/hw1.ipynb": EXERCISE,
                   "solutions.md": "# Solutions\n\n```{solutions}\n```\n"}, builder="studentnb")
    chapter = json.loads((Path(app.outdir) / "ch.ipynb").read_text(encoding="utf-8"))
    markdown = "\n".join(c["source"] for c in chapter["cells"] if c["cell_type"] == "markdown")
    assert "[`exercises/hw1`](exercises/hw1/hw1.ipynb)" in markdown
    assert "mybinder" not in markdown and "Two." not in markdown
    solutions = json.loads((Path(app.outdir) / "solutions.ipynb").read_text(encoding="utf-8"))
    assert "Two." not in json.dumps(solutions)
    assert "on this page in the HTML book" in solutions["cells"][0]["source"]


def test_student_notebooks_keep_a_quote_and_a_code_block(project):
    app = project({"index.md": "# Home\n\n> A quoted line.\n\n```python\nx = 1\n```\n"},
                  builder="studentnb")
    cells = json.loads((Path(app.outdir) / "index.ipynb").read_text(encoding="utf-8"))["cells"]
    markdown = "\n".join(c["source"] for c in cells)
    assert "> A quoted line." in markdown and "```python\nx = 1\n```" in markdown


@pytest.mark.parametrize("text, expected", [
    ("A line.[^a]\n\n[^a]: A note.\n", "an inline footnote_reference node ('1')"),
    ("Some <sup>raised</sup> text.\n", "an inline raw node ('<sup>')")])
def test_a_kind_of_node_the_student_notebooks_do_not_write_is_an_error(project, text, expected):
    """The writer handles the kinds of node the book uses; any other is named, never dropped."""
    with pytest.raises(ValueError, match=re.escape(f"index: no Markdown is written for {expected}")):
        project({"index.md": "# Home\n\n" + text}, builder="studentnb")
