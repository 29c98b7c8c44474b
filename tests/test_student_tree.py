"""The student tree (``make student``) and the Binder environment it ships with."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import types
import urllib.parse
from pathlib import Path

import nbformat
import pytest
import yaml
from docutils.utils.smartquotes import smartyPants
from myst_nb.core.variables import format_plain_text as myst_format_plain_text

from conftest import toc_files
from nbcourse.grading.assignment import student_files
from nbcourse_book import build as bst
from nbcourse_book import notebooks as studentnb

ROOT = Path(__file__).resolve().parent.parent

PIN = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#]+)")


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := PIN.match(line):
            found[m.group(1).lower().replace("_", "-")] = m.group(2)
    return found


# --------------------------------------------------------------------------- Binder environment

def test_every_binder_pin_equals_the_root_pin():
    root, binder = pins(ROOT / "requirements.txt"), pins(ROOT / "binder" / "requirements.txt")
    assert binder, "binder/requirements.txt pins nothing"
    differ = {name: (version, root.get(name)) for name, version in binder.items()
              if root.get(name) != version}
    assert not differ, f"binder pin differs from the root pin (binder, root): {differ}"


def test_postbuild_pins_equal_the_root_pins_and_install_the_package():
    text = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    root = pins(ROOT / "requirements.txt")
    installed = re.findall(r"([A-Za-z0-9_.-]+)==([^\s]+)", text)
    assert installed, "postBuild pins nothing"
    for name, version in installed:
        assert root.get(name.lower()) == version, f"postBuild pins {name}=={version}, root pins {root.get(name.lower())}"
    assert re.search(r"pip install .*--no-deps -e \.$", text, re.M), "postBuild does not install nbcourse"


def test_binder_environment_leaves_out_the_book_and_test_tools():
    binder = set(pins(ROOT / "binder" / "requirements.txt"))
    for tool in ("jupyter-book", "sphinx", "jupyter-cache", "sqlalchemy", "pytest", "nbval", "coverage"):
        assert tool not in binder, f"{tool} is a build/test tool and does not belong on Binder"
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == (ROOT / "runtime.txt").read_text().strip()



def test_the_lab_extra_pins_what_the_tests_run_jupyterlab_with():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = pins(ROOT / "requirements.txt") | pins(ROOT / "requirements-dev.txt")
    lab = dict(PIN.match(line).groups() for line in project["optional-dependencies"]["lab"])
    assert {"jupyterlab", "ipykernel"} <= set(lab)
    differ = {name: (version, dev.get(name)) for name, version in lab.items()
              if dev.get(name) != version}
    assert not differ, f"the lab extra differs from the pins the tests use (extra, pin): {differ}"
    loose = [d for d in project["dependencies"] if "<" not in d]
    assert not loose, f"dependencies without an upper bound: {loose}"

# --------------------------------------------------------------------------- the tree

@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return bst.build_student_tree(tmp_path_factory.mktemp("student") / "student", ROOT)


def chapters():
    return toc_files()


def markdown_of(nb) -> str:
    return "\n\n".join(c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                       for c in nb["cells"] if c["cell_type"] == "markdown")


def source_markdown(doc: str) -> str:
    for suffix in (".ipynb", ".md"):
        path = ROOT / f"{doc}{suffix}"
        if path.is_file():
            if suffix == ".md":
                return path.read_text(encoding="utf-8")
            return markdown_of(json.loads(path.read_text(encoding="utf-8")))
    raise AssertionError(f"no source for {doc}")


@pytest.mark.parametrize("doc", chapters())
def test_chapter_has_no_myst_left(tree, doc):
    nb = nbformat.read(tree / f"{doc}.ipynb", as_version=4)
    nbformat.validate(nb)
    md = markdown_of(nb)
    for raw in ("{glue", "```{", ":::{", "{doc}", "{eq}", "{numref}", "{cite", "{prf:",
                "{assignment}", "{ref}", "{bibliography}"):
        assert raw not in md, f"{doc}: {raw!r} left in the student notebook"
    assert not re.search(r"^\(\S+\)=\s*$", md, re.M), f"{doc}: a MyST target is left"


@pytest.mark.parametrize("doc", chapters())
def test_every_glued_value_is_shown(tree, doc):
    src_path = ROOT / f"{doc}.ipynb"
    if not src_path.is_file():
        assert "{glue" not in source_markdown(doc)
        return
    src = json.loads(src_path.read_text(encoding="utf-8"))
    stored = {}
    for cell in src["cells"]:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                stored[name] = {k.rsplit("/", 2)[-2] + "/" + k.rsplit("/", 1)[-1]: v
                                for k, v in out["data"].items()}
    md = markdown_of(nbformat.read(tree / f"{doc}.ipynb", as_version=4))
    # solutions are removed from the student tree, so the values glued in them are not shown
    shown_text = SOLUTION_BLOCK.sub("", markdown_of(src)) + json.dumps(
        [c.get("metadata", {}) for c in src["cells"] if c["cell_type"] == "code"])
    refs = re.findall(r"\{glue:(text|md)\}`([^`]+)`", shown_text)
    assert refs or "{glue" not in markdown_of(src), f"{doc}: glued values go unchecked"
    for kind, ref in refs:
        key, _, fmt = ref.partition(":")
        if kind == "text":
            expected = myst_format_plain_text("".join(stored[key]["text/plain"]), fmt)
        else:
            expected = "".join(stored[key]["text/markdown"]).strip()
        expected = smartyPants(expected, "qDe")  # quotes and dashes as Sphinx typesets text
        assert expected in md, f"{doc}: glued {key!r} should show {expected!r}"


SOLUTION_BLOCK = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution\}[ \t]*(?P<label>\S+)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                            re.M | re.S)
EXERCISE_OPEN = re.compile(r"^(?:`{3,}|:{3,})\{exercise\}", re.M)


def note_for(number: int) -> str:
    return (f"*Solution to Exercise {number}: not in this notebook; it is on the Solutions page "
            f"of the HTML book and in the Solutions appendix of the PDF edition.*")


def exercise_numbers() -> dict[str, list[int]]:
    """The numbers of each chapter's exercises: the book counts them through _toc.yml."""
    numbers, n = {}, 0
    for doc in chapters():
        found = len(EXERCISE_OPEN.findall(source_markdown(doc)))
        numbers[doc] = list(range(n + 1, n + found + 1))
        n += found
    return numbers


