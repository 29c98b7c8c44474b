"""Benchmark of the Williams (2024) §3 experiments engine.  Prints figures; asserts nothing.

Run:  .venv/bin/python benchmarks/bench_experiments.py [--n 1000000] [--repeats 3]

Measures
1. the full six-cell table at ``--n`` classifiers per cell: wall and CPU time
   (median over repeats) and peak memory (tracemalloc, in a separate run, and the
   process's peak resident set size);
2. that memory does not grow with n (tracemalloc peak of one cell at n/10 and n);
3. throughput in classifier-observations per second, in one run, of
   the engine, (a) a straightforward per-classifier Python loop (numpy per
   observation; and (a') the same with plain Python floats, which is faster), and
   (b) scikit-learn's CategoricalNB and BernoulliNB fitted per classifier on data
   whose frequencies reproduce the classifier's parameters;
4. where the engine's time goes: drawing the classifiers, the plain floating-point
   path, and the same draws counted by the log-space engine alone, with the share
   of classifiers the fast path hands to the log-space engine;
5. ``paper_table(n=100)`` latency.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from functools import partial

import numpy as np

from nbcourse.experiments import PAPER_VALUES, compare_models, draws, exact, fast, paper_table

C = 4


def timed(fn, repeats):
    """Median wall and CPU seconds of ``fn()`` over ``repeats`` runs, and the last result."""
    walls, cpus = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def peak_traced(fn):
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


# ----------------------------------------------------------------------------
# (a) a straightforward per-classifier loop
# ----------------------------------------------------------------------------


def loop_cell(K, alpha, n, seed=0):
    """One classifier at a time: numpy's Dirichlet sampler and eqs. 2 and 3 directly."""
    rng = np.random.default_rng(seed)
    higher = differ = 0
    for _ in range(n):
        pi = rng.dirichlet(np.ones(C))
        theta = rng.dirichlet(np.full(K, alpha), size=C)  # (C, K)
        for j in range(K):
            cat = pi * theta[:, j]
            q = np.prod(np.delete(1.0 - theta, j, axis=1), axis=1)
            pob = cat * q
            p_cat, p_pob = cat / cat.sum(), pob / pob.sum()
            higher += p_pob.max() > p_cat.max()
            differ += p_pob.argmax() != p_cat.argmax()
    return higher / (n * K), differ / (n * K)


def loop_scalar_cell(K, alpha, n, seed=0):
    """The same loop with plain Python floats for eqs. 2 and 3 (faster than numpy for C = 4)."""
    rng = np.random.default_rng(seed)
    higher = differ = 0
    for _ in range(n):
        pi = rng.dirichlet(np.ones(C)).tolist()
        theta = rng.dirichlet(np.full(K, alpha), size=C).tolist()
        for j in range(K):
            cat = [pi[c] * theta[c][j] for c in range(C)]
            pob = []
            for c in range(C):
                q = 1.0
                for k in range(K):
                    if k != j:
                        q *= 1.0 - theta[c][k]
                pob.append(cat[c] * q)
            top_cat, top_pob = max(cat), max(pob)
            higher += top_pob / sum(pob) > top_cat / sum(cat)
            differ += cat.index(top_cat) != pob.index(top_pob)
    return higher / (n * K), differ / (n * K)


# ----------------------------------------------------------------------------
# (b) scikit-learn, fitted per classifier
# ----------------------------------------------------------------------------


def sklearn_cell(K, alpha, n, seed=0):
    """Fit CategoricalNB and BernoulliNB (one-hot) per classifier and compare their posteriors.

    Each classifier's data are the ``C * K`` pairs ``(x = j, y = c)`` with sample
    weight ``pi_c theta_jc``, so the weighted class counts are ``pi`` and the
    weighted value counts ``pi_c theta_jc``: the fitted parameters are the sampled
    ones (up to the 1e-300 smoothing that keeps exact zeros finite).
    """
    from sklearn.naive_bayes import BernoulliNB, CategoricalNB

    rng = np.random.default_rng(seed)
    eye = np.eye(K)
    x = np.tile(np.arange(K), C)
    y = np.repeat(np.arange(C), K)
    higher = differ = 0
    for _ in range(n):
        pi = rng.dirichlet(np.ones(C))
        theta = rng.dirichlet(np.full(K, alpha), size=C)
        w = (pi[:, None] * theta).ravel()
        cat_nb = CategoricalNB(alpha=1e-300, force_alpha=True).fit(x[:, None], y, sample_weight=w)
        pob_nb = BernoulliNB(alpha=1e-300, force_alpha=True).fit(eye[x], y, sample_weight=w)
        lp_cat = cat_nb.predict_joint_log_proba(np.arange(K)[:, None])
        lp_pob = pob_nb.predict_joint_log_proba(eye)
        # maximum posterior compared through the losing mass, as in the engine
        higher += int(np.sum(_log_r(lp_pob) < _log_r(lp_cat)))
        differ += int(np.sum(lp_pob.argmax(1) != lp_cat.argmax(1)))
    return higher / (n * K), differ / (n * K)


