"""Time and size of the static representation of a typical two-control interactive figure.

The figure: the binomial distribution of the number of ones among ``K`` independent bits
that are each 1 with probability ``theta`` (bars), with its mean marked; ``theta`` is a
slider over 0.1, 0.2, ..., 0.8 (8 values) and ``K`` a dropdown of 4 options, so
32 states, the default frame cap.  Prints the wall time of ``explore`` (which draws every
state, the still image and assembles the HTML) and its CPU time (wall time grows when
other processes share the cores), the HTML size and the mean frame size.

Run: ``.venv/bin/python benchmarks/bench_interact.py``
"""

import statistics
import time

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


if __name__ == "__main__":
    main()