def solution_lines(doc: str) -> list[str]:
    """Runs of plain prose (no maths, roles or code) from the chapter's solutions that appear
    nowhere else in the chapter."""
    source = source_markdown(doc)
    outside = SOLUTION_BLOCK.sub("", source)
    runs = []
    for block in SOLUTION_BLOCK.finditer(source):
        for line in block["body"].splitlines():
            if re.match(r"^\s*:\w+:", line):  # a directive option
                continue
            for run in re.split(r"\$[^$]*\$|\{[^}]*\}`[^`]*`|`[^`]*`|\*\*?|[()]", line):
                run = run.strip(" ,.;:-")
                if len(run) >= 25 and not re.search(r"[{}`$\\]", run) and run not in outside:
                    runs.append(run)
    return runs


def test_the_book_has_exercises_with_solutions():
    with_solutions = [doc for doc in chapters() if SOLUTION_BLOCK.search(source_markdown(doc))]
    assert len(with_solutions) >= 8, with_solutions
    assert all(solution_lines(doc) for doc in with_solutions), "no prose to look for in a solution"


@pytest.mark.parametrize("doc", chapters())
def test_solution_text_is_removed_and_each_exercise_keeps_its_note(tree, doc):
    source = source_markdown(doc)
    md = markdown_of(nbformat.read(tree / f"{doc}.ipynb", as_version=4))
    left = [line for line in solution_lines(doc) if line in md]
    assert not left, f"{doc}: solution text left in the student notebook: {left[:3]}"
    # a chapter's collapsible detail boxes stay <details>; a folded solution would not
    assert "<summary>Solution" not in md and "Solution to Exercise" not in md.replace(
        "*Solution to Exercise", ""), f"{doc}: a solution is still folded in"
    numbers = exercise_numbers()[doc]
    shown = [int(n) for n in re.findall(r"^\*\*Exercise (\d+)[ .(]", md, re.M)]
    assert shown == numbers, f"{doc}: exercises shown {shown}, the book numbers them {numbers}"
    solved = [b["label"] for b in SOLUTION_BLOCK.finditer(source)]
    assert len(solved) == len(numbers), f"{doc}: every exercise here has a solution in the book"
    for n in numbers:
        assert md.count(note_for(n)) == 1, f"{doc}: exercise {n} has no note saying where its solution is"
        assert md.index(f"**Exercise {n}") < md.index(note_for(n))


