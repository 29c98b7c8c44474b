"""Build the tree students open (Binder, downloads): ``make student`` writes ``_build/student/``.

What goes in, and nothing else:

- ``book/``: every chapter of ``_toc.yml`` as a notebook that reads right in plain Jupyter.  The
  MyST that only Jupyter Book understands is rewritten: glued values (``{glue:text}``,
  ``{glue:md}``) become the values stored in the notebook's outputs; ``{eq}``, ``{numref}``,
  ``{prf:ref}``, ``{doc}``, ``{cite:t}``/``{cite:p}`` and ``{assignment}`` become the numbers,
  titles and relative links the HTML book shows; directives (exercises, theorems, proofs,
  admonitions, figures) become plain Markdown/HTML; labelled equations keep their number with
  ``\\tag``; figure captions follow their figure.  Each exercise's solution is removed and
  replaced by one line (:func:`solution_note`) saying where its worked solution is: the
  Solutions page of the HTML book and the Solutions appendix of the PDF edition.  ``intro.md``,
  the bibliography and the solutions page become notebooks too, so every page opens as a
  notebook.
- ``exercises/<name>/``: the files of :func:`nbcourse.grading.assignment.student_files` for each
  assignment (the student notebook and the public tests), never the instructor's files
  (solution source, hidden tests).
- ``nbcourse/``, ``pyproject.toml``, ``binder/`` and a short ``README.md``: what Binder needs to
  install the environment.

Run ``python tools/build_student_tree.py [--out DIR] [--commit-branch student]``; the output
folder is replaced.  ``--commit-branch`` records the tree as the next commit of a branch (see
:func:`commit_tree`), which the Binder buttons open once it is pushed.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from urllib.parse import quote

import yaml

from nbcourse.grading.assignment import PUBLIC_TESTS, instructor_files, student_files

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "_build" / "student"


# --------------------------------------------------------------------------- book structure

def toc_documents(root: Path = ROOT) -> list[str]:
    """Document paths (without suffix, relative to ``root``) in the order of ``_toc.yml``."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    docs = [toc["root"]]
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            docs.append(chapter["file"])
    return docs


def _source(cell) -> str:
    return _text(cell.get("source", ""))


def _text(value) -> str:
    """A notebook's multi-line string, stored as one str or a list of lines."""
    return "".join(value) if isinstance(value, list) else value


def read_document(root: Path, doc: str) -> dict:
    """The document as a notebook: ``.ipynb`` as stored, ``.md`` as one markdown cell."""
    ipynb, md = root / f"{doc}.ipynb", root / f"{doc}.md"
    if ipynb.is_file():
        return json.loads(ipynb.read_text(encoding="utf-8"))
    if md.is_file():
        return {"cells": [{"cell_type": "markdown", "metadata": {},
                           "source": md.read_text(encoding="utf-8")}],
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                            "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    raise ValueError(f"doc: expected {doc}.ipynb or {doc}.md under {root}, found neither")


FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})\{(?P<name>[^}\s]+)\}[ \t]*(?P<arg>.*)$")
EQ_LABEL = re.compile(r"\$\$[ \t]*\((?P<label>[A-Za-z0-9_:.-]+)\)")
OPTION = re.compile(r"^[ \t]*:(?P<key>[A-Za-z0-9_-]+):[ \t]*(?P<value>.*)$")
HEADING = re.compile(r"^#[ \t]+(.+)$", re.M)
PRF_KINDS = {"theorem": "Theorem", "corollary": "Corollary", "proposition": "Proposition",
             "lemma": "Lemma", "definition": "Definition", "example": "Example",
             "remark": "Remark", "conjecture": "Conjecture", "axiom": "Axiom",
             "criterion": "Criterion", "algorithm": "Algorithm", "property": "Property",
             "observation": "Observation", "assumption": "Assumption"}


