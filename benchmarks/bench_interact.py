"""Time and size of the static representation of a typical two-control interactive figure.

The figure: the binomial distribution of the number of ones among ``K`` independent bits
that are each 1 with probability ``theta`` (bars), with its mean marked; ``theta`` is a
slider over 0.1, 0.2, ..., 0.8 (8 values) and ``K`` a dropdown of 4 options, so
32 states, the default frame cap.  Prints the wall time of ``explore`` (which draws every
state, the still image and assembles the HTML) and its CPU time (wall time grows when
other processes share the cores), the HTML size and the mean frame size.

It then reports the weight of every page of the built book (``_build/html``, when built):
the HTML bytes and the total with the images the page shows or an interactive figure can
load (``src`` attributes and the frame list of each figure, counted once per page), and
the largest page.  ``--before DIR`` adds the same figures for another build (for example
one made before a change) side by side.

``--book-figures`` also runs every notebook of the book, as ``make refresh`` does, and prints
the time spent building its interactive figures, per notebook and in all.

Run: ``.venv/bin/python benchmarks/bench_interact.py [--before OTHER/_build/html] [--book-figures]``
"""

import argparse
import json
import re
import statistics
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import binom  # noqa: E402

from nbcourse.interact import MAX_HTML_BYTES, explore  # noqa: E402


def binomial_bits(theta, K):
    """Bars of P(sum of K Bernoulli(theta) bits = s) for s = 0..K."""
    fig, ax = plt.subplots()
    s = np.arange(K + 1)
    ax.bar(s, binom.pmf(s, K, theta), color="tab:blue", alpha=0.8, label="P(s ones)")
    ax.axvline(K * theta, color="tab:red", linestyle="--", label="mean K theta")
    ax.set(xlabel="number of ones s", ylabel="probability", ylim=(0, 1),
           title=f"K = {K} bits, theta = {theta:.2f}")
    ax.legend(loc="upper right")
    return fig


ROOT = Path(__file__).resolve().parent.parent
_SRC = re.compile(r'<img[^>]*\ssrc="([^"]+)"')
_FIGURE_DATA = re.compile(
    r'<script type="application/json" class="nbcourse-explore-data">(.*?)</script>', re.S)


def page_weight(page: Path) -> tuple[int, int]:
    """(HTML bytes, HTML bytes + bytes of every local image the page shows or may load)."""
    text = page.read_text(encoding="utf-8")
    sources = set(_SRC.findall(text))
    for payload in _FIGURE_DATA.findall(text):
        sources.update(json.loads(payload)["frames"])
    images = 0
    for src in sources:
        if src.startswith("data:"):
            continue  # already counted in the HTML
        path = (page.parent / src.split("#")[0].split("?")[0]).resolve()
        if path.is_file():
            images += path.stat().st_size
    size = len(text.encode())
    return size, size + images


def page_weights(html_dir: Path) -> dict[str, tuple[int, int]]:
    skip = {"_static", "_sources", "_images"}
    return {p.relative_to(html_dir).as_posix(): page_weight(p)
            for p in sorted(html_dir.rglob("*.html"))
            if not skip & set(p.relative_to(html_dir).parts)}


def report_pages(after: Path, before: Path | None) -> None:
    now = page_weights(after)
    old = page_weights(before) if before else {}
    head = f"{'page':45s} {'HTML':>10s} {'with images':>12s}"
    if old:
        head += f" | {'before HTML':>11s} {'with images':>12s}"
    print(head)
    for name, (html, total) in now.items():
        line = f"{name:45s} {html:10,d} {total:12,d}"
        if name in old:
            line += f" | {old[name][0]:11,d} {old[name][1]:12,d}"
        print(line)
    for label, table in (("now", now), ("before", old)):
        if table:
            name, (html, total) = max(table.items(), key=lambda kv: kv[1][0])
            print(f"{label}: HTML of all pages {sum(h for h, _ in table.values()):,} bytes; "
                  f"largest page {name} {html:,} bytes HTML, {total:,} with images")


def main(repeats=3):
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fig = explore(binomial_bits, theta=(0.1, 0.8, 0.1), K=[2, 4, 8, 16])
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    size = len(fig.html.encode())
    frames = statistics.mean(len(f) for f in fig.frames)
    print(f"states: {len(fig.states)} ({' x '.join(str(len(c.values)) for c in fig.controls)})")
    print(f"build time: median {statistics.median(times):.2f} s, "
          f"min {min(times):.2f} s over {repeats} runs; CPU time median "
          f"{statistics.median(cpu):.2f} s (budget 3 s)")
    print(f"static HTML: {size:,} bytes (budget {MAX_HTML_BYTES:,} per figure, 3,000,000 "
          f"per page); mean frame {frames / 1024:.1f} KiB PNG, "
          f"{fig.frame_size[0]}x{fig.frame_size[1]} px")
    print(f"still image/png: {len(fig.still):,} bytes")
    if statistics.median(cpu) >= 3 or size > MAX_HTML_BYTES:
        print("OVER BUDGET")


def book_figures(book: Path) -> None:
    """Time every interactive figure of the book as ``make refresh`` builds it.

    Each notebook runs once in a fresh kernel (as ``make refresh`` runs it, with
    ``NBCOURSE_FIGURES=static``); the wall time of each cell that calls ``explore`` comes
    from nbclient's execution timestamps.  Nothing is written back.
    """
    import datetime
    import os

    import nbformat
    from nbclient import NotebookClient

    os.environ["NBCOURSE_FIGURES"] = "static"
    os.environ["PYTHONHASHSEED"] = "0"

    def seconds(cell):
        t = cell.metadata.get("execution", {})
        start, end = t.get("iopub.execute_input"), t.get("shell.execute_reply")
        if not (start and end):
            return 0.0
        parse = datetime.datetime.fromisoformat
        return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))
                ).total_seconds()

    rows = []
    for path in sorted(book.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        nb = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=True,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        total = time.perf_counter() - start
        cells = [c for c in nb.cells if c.cell_type == "code" and "explore(" in c.source]
        rows.append((str(path.relative_to(book)), len(cells), sum(map(seconds, cells)), total))
    print(f"{'notebook':46s} {'figures':>7s} {'figure s':>9s} {'notebook s':>11s}")
    for name, n, fig_s, total in rows:
        print(f"{name:46s} {n:7d} {fig_s:9.1f} {total:11.1f}")
    print(f"{'all (make refresh runs the same notebooks)':46s} {sum(r[1] for r in rows):7d} "
          f"{sum(r[2] for r in rows):9.1f} {sum(r[3] for r in rows):11.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another built book to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--book-figures", action="store_true",
                        help="also time every interactive figure of book/ (runs every notebook)")
    args = parser.parse_args()
    main(args.repeats)
    if args.book_figures:
        print()
        book_figures(ROOT / "book")
    built = ROOT / "_build" / "html"
    if built.is_dir():
        print()
        report_pages(built, args.before)
    else:
        print("page weights: no built book at _build/html (run `make book`)")
