"""Student versions of the chapter notebooks: solutions removed, linked from every chapter."""

import re
import subprocess
import sys
import urllib.parse

import nbformat
import pytest
from conftest import ROOT, toc_files

sys.path.insert(0, str(ROOT / "tools"))
from student_notebooks import NOTE, strip_solutions, student_version  # noqa: E402

EXERCISE = "```{exercise}\n:label: ex-a\n\nHow many?\n```"


def test_solution_block_is_replaced_by_a_note():
    text = f"Intro.\n\n{EXERCISE}\n\n```{{solution}} ex-a\n:class: dropdown\n\nSeven.\n```\n\nAfter."
    assert strip_solutions(text) == f"Intro.\n\n{EXERCISE}\n\n{NOTE}\n\nAfter."


def test_colon_fence_and_nested_fences_are_removed_whole():
    text = "::::{solution} ex-a\nSee:\n\n```python\nx = 1\n```\n\n::::\nkept"
    assert strip_solutions(text) == f"{NOTE}\nkept"


def test_a_longer_fence_is_not_closed_by_a_shorter_one():
    text = "````{solution} ex-a\n```{math}\nx\n```\nstill solution\n````\nkept"
    assert strip_solutions(text) == f"{NOTE}\nkept"


def test_text_without_solutions_is_unchanged():
    assert strip_solutions(EXERCISE + "\n\n```{note}\nA note.\n```") == \
        EXERCISE + "\n\n```{note}\nA note.\n```"


def test_unclosed_solution_raises_naming_the_line():
    with pytest.raises(ValueError, match="markdown: expected a closing ``` .* line 3"):
        strip_solutions("a\n\n```{solution} ex-a\nSeven.")


def test_non_string_raises_type_error():
    with pytest.raises(TypeError, match="markdown: expected str, got list"):
        strip_solutions(["```{solution} ex-a"])


def chapter_notebooks():
    return [doc for doc in toc_files() if (ROOT / f"{doc}.ipynb").is_file()]


@pytest.mark.parametrize("doc", chapter_notebooks())
def test_student_version_of_each_chapter_keeps_everything_but_solutions(doc):
    nb = nbformat.read(ROOT / f"{doc}.ipynb", as_version=4)
    student = student_version(nb)
    sources = ["".join(c.source) for c in nb.cells if c.cell_type == "markdown"]
    n_solutions = sum(len(re.findall(r"^[`:]{3,}\{solution\}", s, re.M)) for s in sources)
    text = "\n".join(c.source for c in student.cells if c.cell_type == "markdown")
    assert "{solution}" not in text
    assert text.count(NOTE) == n_solutions
    assert text.count("{exercise}") == sum(s.count("{exercise}") for s in sources)
    assert [c.source for c in student.cells if c.cell_type == "code"] == \
        [c.source for c in nb.cells if c.cell_type == "code"]


def test_command_line_writes_the_student_tree(tmp_path):
    doc = chapter_notebooks()[0]
    subprocess.run([sys.executable, str(ROOT / "tools" / "student_notebooks.py"), "--out",
                    str(tmp_path), f"{doc}.ipynb"], cwd=ROOT, check=True, capture_output=True)
    written = nbformat.read(tmp_path / f"{doc}.ipynb", as_version=4)
    assert "{solution}" not in "\n".join(c.source for c in written.cells)


def test_binder_post_build_makes_the_student_versions():
    post_build = (ROOT / "postBuild").read_text(encoding="utf-8")
    assert "tools/student_notebooks.py --out students book" in post_build


def test_every_chapter_with_solutions_links_its_student_version(built_book):
    for doc in chapter_notebooks():
        if "{solution}" not in (ROOT / f"{doc}.ipynb").read_text(encoding="utf-8"):
            continue
        page = (built_book / f"{doc}.html").read_text(encoding="utf-8")
        links = re.findall(r'class="nbcourse-student-version">.*?href="([^"]+)"', page)
        assert len(links) == 1, f"{doc}: {len(links)} student-version links"
        query = urllib.parse.unquote(urllib.parse.urlparse(links[0].replace("&amp;", "&")).query)
        assert query.endswith(f"urlpath=tree/students/{doc}.ipynb"), query