def _fence_at(lines: list[str], i: int):
    """The directive opening at ``lines[i]``: ``(name, arg, options, body, next_i)`` or None.

    As in MyST, a directive ends at the first line that holds only its fence character, at
    least as many times as it opened with; a nested directive uses a longer fence and so stays
    inside.  An unclosed directive raises ``ValueError``: running it to the end of the cell
    would swallow text that is not part of it.
    """
    m = FENCE_OPEN.match(lines[i])
    if not m:
        return None
    fence = m["fence"]
    close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    j = i + 1
    while j < len(lines) and not close.match(lines[j]):
        j += 1
    if j == len(lines):
        raise ValueError(f"markdown: expected a closing {fence} for the {{{m['name']}}} directive "
                         f"opened on line {i + 1}, got the end of the cell")
    body_lines = lines[i + 1:j]
    options = {}
    while body_lines and (o := OPTION.match(body_lines[0])):
        options[o["key"]] = o["value"].strip()
        body_lines = body_lines[1:]
    return m["name"], m["arg"].strip(), options, "\n".join(body_lines).strip("\n"), j + 1


def _directive_blocks(text: str):
    """Yield ``(name, arg, options, body)`` for every directive fence in ``text``, outer first."""
    lines, i = text.split("\n"), 0
    while i < len(lines):
        fence = _fence_at(lines, i)
        if fence is None:
            i += 1
            continue
        *block, i = fence
        yield tuple(block)
        yield from _directive_blocks(block[3])


class Book:
    """Numbers and titles the HTML book gives to labels, computed over the whole table of contents.

    Jupyter Book numbers figures, labelled equations, exercises and each kind of proof
    environment consecutively through the book in table-of-contents order; so does this.
    """

    def __init__(self, root: Path = ROOT):
        self.root = root
        self.docs = toc_documents(root)
        self.notebooks = {doc: read_document(root, doc) for doc in self.docs}
        self.titles, self.figures, self.equations, self.exercises, self.proofs = {}, {}, {}, {}, {}
        self.terms: dict[str, tuple[str, str]] = {}  # lower-case term -> (doc, anchor)
        counts = {"fig": 0, "eq": 0, "ex": 0}
        kinds: dict[str, int] = {}
        for doc, nb in self.notebooks.items():
            for cell in nb["cells"]:
                src = _source(cell)
                if cell["cell_type"] == "markdown":
                    if doc not in self.titles and (h := HEADING.search(src)):
                        self.titles[doc] = h.group(1).strip()
                    for m in EQ_LABEL.finditer(src):
                        counts["eq"] += 1
                        self.equations[m["label"]] = (doc, counts["eq"])
                    try:
                        blocks = list(_directive_blocks(src))
                    except ValueError as error:
                        raise ValueError(f"{doc}: {error}") from None
                    for name, _arg, options, _body in blocks:
                        if name == "exercise":
                            counts["ex"] += 1
                            label = options.get("label", f"_exercise{counts['ex']}")
                            self.exercises[label] = (doc, counts["ex"])
                        elif name.startswith("prf:") and name[4:] in PRF_KINDS:
                            kind = PRF_KINDS[name[4:]]
                            kinds[kind] = kinds.get(kind, 0) + 1
                            if "label" in options:
                                self.proofs[options["label"]] = (doc, f"{kind} {kinds[kind]}")
                        elif name == "figure" and "name" in options:
                            counts["fig"] += 1
                            self.figures[options["name"]] = (doc, counts["fig"])
                        elif name == "glossary":
                            for term, _ in glossary_entries(_body):
                                self.terms[term.lower()] = (doc, term_anchor(term))
                elif cell["cell_type"] == "code":
                    figure = cell.get("metadata", {}).get("mystnb", {}).get("figure")
                    if figure:
                        counts["fig"] += 1
                        self.figures[figure.get("name", f"_fig{counts['fig']}")] = (doc, counts["fig"])
        self.bib = parse_bib((root / "book" / "references.bib").read_text(encoding="utf-8"))
        config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
        sphinx_config = (config.get("sphinx") or {}).get("config") or {}
        self.eqref_format = sphinx_config.get("math_eqref_format") or "({number})"


# --------------------------------------------------------------------------- bibliography

def parse_bib(text: str) -> dict[str, dict[str, str]]:
    """A minimal BibTeX reader for ``references.bib``: key -> {field: value}."""
    entries = {}
    for m in re.finditer(r"@(\w+)\s*\{\s*([^,\s]+)\s*,(.*?)\n\}", text, re.S):
        fields = {"type": m.group(1).lower()}
        for f in re.finditer(r"(\w+)\s*=\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}", m.group(3)):
            fields[f.group(1).lower()] = _bib_text(f.group(2))
        entries[m.group(2)] = fields
    return entries


