"""Every math symbol of the chapters and assignments is listed on the notation page.

The check reads the markdown and the figure captions of every chapter (``book/part1``,
``book/part2``, the appendix) and of every assignment notebook (student and solution), and the
book's other pages (glossary, course plan, ...), takes the text between ``$...$`` and
``$$...$$`` (code spans, code fences and ``\\text{...}`` groups excluded), and reduces each symbol
to a key: its base letter (a Latin letter or a Greek macro, with ``\\boldsymbol``/``\\mathbf`` kept
and hats, tildes and bars dropped) and the set of lower-case index letters in its subscript and in
a superscript of the form ``^{-v}``.  A symbol passes when the notation page lists a symbol with
the same base whose index letters include its own: ``\\theta_{1c}`` passes because the page lists
``\\theta_{vc}``, while ``\\theta_{ji}`` would not.
"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTATION = ROOT / "book" / "notation.md"

GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta",
    "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi",
    "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma",
    "Phi", "Psi", "Omega", "ell",
}
TEXT_MACROS = {"text", "mathrm", "operatorname", "textrm", "mbox", "textit", "textbf", "label", "tag"}
FONT_MACROS = {"boldsymbol", "mathbf", "bm"}
ACCENTS = {"hat", "widehat", "tilde", "widetilde", "bar", "overline"}


def markdown_cells(path):
    """The markdown cells of a notebook and the captions of its figures, as strings."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    texts = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            texts.append("".join(cell["source"]))
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if figure.get("caption"):
            texts.append(figure["caption"])
    return texts


