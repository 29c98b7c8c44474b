"""``python -m nbcourse reproduce``: print Williams (2024) §3 with our values beside the paper's."""

from __future__ import annotations

import argparse

from .._validation import check_int, check_positive
from .draws import PAPER_C, PAPER_N
from .paper import paper_table

__all__: list[str] = []  # run as python -m nbcourse reproduce, or call main(argv)


def _prior_alpha_arg(text: str):
    if text == "alpha":
        return "alpha"
    try:
        return check_positive(float(text), "--prior-alpha")
    except ValueError:
        raise argparse.ArgumentTypeError(f'expected a positive number or "alpha", got {text!r}') from None


def _int_arg(minimum: int):
    """An argparse type: an integer ``>= minimum``, checked by :func:`check_int`."""
    def parse(text: str) -> int:
        try:
            return check_int(int(text), "the value", minimum)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected an integer >= {minimum}, got {text!r}") from None
    return parse


def main(argv=None) -> int:
    """``python -m nbcourse reproduce [--n N] [--seed S] [--prior-alpha A]``: print the table.

    Prints the paper's values, ours and the cluster-bootstrap 95% intervals for
    the six cells of Williams (2024) §3.  Returns the exit code (0 on success,
    2 on bad arguments).

    Examples
    --------
    >>> main(["--n", "100", "--seed", "0"])  # doctest: +ELLIPSIS
    Williams (2024) §3: C = 4, n = 100 classifiers per cell, pi ~ Dir(1), seed 0
    ...
    0
    """
    parser = argparse.ArgumentParser(
        prog="python -m nbcourse reproduce",
        description="Reproduce the two tables of Williams (2024) §3: the paper's values, ours, "
                    "and cluster-bootstrap intervals.",
    )
    parser.add_argument("--n", type=_int_arg(1), default=PAPER_N,
                        help="classifiers per cell (default: 100, as in the paper)")
    parser.add_argument("--seed", type=_int_arg(0), default=0, help="random seed (default: 0)")
    parser.add_argument("--prior-alpha", type=_prior_alpha_arg, default=1.0,
                        help='pi ~ Dir(A * 1); "alpha" uses each cell\'s alpha (default: 1)')
    try:
        args = parser.parse_args([] if argv is None else list(argv))
    except SystemExit as exc:  # argparse has printed the message
        return int(exc.code or 0)
    table = paper_table(n=args.n, seed=args.seed, prior_alpha=args.prior_alpha)
    prior = "alpha" if args.prior_alpha == "alpha" else f"{args.prior_alpha:g}"
    print(f"Williams (2024) §3: C = {PAPER_C}, n = {args.n} classifiers per cell, "
          f"pi ~ Dir({prior}), seed {args.seed}")
    print(table.to_string())
    print("Intervals: percentile cluster bootstrap (classifiers resampled with all K of their "
          "observations); excluded: observations with zero probability under every class.")
    return 0
