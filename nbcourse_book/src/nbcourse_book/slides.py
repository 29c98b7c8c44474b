"""Lecture slides: one reveal.js deck per meeting of ``instructor/lecture_outlines.md``, made
of the outline and of its chapters' own labelled equations and stored figures, built by
sphinx-revealjs (which serves its own reveal.js) with the mathematics typeset by Temml at
build time, as in the book (``mathml``).  ``python -m nbcourse_book.slides [--out DIR]``."""

import argparse
import base64
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import yaml
from markdown_it import MarkdownIt

from . import setup_slides as setup  # noqa: F401 (the decks' Sphinx extension: CONF)
from .pages import tex_to_text

OUTLINES = Path("instructor") / "lecture_outlines.md"
BANK = Path("instructor") / "question_bank.yml"
MEETING = re.compile(r"Week (\d+), meeting (\d+): .+")
FIELD = re.compile(r"\*\*([^*]+):\*\* ")
FIELDS = ("Chapters", "Aims", "Plan", "At the board", "Explore", "Quiz", "Homework")
# a labelled display equation, ``$$ ... $$ (label)``
EQUATION = re.compile(r"\$\$((?:(?!\$\$).)+)\$\$[ \t]*\([\w:-]+\)", re.S)
CONF = """extensions = ["myst_parser", "sphinx_revealjs", "nbcourse_book.slides"]
myst_enable_extensions = ["dollarmath", "amsmath"]
html_math_renderer = "bookmath"
html_copy_source = False
revealjs_style_theme = "white"
revealjs_script_conf = {"hash": True, "width": 1280, "height": 800}
revealjs_static_path = ["_static"]
revealjs_css_files = ["slides.css"]
"""
CSS = Path(__file__).with_name("slides.css")  # the decks' own stylesheet
EQUATIONS_PER_SLIDE = 3


def meetings(text):
    """The meetings of the outlines: (section heading, meeting heading, deck name, fields)."""
    found, section, tokens = [], "", MarkdownIt().parse(text)
    for token, inline in zip(tokens, tokens[1:], strict=False):  # an opening token, its text
        if token.type == "heading_open" and token.tag == "h2":
            section = inline.content
        elif token.tag == "h3" and (match := MEETING.fullmatch(inline.content)):
            slug = re.sub(r"\W+", "-", section.split(",")[0].removesuffix(" schedule").lower())
            found.append((section, match[0], f"{slug}/week-{match[1]}-meeting-{match[2]}", {}))
            if not slug.strip("-"):
                raise ValueError(f"outlines: expected a '## ' section heading before "
                                 f"{match[0]!r}, got {section!r}")
        elif found and token.type == "paragraph_open" and (field := FIELD.match(inline.content)):
            found[-1][3][field[1]] = inline.content[field.end():].replace("\n", " ")
    names = [m[2] for m in found]
    for section, title, name, fields in found:
        if names.count(name) > 1:
            raise ValueError(f"outlines: expected one meeting per deck name, got "
                             f"{names.count(name)} named {name!r}")
        if missing := [f for f in FIELDS if not fields.get(f)]:
            raise ValueError(f"outlines: expected the fields {', '.join(FIELDS)} in "
                             f"{section} / {title}, missing {', '.join(missing)}")
    return found


def plain(text):
    """``text`` with its inline mathematics in plain Unicode, for alt text."""
    return re.sub(r"\$([^$]+)\$",
                  lambda m: tex_to_text(re.sub(r"\\(boldsymbol|mathbf)\b", "", m[1])), text)


