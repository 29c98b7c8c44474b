"""Derive ``austen.csv.gz`` from the six novels of the R package janeaustenr.

Run as ``python -m nbcourse.data.prepare_austen`` in an environment with nbcourse's
requirements and the PyPI package ``rdata``, on a machine with Debian's
``r-cran-janeaustenr`` installed (the novels are read from its lazy-load database
``/usr/lib/R/site-library/janeaustenr/data/Rdata.rdb``).  Not needed at run time.

For each novel: the lines from its first chapter heading to its end (Northanger
Abbey's closing editor's note left out), without the chapter and volume headings
and the closing "THE END"/"FINIS", are joined and split into word tokens by
:func:`nbcourse.text.tokenize`; the tokens are cut into consecutive passages of
``WORDS`` words (an incomplete last passage is dropped), and ``PER_NOVEL`` of them,
evenly spaced through the novel, are kept.  The file has one row per passage:
``novel`` (title), ``position`` (index of the passage among the novel's passages)
and ``text`` (its tokens joined by single spaces).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import re
import struct
import sys
import zlib
from pathlib import Path

import numpy as np

from nbcourse.text import tokenize

SOURCE = Path("/usr/lib/R/site-library/janeaustenr/data/Rdata")
OUT = Path(__file__).with_name("austen.csv.gz")
WORDS = 100
PER_NOVEL = 250
#: janeaustenr object name -> title, in order of publication (as janeaustenr's austen_books()).
NOVELS = {
    "sensesensibility": "Sense & Sensibility",
    "prideprejudice": "Pride & Prejudice",
    "mansfieldpark": "Mansfield Park",
    "emma": "Emma",
    "northangerabbey": "Northanger Abbey",
    "persuasion": "Persuasion",
}
HEADING = re.compile(r"^\s*(chapter|volume)\s+[0-9ivxlc]+\.?\s*$", re.IGNORECASE)
CLOSING = {"THE END", "FINIS", "Finis"}


def read_novels(source: Path = SOURCE) -> dict[str, list[str]]:
    """The lines of each novel, read from the R lazy-load database with ``rdata``."""
    import rdata

    index = rdata.conversion.convert(rdata.parser.parse_file(source.with_suffix(".rdx")))
    db = source.with_suffix(".rdb").read_bytes()
    novels = {}
    for name, (offset, length) in index["variables"].items():
        blob = db[int(offset):int(offset) + int(length)]
        size = struct.unpack(">I", blob[:4])[0]
        raw = zlib.decompress(blob[4:])
        assert len(raw) == size, name
        novels[str(name)] = [str(line) for line in rdata.conversion.convert(
            rdata.parser.parse_data(raw, expand_altrep=True))]
    return novels


def body(lines: list[str]) -> list[str]:
    """The novel's text from its first chapter heading, without headings and closing words."""
    start = next(i for i, line in enumerate(lines) if HEADING.match(line))
    end = next((i for i, line in enumerate(lines) if line.strip() == "A NOTE ON THE TEXT"),
               len(lines))
    return [line for line in lines[start:end]
            if not HEADING.match(line) and line.strip() not in CLOSING]


def passages(lines: list[str]) -> list[tuple[int, str]]:
    """``PER_NOVEL`` passages of ``WORDS`` tokens, evenly spaced, with their positions."""
    tokens = tokenize(" ".join(body(lines)))
    n_passages = len(tokens) // WORDS
    keep = np.unique(np.round(np.linspace(0, n_passages - 1, PER_NOVEL)).astype(int))
    assert keep.size == PER_NOVEL
    return [(int(p), " ".join(tokens[p * WORDS:(p + 1) * WORDS])) for p in keep]


def main() -> None:
    novels = read_novels()
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["novel", "position", "text"])
    for name, title in NOVELS.items():
        for position, text in passages(novels[name]):
            writer.writerow([title, position, text])
    data = gzip.compress(buffer.getvalue().encode("utf-8"), compresslevel=9, mtime=0)
    OUT.write_bytes(data)
    print(f"{OUT}: {len(data)} bytes, SHA-256 {hashlib.sha256(data).hexdigest()}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