def _log_r(joint):
    """log(sum of the non-maximal posteriors / the maximal one), per row."""
    top = joint.max(axis=1, keepdims=True)
    rest = np.where(joint == top, -np.inf, joint)
    return np.logaddexp.reduce(rest - top, axis=1)


# ----------------------------------------------------------------------------
# The engine's parts
# ----------------------------------------------------------------------------


def engine_parts(K, alpha, n, seed=0):
    """Seconds spent drawing, in the fast path and in the log-space engine alone, and the
    share of classifiers the fast path hands over, for the same ``n`` classifiers."""
    _, _, _, _, prior_alpha, ss = draws.check_cell(K, alpha, n, C, 1.0, seed)
    draw = fast_s = log_only = 0.0
    handed = 0
    scratch = draws.Scratch()
    chunks = draws.iter_draws(K, alpha, n, C, prior_alpha, ss, scratch)
    while True:
        t = time.process_time()
        try:
            pi, theta = next(chunks)
        except StopIteration:
            break
        t1 = time.process_time()
        fast.chunk_counts(pi, theta, scratch)
        t2 = time.process_time()
        lp, lx = draws.engine_layout(pi.log(), theta.log())
        exact.block_counts(lp - np.logaddexp.reduce(lp, axis=0, keepdims=True), lx)
        t3 = time.process_time()
        draw, fast_s, log_only = draw + t1 - t, fast_s + t2 - t1, log_only + t3 - t2
        handed += int(fast.linear_counts(
            np.ascontiguousarray(pi.values.T),
            np.ascontiguousarray(np.transpose(theta.values, (2, 1, 0))))[2].sum())
    return draw, fast_s, log_only, handed / n


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="classifiers per cell")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of the full table")
    parser.add_argument("--loop-n", type=int, default=2000, help="classifiers for the Python loop")
    parser.add_argument("--sklearn-n", type=int, default=100, help="classifiers for scikit-learn")
    parser.add_argument("--throughput-repeats", type=int, default=5,
                        help="repeats of the side-by-side throughput runs")
    args = parser.parse_args(argv)
    obs_per_table = args.n * sum(cell.K for cell in PAPER_VALUES)
    print(f"numpy {np.__version__}, Python {sys.version.split()[0]}; one process, one thread\n")

    # 1. full table
    wall, cpu, table = timed(lambda: paper_table(n=args.n, seed=0), args.repeats)
    print(f"Full table, n = {args.n:,} classifiers per cell (6 cells, "
          f"{obs_per_table:,} classifier-observations), median of {args.repeats}:")
    print(f"  wall {wall:.2f} s, CPU {cpu:.2f} s, throughput {obs_per_table / cpu:,.0f} obs/s (CPU)")
    print(table.to_string())
    peak = peak_traced(lambda: paper_table(n=args.n, seed=0))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak traced memory {peak / 2**20:.1f} MiB; process peak RSS {rss:.0f} MiB "
          "(includes the interpreter and libraries)\n")

    # 2. memory does not grow with n
    for n in (args.n // 10, args.n):
        peak = peak_traced(lambda n=n: compare_models(10, 0.1, n=n, seed=0))
        print(f"  K = 10, alpha = 1/10, n = {n:>9,}: peak traced memory {peak / 2**20:.1f} MiB")
    print()

    # 3. throughput side by side: the four implementations are timed in turn within each
    # repeat, so a slow spell of the machine affects a repeat's ratios less
    reps = args.throughput_repeats
    print(f"Throughput, classifier-observations per second (CPU time, median of {reps} repeats;")
    print("in each repeat the four are timed one after another, and the speed-ups are the")
    print("medians of the per-repeat ratios, with the smallest ratio over (a) beside them).")
    print("(a) numpy per classifier and value; (a') plain Python floats; (b) scikit-learn")
    head = ("cell", "engine", "(a)", "(a')", "(b)", "eng/(a)", "min", "eng/(a')", "eng/(b)")
    print("  {:<11} {:>11} {:>9} {:>9} {:>7} {:>8} {:>5} {:>9} {:>8}".format(*head))
    ratios_a, ratios_s, ratios_b = [], [], []
    n_engine = max(args.n // 10, 10_000)
    for cell in PAPER_VALUES:
        K, alpha = cell.K, cell.alpha
        rates = {"e": [], "a": [], "s": [], "b": []}
        last = {}
        for rep in range(reps):
            runs = (
                ("e", n_engine, compare_models, dict(n=n_engine, seed=1 + rep)),
                ("a", args.loop_n, loop_cell, dict(n=args.loop_n, seed=rep)),
                ("s", args.loop_n, loop_scalar_cell, dict(n=args.loop_n, seed=rep)),
                ("b", args.sklearn_n, sklearn_cell, dict(n=args.sklearn_n, seed=rep)),
            )
            for key, n_run, fn, kwargs in runs:
                _, cpu, last[key] = timed(partial(fn, K, alpha, **kwargs), 1)
                rates[key].append(n_run * K / cpu)
        per_rep = [e / a for e, a in zip(rates["e"], rates["a"], strict=True)]
        e, a, sc, b = (statistics.median(rates[k]) for k in "easb")
        r_a = statistics.median(per_rep)
        r_s = statistics.median(x / y for x, y in zip(rates["e"], rates["s"], strict=True))
        r_b = statistics.median(x / y for x, y in zip(rates["e"], rates["b"], strict=True))
        ratios_a.append(r_a)
        ratios_s.append(r_s)
        ratios_b.append(r_b)
        print(f"  K={K:<2} a={cell.alpha_label:<3} {e:>11,.0f} {a:>9,.0f} {sc:>9,.0f} {b:>7,.0f} "
              f"{r_a:>7,.0f}x {min(per_rep):>4,.0f}x {r_s:>8,.0f}x {r_b:>7,.0f}x")
    print(f"  engine n = {n_engine:,}, loop n = {args.loop_n:,}, scikit-learn n = {args.sklearn_n:,} "
          "per cell and repeat")
    print(f"  median speed-up over the six cells: {statistics.median(ratios_a):,.0f}x over (a) "
          f"(smallest cell {min(ratios_a):,.0f}x), {statistics.median(ratios_s):,.0f}x over (a'), "
          f"{statistics.median(ratios_b):,.0f}x over (b)")
    # sanity: the implementations estimate the same fractions (last cell, last repeat)
    r = compare_models(K, alpha, n=n_engine, seed=2)
    res_a, res_s, res_b = last["a"], last["s"], last["b"]
    print(f"  last cell, PoB higher / MAP differs: engine {r.pob_higher:.3f}/{r.map_disagree:.3f}, "
          f"(a) {res_a[0]:.3f}/{res_a[1]:.3f}, (a') {res_s[0]:.3f}/{res_s[1]:.3f}, "
          f"(b) {res_b[0]:.3f}/{res_b[1]:.3f}\n")

    # 4. where the time goes
    print("Engine parts, ns per classifier-observation (CPU time, one run of n / 10 classifiers):")
    print("  {:<11} {:>6} {:>10} {:>14} {:>10}".format("cell", "draw", "fast path", "log space only",
                                                      "handed"))
    for cell in PAPER_VALUES:
        m = max(args.n // 10, 10_000)
        draw, fast_s, log_only, share = engine_parts(cell.K, cell.alpha, m, seed=3)
        per = 1e9 / (m * cell.K)
        print(f"  K={cell.K:<2} a={cell.alpha_label:<3} {draw * per:>6.0f} {fast_s * per:>10.0f} "
              f"{log_only * per:>14.0f} {share:>10.2%}")
    print()

    # 5. latency of paper_table(n=100)
    times = [timed(lambda: paper_table(n=100, seed=0), 1)[0] for _ in range(20)]
    print(f"paper_table(n=100): median {1000 * statistics.median(times):.1f} ms, "
          f"max {1000 * max(times):.1f} ms over 20 calls")


if __name__ == "__main__":
    main()
