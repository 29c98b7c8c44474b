"""The bibliography lists only works the book cites, and the book cites only works it lists."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIB = ROOT / "book" / "references.bib"
CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")


def _bib_keys():
    return re.findall(r"^@\w+\{([^,\s]+),", BIB.read_text(encoding="utf-8"), flags=re.M)


def _book_texts():
    for path in sorted((ROOT / "book").rglob("*")):
        if path.suffix == ".md":
            yield path, path.read_text(encoding="utf-8")
        elif path.suffix == ".ipynb" and ".ipynb_checkpoints" not in path.parts:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            yield path, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _cited():
    cited = {}
    for path, text in _book_texts():
        for group in CITE.findall(text):
            for key in group.split(","):
                cited.setdefault(key.strip(), []).append(path.relative_to(ROOT).as_posix())
    return cited


def test_bibliography_has_no_duplicate_keys():
    keys = _bib_keys()
    assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)


def test_every_entry_is_cited_where_it_is_used():
    uncited = sorted(set(_bib_keys()) - set(_cited()))
    assert uncited == [], f"entries of references.bib that no page cites: {uncited}"


def test_every_citation_has_an_entry():
    missing = {key: where for key, where in _cited().items() if key not in set(_bib_keys())}
    assert missing == {}


def test_the_bibliography_is_a_reading_list_of_at_least_thirty_works():
    assert len(set(_bib_keys())) >= 30


def test_the_bibliography_parses_as_the_book_reads_it():
    """pybtex, which sphinxcontrib-bibtex reads the file with, finds every entry: a missing brace
    would swallow the next entry or stop the build."""
    from pybtex.database import parse_string

    entries = parse_string(BIB.read_text(encoding="utf-8"), "bibtex").entries
    assert sorted(entries) == sorted(_bib_keys())