def _bib_text(value: str) -> str:
    value = value.replace('{\\"\\i}', "ï").replace('\\"\\i', "ï").replace("--", "–")
    value = re.sub(r"\\[a-zA-Z]+\s*", "", value)
    return re.sub(r"\s+", " ", value.replace("{", "").replace("}", "")).strip()


def _surnames(entry) -> list[str]:
    return [a.split(",")[0].strip() for a in entry.get("author", "").split(" and ") if a.strip()]


def cite_author(entry) -> str:
    names = _surnames(entry)
    if len(names) > 2:
        return f"{names[0]} et al."
    return " and ".join(names)


def bibliography_markdown(bib) -> str:
    items = []
    for key, e in sorted(bib.items(), key=lambda kv: (_surnames(kv[1]) or [kv[0]], kv[1].get("year", ""))):
        authors = e.get("author", "").replace(" and ", "; ")
        where = ", ".join(v for v in (e.get("journal"), e.get("publisher"), e.get("howpublished"),
                                      e.get("note")) if v)
        items.append(f'- <a id="{key}"></a>{authors} ({e.get("year", "n.d.")}). '
                     f'*{e.get("title", key)}*.' + (f" {where}." if where else ""))
    return "\n".join(items)


# --------------------------------------------------------------------------- markdown rewriting

def _rel(from_doc: str, to_path: str) -> str:
    """Relative link from document ``from_doc`` to repository path ``to_path``."""
    return quote(posixpath.relpath(to_path, posixpath.dirname(from_doc) or "."))


def format_plain_text(text: str, fmt_spec: str) -> str:
    """The text myst-nb's ``{glue:text}`` shows for a stored ``text/plain`` and a format spec."""
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        value = text
    if fmt_spec == "":
        return str(value)
    kind = fmt_spec[-1]
    if kind == "s":
        value = str(value)
    elif kind in "bcdoxX":
        value = int(value)
    elif kind in "eEfFgGn%":
        value = float(value)
    return format(value, fmt_spec)


def glued_values(nb) -> dict[str, dict]:
    """``name -> mime bundle`` for every value glued in the notebook's stored outputs."""
    values = {}
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            scrap = out.get("metadata", {}).get("scrapbook")
            if not scrap:
                continue
            prefix = scrap.get("mime_prefix", "application/papermill.record/")
            values[scrap["name"]] = {k.removeprefix(prefix): "".join(v) if isinstance(v, list) else v
                                     for k, v in out.get("data", {}).items()}
    return values


ROLE = re.compile(r"\{(?P<role>[A-Za-z][\w:-]*)\}`(?P<text>[^`]+)`")


def _title_and_target(text: str) -> tuple[str | None, str]:
    m = re.match(r"^(.*?)\s*<([^<>]+)>$", text, re.S)
    return (m.group(1), m.group(2)) if m else (None, text)


def glossary_entries(body: str) -> list[tuple[str, str]]:
    """(term, definition) pairs of a ``{glossary}`` body: a term line, then indented lines.

    Consecutive term lines share the definition that follows them, as in Sphinx.
    """
    entries, terms, definition = [], [], []

    def close():
        if terms:
            text = textwrap.dedent("\n".join(definition)).strip()
            entries.extend((t, text) for t in terms)

    for line in body.split("\n"):
        if line.strip() and not line[0].isspace():
            if definition:
                close()
                terms, definition = [], []
            terms.append(line.strip())
        elif terms:
            definition.append(line)
    close()
    return entries