def chapter_slides(path, src):
    """The slides of one chapter notebook: per section, its labelled equations, then each
    figure, written into ``src``."""
    if not path.with_suffix(".ipynb").is_file():
        raise ValueError(f"outlines: expected a chapter notebook {path}.ipynb, found none")
    title, section, out = "", "", []
    for cell in nbformat.read(path.with_suffix(".ipynb"), as_version=4).cells:
        pieces = re.split(r"^(#{1,2}) (.+)$", cell.source if cell.cell_type == "markdown"
                          else "", flags=re.M)  # text, then (level, heading, text) each
        parts = zip(pieces[1::3], pieces[2::3], pieces[3::3], strict=True)
        for level, heading, text in [("", "", pieces[0]), *parts]:
            if heading:
                title, section = (heading, "") if level == "#" else (title, heading)
            eqs = [eq.strip() for eq in EQUATION.findall(text)]
            for first in range(0, len(eqs), EQUATIONS_PER_SLIDE):
                body = "\n\n".join(f"$$\n{eq}\n$$"
                                     for eq in eqs[first:first + EQUATIONS_PER_SLIDE])
                out.append(f"## {section or title}\n\n{body}\n")
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                data = base64.b64decode(png)
                name = f"fig-{hashlib.sha256(data).hexdigest()[:16]}.png"
                (src / name).write_bytes(data)
                alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt") \
                    or f"Figure of the chapter {title}, section {plain(section or title)}"
                out.append(f"## {section or title}\n\n```{{image}} /{name}\n:alt: {alt}\n```\n")
    return title, out


def deck(root, meeting, bank, src):
    """The MyST source of one meeting's deck."""
    schedule, title, _, fields = meeting
    chapters = re.findall(r"`([^`]+)`", fields["Chapters"])
    parts = [f"---\norphan: true\n---\n# {title}\n\n{schedule}\n", f"## Aims\n\n{fields['Aims']}\n",
             "## Plan\n\n" + "".join(f"- {step}\n" for step in fields["Plan"].split("; "))]
    for chapter in chapters:
        name, slides = chapter_slides(root / chapter, src)
        parts.append(f"## {name}\n\nThe chapter `{chapter}` of the book.\n")
        parts += slides
    for head in ("At the board", "Explore"):
        parts.append(f"## {head}\n\n{fields[head]}\n")
    for qid in re.findall(r"[\w-]+", fields["Quiz"]):
        if qid not in bank:
            raise ValueError(f"outlines: {title}: expected quiz questions of {BANK}, "
                             f"got {qid!r}")
        parts.append(f"## Quiz: {qid}\n\n{bank[qid]}\n")
    parts.append(f"## Homework\n\n{fields['Homework']}\n")
    return "\n".join(parts)


def write_sources(root, src):
    """Every deck's source, the figures and ``conf.py`` into ``src``; the deck names."""
    bank = {q["id"]: q["question"] for q in yaml.safe_load((root / BANK).read_text("utf-8"))}
    found = meetings((root / OUTLINES).read_text(encoding="utf-8"))
    if not found:
        raise ValueError(f"outlines: expected '### Week N, meeting M: ...' headings in "
                         f"{root / OUTLINES}, found none")
    shutil.rmtree(src, ignore_errors=True)
    index = ["# Lecture slides\n\nOne deck per meeting of the lecture outlines.\n"]
    for meeting in found:
        (src / meeting[2]).parent.mkdir(parents=True, exist_ok=True)
        (src / f"{meeting[2]}.md").write_text(deck(root, meeting, bank, src), "utf-8")
        if f"## {meeting[0]}\n" not in index:
            index.append(f"## {meeting[0]}\n")
        index.append(f"- [{meeting[1]}]({meeting[2]}.md)")
    (src / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    (src / "conf.py").write_text(CONF, encoding="utf-8")
    (src / "_static").mkdir()
    shutil.copy2(CSS, src / "_static" / "slides.css")
    return [m[2] for m in found]


def build(root, out):
    """Build every deck into ``out`` (warnings are errors), with Sphinx in a process of its
    own, as the book is built: extensions keep state in their modules."""
    src = root / "_build" / ".slides-src"  # never inside ``out``, which may be published
    write_sources(root, src)
    if out.exists() and any(out.iterdir()):  # a deck of a meeting renamed since must go
        if not (out / ".buildinfo").is_file():
            raise ValueError(f"--out: expected a new folder or earlier slides, got {out}")
        shutil.rmtree(out)
    code = subprocess.run([sys.executable, "-m", "sphinx", "-b", "revealjs", "-W", "-q",
                           "-d", str(src / ".doctrees"), str(src), str(out)]).returncode
    if code:
        raise SystemExit(f"slides: the build of {src} into {out} failed")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("_build") / "slides")
    build(Path.cwd(), parser.parse_args().out)