@pytest.mark.parametrize("doc", chapters())
def test_maths_outside_solutions_is_kept(tree, doc):
    source = SOLUTION_BLOCK.sub("", source_markdown(doc))
    md = markdown_of(nbformat.read(tree / f"{doc}.ipynb", as_version=4))
    assert md.count("$$") == source.count("$$")
    for block in re.findall(r"\$\$(.*?)\$\$", md, re.S):
        assert not re.search(r"^\s*>", block, re.M), f"{doc}: display maths carries a quote marker"
    labelled = re.findall(r"\$\$[ \t]*\(([^)\s]+)\)", source)
    assert md.count("\\tag{") == len(labelled)


def test_the_solutions_page_says_where_the_solutions_are(tree):
    md = markdown_of(nbformat.read(tree / "book/solutions.ipynb", as_version=4))
    assert "on this page in the HTML book and in the Solutions appendix of the PDF edition" in md
    assert "{solutions}" not in md and "<blockquote>" not in md


def test_the_answers_page_lists_every_self_check_question_with_its_answer(tree):
    """Counted from the chapters' stored HTML (the forms' data-key), not by the tree's code."""
    keys = []
    for nb_path in sorted((ROOT / "book").rglob("*.ipynb")):
        for cell in nbformat.read(nb_path, as_version=4).cells:
            for out in cell.get("outputs", []):
                page = out.get("data", {}).get("text/html", "")
                keys += re.findall(r'class="nbcourse-selfcheck"[^>]*data-kind="(\w+)"', page)
    assert len(keys) >= 20
    md = markdown_of(nbformat.read(tree / "book/answers.ipynb", as_version=4))
    assert "{selfcheck-answers}" not in md
    assert md.count("**Answer:**") == len(keys)


def _asks_a_question(cell) -> bool:
    return any("nbcourse-selfcheck" in out.get("data", {}).get("text/html", "")
               for out in cell.get("outputs", []))


@pytest.mark.parametrize("doc", chapters())
def test_no_medium_shows_the_code_that_holds_a_questions_answer(tree, doc):
    """A cell that stores a self-check question has its code removed from the book (HTML and
    PDF: the ``remove-input`` tag) and collapsed in the student notebook."""
    src_path = ROOT / f"{doc}.ipynb"
    if not src_path.is_file():
        return
    book_cells = [c for c in nbformat.read(src_path, as_version=4).cells if _asks_a_question(c)]
    shown = [c.source.splitlines()[0] for c in book_cells
             if "remove-input" not in c.metadata.get("tags", [])]
    assert not shown, f"{doc}: questions whose code the book shows: {shown}"
    student = [c for c in nbformat.read(tree / f"{doc}.ipynb", as_version=4).cells
               if _asks_a_question(c)]
    assert len(student) == len(book_cells)
    open_code = [c.source.splitlines()[0] for c in student
                 if not c.metadata.get("jupyter", {}).get("source_hidden")]
    assert not open_code, f"{doc}: questions whose code the student notebook shows: {open_code}"



def student_notebooks(tree):
    return sorted([*tree.glob("book/**/*.ipynb"), *tree.glob("exercises/*/*.ipynb")])