def math_segments(markdown):
    """The contents of the ``$...$`` and ``$$...$$`` math of a MyST markdown text.

    Code fences (but not directive fences such as ```` ```{exercise} ````) and code spans are
    skipped."""
    lines, kept, open_directives, code_fence = markdown.split("\n"), [], [], None
    for line in lines:
        stripped = line.strip()
        fence = re.match(r"(`{3,}|~{3,})(.*)", stripped)
        if code_fence is not None:
            if fence and stripped == code_fence:
                code_fence = None
            continue
        if fence:
            rest = fence.group(2).strip()
            if not rest and open_directives and open_directives[-1] == fence.group(1):
                open_directives.pop()
                continue
            if rest.startswith("{admonition} Notation"):
                code_fence = fence.group(1)          # a note on the sources' letters: not checked
                continue
            if rest.startswith("{") and not rest.startswith(("{code-cell}", "{code}", "{tabularcolumns}")):
                open_directives.append(fence.group(1))
                continue
            code_fence = fence.group(1)
            continue
        kept.append(line)
    text = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", " ", "\n".join(kept), flags=re.S)
    segments = []
    for match in re.finditer(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$", text, flags=re.S):
        segments.append(match.group(1) if match.group(1) is not None else match.group(2))
    return segments


def _strip_groups(math, macros):
    """Remove ``\\macro{...}`` groups (with balanced braces) for the given macro names."""
    out, i = [], 0
    pattern = re.compile(r"\\(" + "|".join(sorted(macros)) + r")\s*\{")
    while True:
        m = pattern.search(math, i)
        if not m:
            out.append(math[i:])
            return "".join(out)
        out.append(math[i:m.start()])
        depth, j = 1, m.end()
        while j < len(math) and depth:
            depth += {"{": 1, "}": -1}.get(math[j], 0)
            j += 1
        out.append(" ")
        i = j


def _group(math, i):
    """The script after position i: a braced group or one token; returns (text, end)."""
    while i < len(math) and math[i] == " ":
        i += 1
    if i >= len(math):
        return "", i
    if math[i] == "{":
        depth, j = 1, i + 1
        while j < len(math) and depth:
            depth += {"{": 1, "}": -1}.get(math[j], 0)
            j += 1
        return math[i + 1:j - 1], j
    m = re.match(r"\\[A-Za-z]+|.", math[i:])
    return m.group(0), i + len(m.group(0))


def _index_letters(script):
    """Lower-case Latin letters used as indices in a subscript (macros removed)."""
    script = re.sub(r"\\[A-Za-z]+", " ", script)
    return set(re.findall(r"[a-z]", script))


def symbol_keys(math):
    """The set of (base, index letters) keys of one math segment."""
    math = _strip_groups(math, TEXT_MACROS)
    keys = set()
    token = re.compile(r"\\([A-Za-z]+)|([A-Za-z]+)|\\.|.", re.S)
    i, font = 0, ""
    while i < len(math):
        m = token.match(math, i)
        i = m.end()
        macro, word = m.group(1), m.group(2)
        if macro in FONT_MACROS:
            font = "\\" + macro
            continue
        if macro in ACCENTS:
            continue
        if macro in GREEK:
            bases = ["\\" + macro]
        elif word is not None and len(word) <= 2:
            bases = list(word)
        else:
            if m.group(0) not in "{} ":
                font = ""
            continue
        for n, base in enumerate(bases):
            letters = set()
            if n == len(bases) - 1:
                while True:
                    j = i
                    while j < len(math) and math[j] in " }":
                        j += 1
                    if j < len(math) and math[j] == "_":
                        script, i = _group(math, j + 1)
                        letters |= _index_letters(script)
                    elif j < len(math) and math[j] == "^" and base in ("Q", "\\theta"):
                        script, end = _group(math, j + 1)
                        if re.fullmatch(r"\s*-\s*[a-z]'*\s*", script):
                            letters |= _index_letters(script)
                            i = end
                        else:
                            break
                    else:
                        break
            keys.add((font + ("{" + base + "}" if font and len(base) == 1 else base), frozenset(letters)))
        font = ""
    return keys


def listed_keys(markdown):
    """The keys of all the math of a markdown text."""
    keys = set()
    for segment in math_segments(markdown):
        keys |= symbol_keys(segment)
    return keys


def unlisted(used, listed):
    """The keys of ``used`` that no key of ``listed`` covers."""
    by_base = {}
    for base, letters in listed:
        by_base.setdefault(base, []).append(letters)
    return {(base, letters) for base, letters in used
            if not any(letters <= other for other in by_base.get(base, ()))}


def notation_keys():
    """The keys listed on the notation page, before its section on the sources' own letters."""
    text = NOTATION.read_text(encoding="utf-8")
    return listed_keys(text.split(SOURCES_HEADING)[0])


SOURCES_HEADING = "## How the sources write it"


def course_notebooks():
    chapters = sorted((ROOT / "book").glob("part*/*.ipynb")) + sorted((ROOT / "book" / "appendix").glob("*.ipynb"))
    assignments = sorted((ROOT / "exercises").glob("*/*.ipynb"))
    return chapters + assignments


def _show(key):
    base, letters = key
    return base + ("_{" + "".join(sorted(letters)) + "}" if letters else "")


def test_the_extractor_reads_symbols_and_indices():
    keys = listed_keys(r"Let $\hat\theta_{v'c} = N_{cjv}$ and $Q_c^{-v}(\boldsymbol\theta)$, "
                       r"`$x_i$ in code` and $\text{decide } \omega_1$.")
    assert keys == {("\\theta", frozenset("vc")), ("N", frozenset("cjv")), ("Q", frozenset("cv")),
                    ("\\boldsymbol\\theta", frozenset()), ("\\omega", frozenset())}


def test_an_unlisted_symbol_is_reported():
    listed = listed_keys(r"$\theta_{vc}$, $x_j$, $\omega_c$")
    used = listed_keys(r"$\theta_{ji}$ and $\theta_{1c}$, $x_i$, $\gamma$, $\omega_2$")
    assert {_show(k) for k in unlisted(used, listed)} == {"\\theta_{ij}", "x_{i}", "\\gamma"}


def test_the_notes_on_the_sources_letters_are_not_checked():
    text = "```{admonition} Notation\n:class: note\n\nDuda et al. write $p_i$.\n```\n\nThen $p_j$."
    assert listed_keys(text) == {("p", frozenset("j"))}


def test_the_course_has_notebooks_to_check():
    names = {p.name for p in course_notebooks()}
    assert "01_discrete_features.ipynb" in names and "solution.ipynb" in names


def course_pages():
    """The book's markdown pages other than the notation page, the assignments' README and the
    lecture outlines."""
    pages = [p for p in sorted((ROOT / "book").glob("*.md")) if p != NOTATION]
    extra = [ROOT / "exercises" / "README.md", ROOT / "instructor" / "lecture_outlines.md"]
    return pages + [p for p in extra if p.exists()]


@pytest.mark.parametrize("path", course_notebooks() + course_pages(),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_symbol_is_on_the_notation_page(path):
    listed = notation_keys()
    texts = markdown_cells(path) if path.suffix == ".ipynb" else [path.read_text(encoding="utf-8")]
    used = set()
    for text in texts:
        used |= listed_keys(text)
    missing = sorted(_show(k) for k in unlisted(used, listed))
    assert not missing, (f"{path.relative_to(ROOT)} uses symbols that book/notation.md does not "
                         f"list: {', '.join(missing)}")


# --- one meaning per Greek letter -----------------------------------------------------------

GREEK_LOWER = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
               "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi",
               "psi", "omega"}

# Greek letters the notation page may list in more than one section because the meaning is the
# same there, each with that meaning.
SHARED_GREEK = {
    "theta": "the probability of a value of a feature given the class, in every model",
    "pi": "class priors (a prime marks the priors where the classifier is used)",
    "chi": "the chi-squared statistic and the distribution it is compared with",
    "tau": "a threshold: on a score, on a posterior, or a cut point on a continuous feature",
}

_ACCENTS = (r"\s*(?:\\(?:hat|tilde|bar|widehat|widetilde)\s*\{?\s*)*"
            r"(?:\\(?:mathbf|boldsymbol)\s*\{?\s*)?")
_HEAD = re.compile(_ACCENTS + r"\\([a-z]+)(?![A-Za-z])")


def letter_sections(markdown, head, letters=None):
    """``{letter: {section headings}}``: where each letter that ``head`` reads (and that is in
    ``letters``, if given) heads a symbol.

    A symbol is one ``$...$`` of the first column of a table row; its head is the letter it
    starts with (after an opening parenthesis, accents and a bold font), so ``$\\hat\\theta_{vc}(\\alpha)$`` is listed
    under ``theta`` only, and ``\\alpha`` there is an argument, not a listed symbol."""
    found, section = {}, None
    for line in markdown.split(SOURCES_HEADING)[0].split("\n"):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif line.startswith("| $"):
            for segment in math_segments(line.strip().strip("|").split("|")[0]):
                m = head.match(segment.lstrip("("))
                if m and (letters is None or m.group(1) in letters):
                    found.setdefault(m.group(1), set()).add(section)
    return found


def greek_sections(markdown):
    """Where each lower-case Greek letter heads a symbol (:func:`letter_sections`)."""
    return letter_sections(markdown, _HEAD, GREEK_LOWER)


def with_two_meanings(sections, shared):
    """The letters of ``sections`` listed in two sections of the page and not in ``shared``."""
    return {letter: sorted(where) for letter, where in sections.items()
            if len(where) > 1 and letter not in shared}


def letters_with_two_meanings(markdown):
    """The Greek letters listed in two sections of the page and not in ``SHARED_GREEK``."""
    return with_two_meanings(greek_sections(markdown), SHARED_GREEK)


def test_the_meaning_check_reads_the_heads_of_listed_symbols():
    page = ("## Part I\n\n| Symbol | Meaning |\n|---|---|\n| $\\sigma(t)$ | logistic |\n"
            "| $\\hat\\theta_{vc}(\\alpha)$ | estimate |\n\n## Part IV\n\n| Symbol | Meaning |\n"
            "|---|---|\n| $\\mu_{jc}$, $\\sigma^2_{jc}$ | variance |\n")
    assert greek_sections(page) == {"sigma": {"Part I", "Part IV"}, "theta": {"Part I"},
                                    "mu": {"Part IV"}}
    assert letters_with_two_meanings(page) == {"sigma": ["Part I", "Part IV"]}


def test_each_greek_letter_has_one_meaning():
    found = letters_with_two_meanings(NOTATION.read_text(encoding="utf-8"))
    assert not found, ("book/notation.md lists these Greek letters in more than one section, each "
                       "with its own meaning; give one of them another letter, or, if the meaning "
                       f"is the same, say so in SHARED_GREEK: {found}")


def test_every_shared_letter_is_still_shared():
    # an exception that is no longer needed is removed, so the lists stay short
    sections = greek_sections(NOTATION.read_text(encoding="utf-8"))
    assert all(len(sections.get(letter, ())) > 1 for letter in SHARED_GREEK), {
        letter: sorted(sections.get(letter, ())) for letter in SHARED_GREEK}


# --- one meaning per lower-case Latin letter ------------------------------------------------

# Latin letters the notation page may list in more than one section because the meaning is the
# same there, each with that meaning.
SHARED_LATIN = {
    "b": "a bit: a genuine 0/1 feature, or the presence bit $b_v$ of a word",
    "c": "a class ($\\bar c$ is every class other than $c$)",
    "d": "the number of features, which in a text are its tokens ($d_v$ of them equal to word $v$)",
    "g": "a discriminant: the log posterior odds, or the log score of a class",
    "p": "a probability (a p-value is the upright $\\mathrm p$, never a head here)",
    "q": "the probability of a binary feature in the second class",
    "v": "a value of a feature, which in a text is a word",
    "w": "a weight of a linear discriminant, and its bias $w_0$",
    "x": "a feature, or the vector of features of a case",
    "y": "the class label",
}

_LATIN_HEAD = re.compile(_ACCENTS + r"([a-z])(?![A-Za-z])")


def latin_sections(markdown):
    """Where each lower-case Latin letter heads a symbol (:func:`letter_sections`): $\\mathbf x$
    and $x_j$ both count for ``x``; an upright letter (``\\mathrm p``) or a name
    (``\\mathrm{Ent}``) heads nothing."""
    return letter_sections(markdown, _LATIN_HEAD)


def latin_letters_with_two_meanings(markdown, shared=None):
    """The Latin letters listed in two sections of the page and not in ``shared``."""
    shared = SHARED_LATIN if shared is None else shared
    return with_two_meanings(latin_sections(markdown), shared)


def test_the_latin_check_reads_the_heads_of_listed_symbols():
    page = ("## Part I\n\n| Symbol | Meaning |\n|---|---|\n| $\\sigma(t)$ | logistic |\n"
            "| $\\mathbf{x}$, $x_j$ | features |\n| $\\hat p_j$ | estimate |\n"
            "| $(\\mathbf v, v_0)$ | a direction |\n\n## Part IV\n\n"
            "| Symbol | Meaning |\n|---|---|\n| $B$, $t_b$ | cut points |\n"
            "| $\\mathrm{Gain}(t)$, $\\mathrm p$ | gain, p-value |\n| $x_{nj}$ | a feature |\n")
    assert latin_sections(page) == {"x": {"Part I", "Part IV"}, "p": {"Part I"}, "t": {"Part IV"},
                                    "v": {"Part I"}}
    assert latin_letters_with_two_meanings(page, shared={}) == {"x": ["Part I", "Part IV"]}
    assert latin_letters_with_two_meanings(page, shared={"x": "a feature"}) == {}


def test_each_latin_letter_has_one_meaning():
    found = latin_letters_with_two_meanings(NOTATION.read_text(encoding="utf-8"))
    assert not found, ("book/notation.md lists these Latin letters in more than one section, each "
                       "with its own meaning; give one of them another letter, or, if the meaning "
                       f"is the same, say so in SHARED_LATIN: {found}")


def test_every_shared_latin_letter_is_still_shared():
    sections = latin_sections(NOTATION.read_text(encoding="utf-8"))
    assert all(len(sections.get(letter, ())) > 1 for letter in SHARED_LATIN), {
        letter: sorted(sections.get(letter, ())) for letter in SHARED_LATIN}