def term_anchor(term: str) -> str:
    """The anchor of a glossary term in a student notebook: ``term-`` and a slug."""
    return "term-" + re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def solution_note(number) -> str:
    """The line that stands in a student chapter for the solution of exercise ``number``."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"number: expected the exercise's number (an int >= 1), got {number!r}")
    return (f"*Solution to Exercise {number}: not in this notebook; it is on the Solutions page "
            f"of the HTML book and in the Solutions appendix of the PDF edition.*")


SOLUTIONS_PAGE_NOTE = (
    "The worked solutions of the chapters' exercises are on this page in the HTML book and in "
    "the Solutions appendix of the PDF edition. The notebooks leave them out, so that each "
    "exercise can be tried first; under each exercise a line says where its solution is.")


def _quote(head: str, body: str) -> str:
    """A block quote as HTML around Markdown, so that display maths inside keeps no ``>``."""
    return f"<blockquote>\n\n{head}\n\n{body}\n\n</blockquote>\n"


class Rewriter:
    """Rewrites the markdown of one document of ``book`` into plain Jupyter Markdown."""

    def __init__(self, book: Book, doc: str):
        self.book, self.doc = book, doc
        self.glue = glued_values(book.notebooks[doc])
        self.missing: list[str] = []

    def answers(self) -> str:
        """Markdown for ``{selfcheck-answers}``: each chapter's self-check questions and answers."""
        from nbcourse.mime import SELFCHECK
        from nbcourse.selfcheck import Question

        parts = []
        for doc, nb in self.book.notebooks.items():
            questions = [Question.from_json(out["data"]) for cell in nb["cells"]
                         for out in cell.get("outputs", []) if SELFCHECK in out.get("data", {})]
            if questions:
                title = self._link(self.book.titles.get(doc, doc), doc)
                items = [f"{i}. *{' '.join(q.prompt.split())}*  \n"
                         f"   **Answer:** {' '.join(q.answer_text().split())}"
                         for i, q in enumerate(questions, 1)]
                parts.append(f"**{title}**\n\n" + "\n".join(items) + "\n")
        return "\n".join(parts)

    # roles ---------------------------------------------------------------
    def _link(self, text: str, target_doc: str, anchor: str = "") -> str:
        if target_doc == self.doc:
            return f"[{text}](#{anchor})" if anchor else text
        href = _rel(self.doc, f"{target_doc}.ipynb") + (f"#{anchor}" if anchor else "")
        return f"[{text}]({href})"

    def role(self, m: re.Match) -> str:
        role, text = m["role"], m["text"]
        if role in ("glue:text", "glue", "glue:any"):
            key, _, fmt = text.partition(":") if role == "glue:text" else (text, "", "")
            bundle = self.glue.get(key.strip())
            if bundle is None or "text/plain" not in bundle:
                self.missing.append(key)
                return m.group(0)
            return format_plain_text(bundle["text/plain"], fmt)
        if role == "glue:md":
            key = text.split(":")[0].strip()
            bundle = self.glue.get(key)
            if bundle is None or "text/markdown" not in bundle:
                self.missing.append(key)
                return m.group(0)
            return bundle["text/markdown"].strip()
        if role == "eq":
            _, label = _title_and_target(text)
            doc, n = self._lookup(self.book.equations, label, role)
            return self._link(self.book.eqref_format.format(number=n), doc, label)
        if role == "numref":
            title, label = _title_and_target(text)
            doc, n = self._lookup(self.book.figures, label, role)
            shown = title.replace("%s", str(n)).replace("{number}", str(n)) if title else f"Fig. {n}"
            return self._link(shown, doc, label)
        if role == "prf:ref":
            title, label = _title_and_target(text)
            doc, shown = self._lookup(self.book.proofs, label, role)
            return self._link(title or shown, doc, label)
        if role == "doc":
            title, target = _title_and_target(text)
            base = self.doc.rsplit("/", 1)[0] if "/" in self.doc else ""
            parts = [p for p in (base + "/" + target if not target.startswith("/") else target[1:]).split("/") if p]
            resolved = []
            for p in parts:
                if p == "..":
                    resolved.pop()
                elif p != ".":
                    resolved.append(p)
            target_doc = "/".join(resolved)
            if target_doc not in self.book.titles:
                raise ValueError(f"{{doc}} in {self.doc}: expected a document of _toc.yml, got {target!r}")
            return self._link(title or self.book.titles[target_doc], target_doc)
        if role == "ref":
            title, label = _title_and_target(text)
            return title or label.replace("-", " ")
        if role in ("cite:t", "cite:p", "cite", "cite:ps", "cite:ts"):
            keys = [k.strip() for k in text.split(",")]
            entries = [self._lookup_bib(k) for k in keys]
            bib = _rel(self.doc, "book/bibliography.ipynb")
            if role.startswith("cite:t"):
                return "; ".join(f"[{cite_author(e)} ({e.get('year', 'n.d.')})]({bib}#{k})"
                                 for k, e in zip(keys, entries, strict=True))
            inner = "; ".join(f"[{cite_author(e)}, {e.get('year', 'n.d.')}]({bib}#{k})"
                              for k, e in zip(keys, entries, strict=True))
            return f"({inner})"
        if role == "term":
            title, target = _title_and_target(text)
            doc, anchor = self._lookup(self.book.terms, target.lower(), role)
            return self._link(title or target, doc, anchor)
        if role == "assignment":
            path = f"exercises/{text}/{text}.ipynb"
            return f"[`exercises/{text}`]({_rel(self.doc, path)})"
        if role == "math":
            return f"${text}$"
        return m.group(0)

    def _lookup(self, table, label, role):
        if label not in table:
            raise ValueError(f"{{{role}}} in {self.doc}: no label {label!r} in the book")
        return table[label]

    def _lookup_bib(self, key):
        if key not in self.book.bib:
            raise ValueError(f"citation in {self.doc}: no entry {key!r} in references.bib")
        return self.book.bib[key]

    def roles(self, text: str) -> str:
        return ROLE.sub(self.role, text)

    # equations -----------------------------------------------------------
    def equations(self, text: str) -> str:
        def tag(m):
            body, label = m.group(1), m.group(2)
            n = self.book.equations[label][1]
            return f'<a id="{label}"></a>\n\n$$\n{body.strip()}\n\\tag{{{n}}}\n$$'
        return re.sub(r"\$\$(.*?)\$\$[ \t]*\(([A-Za-z0-9_:.-]+)\)", tag, text, flags=re.S)

    # directives ----------------------------------------------------------
    def directives(self, text: str) -> str:
        lines, out, i = text.split("\n"), [], 0
        while i < len(lines):
            fence = _fence_at(lines, i)
            if fence is None:
                out.append(lines[i])
                i += 1
                continue
            name, arg, options, body, i = fence
            if name == "solution":  # removed whole: nothing of its body is rewritten or kept
                out.append(self.directive(name, arg, options, ""))
                continue
            out.append(self.directive(name, arg, options, self.directives(body)))
        return "\n".join(out)

    def directive(self, name, arg, options, body) -> str:
        label = options.get("label") or options.get("name")
        anchor = f'<a id="{label}"></a>\n' if label else ""
        if name == "exercise":
            n = self.book.exercises.get(label, (None, "?"))[1] if label else "?"
            title = f" ({arg})" if arg else ""
            return f"{anchor}**Exercise {n}{title}.** {body}\n"
        if name == "solution":
            if arg not in self.book.exercises:
                raise ValueError(f"{{solution}} in {self.doc}: expected the label of an exercise "
                                 f"of the book, got {arg!r}")
            return solution_note(self.book.exercises[arg][1]) + "\n"
        if name == "solutions":
            return SOLUTIONS_PAGE_NOTE + "\n"
        if name == "glossary":
            return "\n".join(f'<a id="{term_anchor(t)}"></a>**{t}**: {d}\n'
                              for t, d in glossary_entries(body))
        if name == "selfcheck-answers":
            return self.answers()
        if name.startswith("prf:"):
            kind = name[4:]
            if kind == "proof":
                return f"{anchor}*Proof.* {body} $\\blacksquare$\n"
            shown = self.book.proofs.get(label, (None, PRF_KINDS.get(kind, kind.title())))[1]
            title = f" ({arg})" if arg else ""
            return _quote(f"{anchor}**{shown}{title}.**", body)
        if name == "figure":
            n = self.book.figures.get(label, (None, "?"))[1]
            alt = options.get("alt", "")
            return f"{anchor}![{alt}]({arg})\n\n*Fig. {n}.* {body}\n"
        if name in ("math",):
            return f"$$\n{body}\n$$\n"
        kinds = {"note": "Note", "tip": "Tip", "warning": "Warning", "important": "Important",
                 "seealso": "See also", "caution": "Caution", "hint": "Hint",
                 "attention": "Attention", "danger": "Danger", "error": "Error"}
        title = arg if name == "admonition" else kinds.get(name, name.title())
        if "dropdown" in options.get("class", ""):
            return f"<details>\n<summary>{title}</summary>\n\n{body}\n\n</details>\n"
        return _quote(f"{anchor}**{title}.**", body)

    def markdown(self, text: str) -> str:
        if not isinstance(text, str):
            raise TypeError(f"text: expected str, got {type(text).__name__}")
        text = re.sub(r"^\(([A-Za-z0-9_:.-]+)\)=[ \t]*$", r'<a id="\1"></a>', text, flags=re.M)
        text = self.equations(text)
        text = self.directives(text)
        return self.roles(text)