def _run_colab_cell(source, on_colab):
    """Run the cell's code as IPython would, with a stand-in shell; return the magics it ran."""
    from IPython.core.inputtransformer2 import TransformerManager

    calls = []

    class Shell:
        def run_line_magic(self, name, line):
            calls.append((name, line))

    saved = sys.modules.get("google.colab")
    if on_colab:
        sys.modules["google.colab"] = types.ModuleType("google.colab")
    else:
        sys.modules.pop("google.colab", None)
    try:
        exec(TransformerManager().transform_cell(source), {"get_ipython": Shell})
    finally:
        sys.modules.pop("google.colab", None)
        if saved is not None:
            sys.modules["google.colab"] = saved
    return calls


def test_every_student_notebook_installs_the_package_on_colab_and_nowhere_else(tree):
    url = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    notebooks = student_notebooks(tree)
    assert len([p for p in notebooks if "exercises" in p.parts]) == len(
        [p for p in (ROOT / "exercises").iterdir() if p.is_dir()])
    for path in notebooks:
        cells = nbformat.read(path, as_version=4).cells
        code = [c for c in cells if c.cell_type == "code"]
        if not code:
            continue
        first = code[0]
        assert "colab-install" in first.metadata.get("tags", []), f"{path}: no Colab cell first"
        assert _run_colab_cell(first.source, on_colab=False) == [], f"{path}: acts off Colab"
        assert _run_colab_cell(first.source, on_colab=True) == [
            ("pip", f'install --quiet "nbcourse @ git+{url.rstrip("/")}@{bst.STUDENT_BRANCH}"')]


def test_the_tree_packages_each_assignments_public_tests_and_no_hidden_one(tree):
    for folder in (ROOT / "exercises").iterdir():
        if folder.is_dir():
            packaged = tree / "nbcourse" / "public_tests" / folder.name
            assert (packaged / "tests.py").read_bytes() == (folder / "tests.py").read_bytes()
            assert sorted(p.name for p in packaged.iterdir()) == ["tests.py"]


@pytest.mark.slow
@pytest.mark.network
def test_the_student_package_installs_from_git_and_runs_a_chapter_and_an_assignment(
        tree, tmp_path, monkeypatch):
    """As a student on Colab or their own machine: pip installs the package from the student
    branch (a local git address here), a chapter runs, and an assignment copied away from the
    tree finds its public tests in the installed package."""
    import venv

    from nbclient import NotebookClient

    repo = tmp_path / "published"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "start"],
                   check=True)
    bst.commit_tree(tree, bst.STUDENT_BRANCH, repo=repo)
    env_dir = tmp_path / "student-env"
    venv.create(env_dir, with_pip=True)
    env = {"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    kernel = f"ipykernel=={pins(ROOT / 'requirements.txt')['ipykernel']}"
    done = subprocess.run(["python", "-m", "pip", "install", "--quiet",
                           f"git+file://{repo}@{bst.STUDENT_BRANCH}", kernel],
                          cwd=tmp_path, capture_output=True, text=True, timeout=1200, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    probe = "import importlib.util as u; print([u.find_spec(m) is None for m in ('nbcourse_book', 'sphinx')])"
    done = subprocess.run([str(env_dir / "bin" / "python"), "-c", probe], cwd=tmp_path,
                          capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "[True, True]", "the student package brings the book's build"
    kernels = tmp_path / "jupyter" / "kernels" / "student-env"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [str(env_dir / "bin" / "python"), "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"], "display_name": "student", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.delenv("NBCOURSE_FIGURES", raising=False)

    chapter = nbformat.read(tree / "book/part1/02_linear_discriminant.ipynb", as_version=4)
    NotebookClient(chapter, kernel_name="student-env", timeout=600,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in chapter.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, f"{errors[0]['ename']}: {errors[0]['evalue']}"

    name = "07-smoothing"
    away = tmp_path / "colab-content"  # no exercises folder anywhere above it
    away.mkdir()
    assignment = nbformat.read(tree / "exercises" / name / f"{name}.ipynb", as_version=4)
    assignment.cells.append(nbformat.v4.new_code_cell('check("q1")'))
    NotebookClient(assignment, kernel_name="student-env", timeout=600, allow_errors=True,
                   resources={"metadata": {"path": str(away)}}).execute()
    shown = "".join(o.get("text", "") for o in assignment.cells[-1].outputs)
    assert shown.startswith("q1 — "), f"check('q1') printed {shown!r}"
    assert "needs the course repository" not in shown

@pytest.mark.parametrize("bad", [0, -1, 1.0, True, "3"])
def test_solution_note_refuses_what_is_not_an_exercise_number(bad):
    with pytest.raises(ValueError, match="number: expected the exercise's number"):
        studentnb.solution_note(bad)


STUDENT_FIGURE = re.compile(r'<a id="([^"]+)"></a>\*Fig\. (\d+)\.\*')
STUDENT_EQUATION = re.compile(r'<a id="equation-([^"]+)"></a>\s*\$\$.*?\\tag\{(\d+)\}\s*\$\$', re.S)
STUDENT_EXERCISE = re.compile(r'<a id="([^"]+)"></a>\n\*\*Exercise (\d+)[ .(]')


def test_figure_equation_and_exercise_numbers_equal_the_html_books(tree):
    """Every numbered figure, equation and exercise of the notebooks, found on the HTML page."""
    html = ROOT / "_build" / "html"
    if not (html / "book").is_dir():
        pytest.skip("the HTML book is not built here; `make book` builds it")
    wrong, seen = [], 0
    for doc in chapters():
        md = markdown_of(nbformat.read(tree / f"{doc}.ipynb", as_version=4))
        page = (html / f"{doc}.html").read_text(encoding="utf-8")
        for pattern, shown in ((STUDENT_FIGURE, r'caption-number">Fig\. (\d+)'),
                               (STUDENT_EQUATION, r'class="eqno">\((\d+)\)'),
                               (STUDENT_EXERCISE, r'Exercise (\d+)')):
            for label, n in pattern.findall(md):
                ident = ("equation-" if pattern is STUDENT_EQUATION else "") + label
                m = re.search(rf'id="{re.escape(ident)}".*?{shown}', page, re.S)
                seen += 1
                if not m or m.group(1) != n:
                    wrong.append((doc, label, n, m and m.group(1)))
    assert seen >= 50, f"only {seen} numbered items found in the notebooks"
    assert not wrong, f"(document, label, student notebook, HTML book): {wrong}"


def test_a_reference_and_a_figure_caption_read_as_in_the_book(tree):
    nb = nbformat.read(tree / "book/part1/02_linear_discriminant.ipynb", as_version=4)
    md = markdown_of(nb)
    assert "[Theorem 1](#thm-duda-linear)" in md
    assert "<blockquote>\n\n<a id=\"thm-duda-linear\"></a>\n**Theorem 1 (" in md
    assert re.search(r"\[Eq\. \d+\]\(#equation-eq-duda-", md), "equation references read as in the book"
    first_fig = next(c for c in nb["cells"] if c["cell_type"] == "code"
                     and c["metadata"].get("mystnb", {}).get("figure"))
    after = nb["cells"][nb["cells"].index(first_fig) + 1]
    assert after["cell_type"] == "markdown" and after["source"].lstrip().split("</a>")[-1].startswith("*Fig. ")


def test_relative_links_resolve_inside_the_tree(tree):
    broken = []
    for path in sorted(tree.rglob("*.ipynb")):
        md = markdown_of(json.loads(path.read_text(encoding="utf-8")))
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", md):
            if "://" in target:
                continue
            if not (path.parent / target).resolve().is_file():
                broken.append((str(path.relative_to(tree)), target))
    assert not broken, broken


def test_assignments_hold_only_student_files(tree):
    for folder in sorted((ROOT / "exercises").iterdir()):
        if not folder.is_dir():
            continue
        shipped = sorted(p.name for p in (tree / "exercises" / folder.name).iterdir())
        assert shipped == sorted(p.name for p in student_files(folder))
        assert shipped == [f"{folder.name}.ipynb", "tests.py"]
    assert not list(tree.rglob("solution.ipynb"))
    assert not list(tree.rglob("hidden_tests.py"))
    assert not list(tree.rglob("rubric.yml")), "the rubrics of the written answers are instructors'"
    assert not list(tree.rglob("*BEGIN SOLUTION*"))
    assert not list(tree.rglob("question_bank*")) and not list(tree.rglob("lecture_outlines*"))
    for nb in tree.joinpath("exercises").rglob("*.ipynb"):
        assert "# BEGIN SOLUTION" not in nb.read_text(encoding="utf-8"), nb


def test_tree_holds_what_binder_needs_and_no_instructor_tools(tree):
    for needed in ("binder/requirements.txt", "binder/postBuild", "binder/runtime.txt",
                   "pyproject.toml", "nbcourse/__init__.py", "README.md", "book/intro.ipynb"):
        assert (tree / needed).is_file(), needed
    for absent in ("tests", "tools", "nbcourse_book", "requirements-dev.txt", "_config.yml", "book/intro.md",
                   "instructor", "instructor/question_bank.yml"):
        assert not (tree / absent).exists(), absent
    from test_package import BUILD_ONLY, imported_modules

    build_code = [p.relative_to(tree).as_posix() for p in tree.rglob("*.py")
                  if imported_modules(p) & set(BUILD_ONLY)]
    assert not build_code, f"files of the student tree that import the book's build: {build_code}"


def test_out_inside_the_repository_root_is_refused():
    with pytest.raises(ValueError, match="out"):
        bst.build_student_tree(ROOT, ROOT)


@pytest.mark.book
def test_command_line_writes_the_tree(tmp_path):
    out = tmp_path / "s"
    done = subprocess.run([sys.executable, "-m", "nbcourse_book.build", "student", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (out / "book/part2/04_experiments.ipynb").is_file()


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def test_commit_tree_records_the_tree_on_a_branch_and_leaves_the_checkout_alone(tree, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "course@example.org")
    _git(repo, "config", "user.name", "Course")
    (repo / "solution.ipynb").write_text("{}")
    _git(repo, "add", "solution.ipynb")
    _git(repo, "commit", "-q", "-m", "instructor material")
    head = _git(repo, "rev-parse", "HEAD").strip()

    first = bst.commit_tree(tree, "student", repo=repo)
    files = set(_git(repo, "ls-tree", "-r", "--name-only", "student").split())
    assert "book/part1/01_discrete_features.ipynb" in files
    assert "binder/postBuild" in files and "solution.ipynb" not in files
    assert not any(f.endswith("/solution.ipynb") for f in files)
    assert _git(repo, "rev-parse", "HEAD").strip() == head
    assert _git(repo, "status", "--porcelain").strip() == ""

    mode = _git(repo, "ls-tree", "student", "binder/postBuild").split()[0]
    assert mode == "100755", "postBuild must stay executable"

    assert bst.commit_tree(tree, "student", repo=repo) == first, "an unchanged tree"
    assert _git(repo, "rev-list", "--count", "student").strip() == "1", "adds no commit"

    changed = tmp_path / "changed"
    shutil.copytree(tree, changed)
    (changed / "README.md").write_text("another edition\n", encoding="utf-8")
    second = bst.commit_tree(changed, "student", repo=repo)
    assert second != first and _git(repo, "rev-parse", f"{second}^").strip() == first
    assert _git(repo, "show", "student:README.md") == "another edition\n"


LAUNCH = re.compile(r'href="(https://mybinder\.org/v2/gh/([^/"]+/[^/"]+)/([^?"]+)\?urlpath=lab/tree/'
                    r'([^"]+)|https://colab\.research\.google\.com/github/([^/"]+/[^/"]+)/blob/'
                    r'([^/"]+)/([^"]+))"')


def launch_links(html_root):
    """(page, repository, branch, path) of every Binder and Colab link of the built book."""
    found = []
    for page in sorted(html_root.rglob("*.html")):
        for match in LAUNCH.finditer(page.read_text(encoding="utf-8")):
            binder = match.group(2) is not None
            repo, branch, path = match.group(*((2, 3, 4) if binder else (5, 6, 7)))
            found.append((page.relative_to(html_root).as_posix(), repo, branch,
                          urllib.parse.unquote(path.replace("&amp;", "&"))))
    return found


@pytest.mark.slow
def test_the_student_edition_links_only_files_of_the_student_branch(tree, tmp_path):
    """``make book BRANCH=student``: after a build for main, an incremental build for the
    student branch makes every launch link (chapters' buttons, assignments, the line after a
    chapter's exercises) open a file that the student branch holds."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "course@example.org")
    _git(repo, "config", "user.name", "Course")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "start")
    bst.commit_tree(tree, "student", repo=repo)
    published = set(_git(repo, "ls-tree", "-r", "--name-only", "student").split())
    slug = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"][
        "url"].removeprefix("https://github.com/").rstrip("/")
    work = tmp_path / "book"
    for branch in ("main", "student"):
        done = bst.run_jupyter_book(ROOT, "html", "--path-output", str(work), branch=branch,
                                    capture=True)
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        links = launch_links(work / "_build" / "html")
        assert {b for _, _, b, _ in links} == {branch}, sorted({b for _, _, b, _ in links})
    assert {r for _, r, _, _ in links} == {slug}
    missing = sorted({(page, path) for page, _, _, path in links if path not in published})
    assert not missing, f"launch links to files the student branch lacks: {missing[:5]}"
    paths = {path for _, _, _, path in links}
    assignments = {f"exercises/{p.name}/{p.name}.ipynb" for p in (ROOT / "exercises").iterdir()
                   if p.is_dir()}
    assert assignments <= paths, sorted(assignments - paths)
    notebooks = {f"{doc}.ipynb" for doc in chapters() if (ROOT / f"{doc}.ipynb").is_file()}
    assert notebooks <= paths, sorted(notebooks - paths)
    badge = re.search(r"\((https://mybinder\.org/v2/gh/[^)]+)\)", (tree / "README.md").read_text())
    assert badge, "the student tree's README has no Binder badge"
    assert badge.group(1) == (f"https://mybinder.org/v2/gh/{slug}/student"
                              f"?urlpath=lab/tree/book/intro.ipynb")
    assert "book/intro.ipynb" in published


def test_a_branch_to_build_for_must_be_a_branch_name(tmp_path):
    with pytest.raises(ValueError, match="branch: expected a branch name"):
        bst.run_jupyter_book(ROOT, "html", "--path-output", str(tmp_path), branch="-x --y")


def test_commit_tree_rejects_a_bad_branch_name(tree, tmp_path):
    with pytest.raises(ValueError, match="branch"):
        bst.commit_tree(tree, "../main", repo=tmp_path)


@pytest.mark.slow
@pytest.mark.network
def test_binder_environment_runs_every_student_chapter(tree, tmp_path, monkeypatch):
    """A fresh environment built as Binder builds it (binder/requirements.txt, then postBuild)
    runs every chapter of the student tree; the kernel is that environment's Python."""
    import venv

    from nbclient import NotebookClient

    env_dir = tmp_path / "binder-env"
    venv.create(env_dir, with_pip=True)
    path = f"{env_dir / 'bin'}:/usr/bin:/bin"
    for command in (["python", "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
                    ["bash", "binder/postBuild"]):
        done = subprocess.run(command, cwd=tree, capture_output=True, text=True, timeout=1200,
                              env={"PATH": path, "HOME": str(tmp_path)})
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    kernels = tmp_path / "jupyter" / "kernels" / "binder-env"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [str(env_dir / "bin" / "python"), "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"], "display_name": "Binder environment", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    # as on Binder: explorable figures live (first state drawn, controls), not the book's
    # stored form that the session's NBCOURSE_FIGURES=static asks for
    monkeypatch.delenv("NBCOURSE_FIGURES", raising=False)
    for doc in chapters():
        nb = nbformat.read(tree / f"{doc}.ipynb", as_version=4)
        if not any(c["cell_type"] == "code" for c in nb["cells"]):
            continue
        NotebookClient(nb, kernel_name="binder-env", timeout=600,
                       resources={"metadata": {"path": str((tree / doc).parent)}}).execute()
        errors = [o for c in nb["cells"] for o in c.get("outputs", []) if o["output_type"] == "error"]
        assert not errors, f"{doc}: {errors[0]['ename']}: {errors[0]['evalue']}"

# --------------------------------------------------------------------------- a small book

TINY_CONFIG = """\
title: t
only_build_toc_files: true
execute:
  execute_notebooks: "off"
parse:
  myst_enable_extensions: [amsmath, dollarmath, colon_fence]
sphinx:
  extra_extensions: [sphinx_proof, sphinx_exercise, nbcourse_book]
  config:
    numfig: true
    math_numfig: true
    math_eqref_format: "Eq. {number}"
"""

TINY_CHAPTER = """\
# Ch

A {term}`one-hot` code and {term}`the model <Product of Bernoullis>`; see {prf:ref}`thm-a`,
{eq}`eq-b` and {doc}`intro`.

$$
y = 2x
$$ (eq-b)

```{prf:theorem} Sum
:label: thm-a

Two and two make four.
```

```{exercise}
:label: ex-a

How many?
```

::::{solution} ex-a
:class: dropdown
The secret answer is seven, as this code shows:

```python
x = 7
```
::::

kept

```{glossary}
One-hot
  K bits, one per value; see {term}`product of Bernoullis`.

Product of Bernoullis
  K independent bits.
```
"""


def tiny_book(root: Path, chapter: str = TINY_CHAPTER) -> Path:
    """A book of a front page with one exercise and one chapter whose markdown is ``chapter``."""
    (root / "book").mkdir(parents=True)
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nparts:\n"
                                   "  - caption: P\n    chapters:\n      - file: book/ch\n")
    (root / "_config.yml").write_text(TINY_CONFIG)
    (root / "book" / "intro.md").write_text("# Intro\n\n```{exercise}\n:label: ex-0\n\nFirst.\n```\n")
    (root / "book" / "ch.md").write_text(chapter)
    return root


@pytest.mark.book
def test_the_builder_writes_what_sphinx_resolved_and_no_solution(tmp_path):
    built = bst.student_notebooks(tiny_book(tmp_path / "src"), tmp_path / "work")
    md = markdown_of(json.loads((built / "book/ch.ipynb").read_text(encoding="utf-8")))
    assert "A [one-hot](#term-One-hot) code and [the model](#term-Product-of-Bernoullis)" in md
    assert "[Theorem 1](#thm-a)" in md and "[Eq. 1](#equation-eq-b)" in md
    assert "[Intro](intro.ipynb)" in md
    assert '<a id="equation-eq-b"></a>\n\n$$\ny = 2x\n\\tag{1}\n$$' in md
    assert '<blockquote>\n\n<a id="thm-a"></a>\n**Theorem 1 (Sum).**\n\nTwo and two make four.' in md
    # the front page's exercise is Exercise 1: numbers run through the book
    assert '<a id="ex-a"></a>\n**Exercise 2.** How many?' in md
    assert note_for(2) in md and md.index("**Exercise 2") < md.index(note_for(2)) < md.index("kept")
    assert "secret" not in md and "x = 7" not in md and "<summary>" not in md
    assert ('<a id="term-One-hot"></a>**One-hot**: K bits, one per value; see '
            "[product of Bernoullis](#term-Product-of-Bernoullis).") in md
    assert "{term}" not in md and "{glossary}" not in md and "```{" not in md


@pytest.mark.book
def test_a_term_missing_from_the_glossary_fails_the_build(tmp_path):
    root = tiny_book(tmp_path / "src", TINY_CHAPTER.replace("{term}`one-hot`", "{term}`naive Bayes`"))
    expected = r"studentnb failed \(exit 1\):\n.*ch.md:3: WARNING: term not in glossary: 'naive Bayes'"
    with pytest.raises(RuntimeError, match=expected):
        bst.student_notebooks(root, tmp_path / "work")