# --------------------------------------------------------------------------- notebooks

HIDDEN_INPUT = {"remove-input", "hide-input"}
"""Tags of cells whose code the book does not show (a self-check's code holds its answer);
a student notebook collapses their code (``jupyter.source_hidden``)."""


def student_chapter(book: Book, doc: str) -> tuple[dict, list[str]]:
    """The notebook of ``doc`` rewritten for plain Jupyter, and the glue names it could not find."""
    nb = copy.deepcopy(book.notebooks[doc])
    rw = Rewriter(book, doc)
    cells = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = rw.markdown(_source(cell))
        elif HIDDEN_INPUT & set(cell.get("metadata", {}).get("tags", [])):
            cell["metadata"].setdefault("jupyter", {})["source_hidden"] = True
        cells.append(cell)
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure")
        if cell["cell_type"] == "code" and figure:
            label = figure.get("name")
            n = book.figures.get(label, (None, "?"))[1] if label else "?"
            anchor = f'<a id="{label}"></a>' if label else ""
            caption = rw.markdown(figure.get("caption", ""))
            cells.append({"cell_type": "markdown", "metadata": {},
                          "source": f"{anchor}*Fig. {n}.* {caption}"})
    if doc == "book/bibliography":
        cells = [{"cell_type": "markdown", "metadata": {},
                  "source": "# References\n\n" + bibliography_markdown(book.bib)}]
    for k, cell in enumerate(cells):
        cell.setdefault("metadata", {})
        if "id" in nb["cells"][0] or nb.get("nbformat_minor", 0) >= 5:
            cell["id"] = cell.get("id") or f"student-{k}"
    nb["cells"] = cells
    nb["nbformat"], nb["nbformat_minor"] = 4, max(nb.get("nbformat_minor", 5), 5)
    return nb, rw.missing


def write_json(path: Path, nb: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


STUDENT_README = """\
# Naive Bayes with discrete features: notebooks

Open `book/intro.ipynb` to start reading, or a chapter under `book/part1/`, `book/part2/` or `book/part3/`.
Every chapter runs as it is: Kernel → Restart Kernel and Run All Cells.

Graded assignments are in `exercises/<name>/<name>.ipynb`. Replace each `...` or
`raise NotImplementedError(...)` and run the `check("qN")` cell under it for instant feedback
from the public tests. Before you submit, restart the kernel and run all cells.

To run the notebooks on your own machine (Python 3.11 or newer), install the course's package
with the JupyterLab it was tested with, from this folder:

```bash
python -m venv .venv && . .venv/bin/activate
pip install ".[lab]" && jupyter lab
```

On Colab, the first cell of every notebook installs the package from the student branch; it
does nothing anywhere else.
"""

STUDENT_BRANCH = "student"
"""The branch the student tree is published on (``make student-branch``)."""

COLAB_CELL = """\
# On Colab: install the course's package from its student branch (elsewhere this does nothing).
import sys

if "google.colab" in sys.modules:
    %pip install --quiet "nbcourse @ git+{url}@{branch}"
"""
"""First code cell of every student notebook; ``url`` is ``repository.url`` of _config.yml."""


def colab_cell(root: Path, branch: str = STUDENT_BRANCH) -> dict:
    """The guarded install cell for the repository at ``root`` and the student ``branch``."""
    config = yaml.safe_load((Path(root) / "_config.yml").read_text(encoding="utf-8"))
    url = ((config.get("repository") or {}).get("url") or "").rstrip("/")
    if not url.startswith("https://"):
        raise ValueError(f"_config.yml repository.url: expected an https address, got {url!r}")
    return {"cell_type": "code", "execution_count": None, "id": "colab-install",
            "metadata": {"tags": ["colab-install"]}, "outputs": [],
            "source": COLAB_CELL.format(url=url, branch=branch)}


def with_colab_cell(nb: dict, cell: dict) -> dict:
    """``nb`` with ``cell`` as its first code cell (after the title), if it has code at all."""
    cells = nb["cells"]
    if not any(c["cell_type"] == "code" for c in cells):
        return nb
    at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0
    nb["cells"] = [*cells[:at], copy.deepcopy(cell), *cells[at:]]
    return nb


def build(out: Path = DEFAULT_OUT, root: Path = ROOT, branch: str = STUDENT_BRANCH) -> Path:
    """Write the student tree to ``out`` (replacing it) and return ``out``.

    ``branch`` is the branch the tree is published on; each notebook's Colab cell installs the
    package from it.  The package in the tree carries each assignment's public tests
    (``nbcourse/public_tests/<name>/tests.py``), so ``check()`` works wherever it is installed.
    """
    out, root = Path(out), Path(root)
    if out.resolve() in (root.resolve(), *root.resolve().parents):
        raise ValueError(f"out: expected a folder outside the repository root, got {str(out)!r}")
    book = Book(root)
    install = colab_cell(root, branch)
    if out.exists():
        shutil.rmtree(out)
    missing = {}
    for doc in book.docs:
        nb, lost = student_chapter(book, doc)
        if lost:
            missing[doc] = lost
        write_json(out / f"{doc}.ipynb", with_colab_cell(nb, install))
    if missing:
        raise ValueError(f"glued values not found in the stored outputs: {missing}")
    for folder in sorted(p for p in (root / "exercises").iterdir() if p.is_dir()):
        private = {f.name for f in instructor_files(folder)}
        for source in student_files(folder):
            if source.name in private:
                raise ValueError(f"student_files: {source.name} must never reach students ({folder})")
            (out / "exercises" / folder.name).mkdir(parents=True, exist_ok=True)
            target = out / "exercises" / folder.name / source.name
            if source.suffix == ".ipynb":
                nb = json.loads(source.read_text(encoding="utf-8"))
                write_json(target, with_colab_cell(nb, install))
            else:
                shutil.copy2(source, target)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(root / "nbcourse", out / "nbcourse", ignore=ignore)
    for tests in sorted((out / "exercises").glob(f"*/{PUBLIC_TESTS}")):
        packaged = out / "nbcourse" / "public_tests" / tests.parent.name / PUBLIC_TESTS
        packaged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(tests, packaged)
    shutil.copytree(root / "binder", out / "binder", ignore=ignore)
    shutil.copy2(root / "pyproject.toml", out / "pyproject.toml")
    (out / "README.md").write_text(STUDENT_README, encoding="utf-8")
    return out


def commit_tree(tree: Path, branch: str, repo: Path = ROOT, message: str | None = None) -> str:
    """Commit the contents of ``tree`` as the whole of ``branch`` in ``repo``; return the commit.

    The commit's parent is the branch's previous tip, so the branch keeps a history students can
    pull.  Neither the working tree, the index nor ``HEAD`` of ``repo`` is touched: the files are
    staged in a temporary index.
    """
    tree, repo = Path(tree), Path(repo)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", branch) or ".." in branch:
        raise ValueError(f"branch: expected a plain branch name such as 'student', got {branch!r}")
    if not tree.is_dir():
        raise ValueError(f"tree: expected a folder, got {str(tree)!r}")

    def git(*args, env=None):
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                              text=True, env=env).stdout.strip()

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        git("--work-tree", str(tree.resolve()), "add", "--all", "--force", ".", env=env)
        tree_id = git("write-tree", env=env)
    try:
        parent = git("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}")
    except subprocess.CalledProcessError:
        parent = ""
    source = git("rev-parse", "--short", "HEAD")
    message = message or f"Student tree built from {source}"
    commit = git("commit-tree", tree_id, *(["-p", parent] if parent else []), "-m", message)
    git("update-ref", f"refs/heads/{branch}", commit)
    return commit


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (replaced)")
    parser.add_argument("--commit-branch", metavar="BRANCH",
                        help="also commit the tree as the whole of BRANCH (nothing is pushed)")
    args = parser.parse_args(argv)
    out = build(args.out, branch=args.commit_branch or STUDENT_BRANCH)
    print(f"student tree written to {out}")
    if args.commit_branch:
        commit = commit_tree(out, args.commit_branch)
        print(f"committed as {commit} on branch {args.commit_branch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
