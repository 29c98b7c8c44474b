"""A batch split into shards, graded on many machines, merged into one gradebook.

A batch (the submissions given to ``grade``, in the order given) splits into ``N`` shards
by a stable rule: the submission whose output name is ``name`` (its path relative to the
batch's base folder, :func:`~nbcourse.grading.names.output_names`) belongs to shard
``sha256(name) mod N`` (:func:`shard_of`). The rule depends on neither the order of the
files nor the machine nor where the folder of submissions is mounted, and every
submission belongs to exactly one shard.

* ``python -m nbcourse grade --shard K/N --out SHARD_K ...`` grades shard ``K`` of ``N``
  into its own output folder (an ordinary, resumable output folder that also records which
  shard of which batch it holds, in ``.nbcourse/shard.json``);
* ``python -m nbcourse grade-merge-shards --out OUT SHARD_0 ... SHARD_N-1`` merges the
  ``N`` shard folders into ``OUT`` (:func:`merge_shards`);
* ``python -m nbcourse grade --dask ADDRESS --out OUT ...`` runs the shards as tasks of a
  Dask distributed cluster and merges them (:func:`grade_on_dask`).

The merged folder equals the folder that one ``grade`` run on one machine writes for the
same submissions: the same ``grades.csv`` rows in the same order, the same
``results.json`` of every submission, the same ``written-answers.csv`` and ``.html``,
except for the measured times, which differ between any two runs (also two runs on one
machine): the ``seconds`` column of ``grades.csv`` (:data:`PER_RUN`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from .gradebook import BATCH, GRADES, STATE, OutputFolder

__all__ = ["PER_RUN", "grade_on_dask", "grade_shard", "merge_shards", "parse_shard",
           "shard_of", "shard_plan"]

SHARD = "shard.json"
MERGED = "merged.json"
#: Per-run fields, which differ between any two runs: (file, field).
PER_RUN = (("grades.csv", "seconds"),)
_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def shard_of(name, count):
    """The shard (0 .. ``count`` - 1) of the submission with output name ``name``.

    >>> [shard_of(n, 4) for n in ("ada.ipynb", "bob.ipynb", "a/hw.ipynb")] == [
    ...     shard_of(n, 4) for n in ("ada.ipynb", "bob.ipynb", "a/hw.ipynb")]
    True
    """
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ValueError(f"count must be an integer >= 1, got {count!r}")
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count


def parse_shard(text):
    """``(K, N)`` from ``"K/N"``; ValueError naming ``--shard`` unless 0 <= K < N.

    >>> parse_shard("0/4"), parse_shard(" 3 / 4 ")
    ((0, 4), (3, 4))
    """
    match = _SPEC.match(str(text))
    if not match:
        raise ValueError(f"argument --shard: expected K/N with integers 0 <= K < N "
                         f"(e.g. 0/4), got {text!r}")
    k, n = int(match.group(1)), int(match.group(2))
    if n < 1 or k >= n:
        raise ValueError(f"argument --shard: expected K/N with integers 0 <= K < N and "
                         f"N >= 1 (shards are numbered from 0), got {text!r}")
    return k, n


def _batch_digest(names):
    """A fingerprint of the batch: its output names in order."""
    return hashlib.sha256("\n".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def shard_plan(notebooks, count, base=None):
    """Split a batch: ``(base, names, shards)`` where ``names`` are the output names of
    every notebook (relative to ``base``, by default the folder the notebooks share, as
    one ``grade`` run would name them) and ``shards[k]`` the indices of shard ``k``."""
    from .names import output_names

    paths = [os.path.abspath(os.fspath(p)) for p in notebooks]
    if not paths:
        raise ValueError("submissions: expected at least one .ipynb file, got none")
    if base is None:
        base = os.path.commonpath([os.path.dirname(p) for p in paths])
    base = os.path.abspath(os.fspath(base))
    names = output_names(paths, base)
    shards = [[] for _ in range(count)]
    for i, name in enumerate(names):
        shards[shard_of(name, count)].append(i)
    return base, names, shards


def grade_shard(assignment_dir, notebooks, out_dir, shard, count, base=None, roster=None,
                **options):
    """Grade shard ``shard`` of ``count`` of the batch ``notebooks`` into ``out_dir`` with
    :func:`~nbcourse.grading.batch.grade_batch` (``options``: its keyword arguments).

    ``notebooks`` is the whole batch, the same on every machine; only this shard's
    submissions are graded. Output names are those of the whole batch, and the roster (a
    :class:`~nbcourse.grading.variants.Roster`) is checked against the whole batch too, so
    a row that would match two submissions is refused on every machine. The shard records
    the assignment and its columns, the batch, the base and the roster's digest in
    ``.nbcourse/shard.json``, which the merge checks. Running it again resumes the shard.
    ValueError if ``out_dir`` holds another shard, another batch, or grades made with
    another roster or base."""
    from .assignment import load_assignment
    from .batch import grade_batch, gradebook_columns

    if not isinstance(count, int) or isinstance(count, bool) or count < 1 or not (
            isinstance(shard, int) and 0 <= shard < count):
        raise ValueError(f"argument --shard: expected K/N with integers 0 <= K < N, got "
                         f"{shard!r}/{count!r}")
    base, names, shards = shard_plan(notebooks, count, base)
    paths = [os.path.abspath(os.fspath(p)) for p in notebooks]
    if roster is not None:
        roster.owners(names, paths)  # a row matching two submissions of the batch: refused
    mine = shards[shard]
    assignment = load_assignment(assignment_dir)
    record = {"assignment": assignment.name, "shard": shard, "count": count,
              "batch": _batch_digest(names), "size": len(names), "base": base,
              "columns": gradebook_columns(assignment),
              "roster": None if roster is None else roster.digest,
              "names": [[i, names[i]] for i in mine]}
    folder = OutputFolder(out_dir)
    with folder.lock():
        old = folder._read_json(SHARD)
        if old is not None and (old.get("shard"), old.get("count"), old.get("batch")) != (
                shard, count, record["batch"]):
            raise ValueError(
                f"out must be a new folder or one of this very shard: {out_dir} holds shard "
                f"{old.get('shard')}/{old.get('count')} of "
                f"{'this' if old.get('batch') == record['batch'] else 'another'} batch, "
                f"not shard {shard}/{count} of this one")
        if old is None and (Path(out_dir) / GRADES).exists():
            raise ValueError(f"out must be a new folder or one of this very shard: {out_dir} "
                             f"holds grades that are not a shard's")
        if old is not None and "roster" in old and old["roster"] != record["roster"]:
            raise ValueError(
                f"roster: {out_dir} holds shard {shard}/{count} graded "
                + (f"with the roster of sha256 {old['roster'][:12]}" if old["roster"]
                   else "without a roster")
                + "; pass the same --roster as before (every shard of a batch is graded "
                  "with one roster), or grade into a new folder")
        folder.claim(assignment.name)
        folder.base(paths, base)
        folder.check_roster(roster, folder.read_rows(record["columns"]))
        folder._write_json(SHARD, record)
    if not mine:
        return _empty_results()
    return grade_batch(assignment.path, [notebooks[i] for i in mine], out_dir, base=base,
                       roster=roster, **options)


def _empty_results():
    from .batch import BatchResults

    return BatchResults()


# --- merge -----------------------------------------------------------------------------


def _shard_record(path):
    state = Path(path) / STATE
    try:
        record = json.loads((state / SHARD).read_text(encoding="utf-8"))
        batch = json.loads((state / BATCH).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ValueError(f"shards: expected output folders of 'grade --shard K/N', got "
                         f"{str(path)!r}, which has no readable {STATE}/{SHARD}") from None
    return record, batch


def merge_shards(out_dir, shard_dirs, progress=None):
    """Merge the output folders of all shards of one batch into ``out_dir``; return the
    number of submissions.

    ``out_dir`` must be new, or the output of an earlier merge of the same batch (merged
    again, e.g. after a shard was resumed: the written scores ``grade-merge`` added to it
    are kept). ValueError, naming the argument, if the shards are not all ``N`` shards of
    one batch of one assignment, if two folders hold the same shard or the same
    submission, or if a shard has not finished."""
    from .files import _write_atomic
    from .written import read_written_csv

    shard_dirs = [Path(d) for d in shard_dirs]
    if not shard_dirs:
        raise ValueError("shards: expected the output folders of every shard, got none")
    out_dir = Path(out_dir)
    records = [(d, *_shard_record(d)) for d in shard_dirs]
    first, rec0, batch0 = records[0]
    by_shard, owner = {}, {}
    for d, rec, _ in records:
        if os.path.abspath(d) == os.path.abspath(out_dir):
            raise ValueError(f"out must not be one of the shards, got {str(out_dir)!r}")
        if rec["assignment"] != rec0["assignment"]:
            raise ValueError(f"shards: expected shards of one assignment, got "
                             f"{rec0['assignment']!r} in {str(first)!r} and "
                             f"{rec['assignment']!r} in {str(d)!r}")
        if (rec["count"], rec["batch"]) != (rec0["count"], rec0["batch"]):
            raise ValueError(f"shards: expected shards of one batch, got {str(first)!r} "
                             f"(shard {rec0['shard']}/{rec0['count']} of batch "
                             f"{rec0['batch'][:12]}) and {str(d)!r} (shard "
                             f"{rec['shard']}/{rec['count']} of batch {rec['batch'][:12]})")
        if rec.get("roster", _NOT_RECORDED) != rec0.get("roster", _NOT_RECORDED):
            raise ValueError(f"shards: expected shards graded with one roster, got "
                             f"{str(first)!r} ({_roster_text(rec0)}) and {str(d)!r} "
                             f"({_roster_text(rec)}); grade shard {rec['shard']}/"
                             f"{rec['count']} again into a new folder with the batch's "
                             f"--roster")
        if rec["shard"] in by_shard:
            raise ValueError(f"shards: overlapping shard outputs: {str(by_shard[rec['shard']])!r} "
                             f"and {str(d)!r} both hold shard {rec['shard']}/{rec['count']}")
        by_shard[rec["shard"]] = d
        for _, name in rec["names"]:
            if name in owner:
                raise ValueError(f"shards: overlapping shard outputs: {str(owner[name])!r} "
                                 f"and {str(d)!r} both hold submission {name!r}")
            owner[name] = d
    count = rec0["count"]
    missing = [k for k in range(count) if k not in by_shard]
    if missing:
        raise ValueError(f"shards: expected all {count} shards of the batch, got "
                         f"{len(by_shard)}; missing shard "
                         f"{', '.join(f'{k}/{count}' for k in missing)}")
    # every submission of the batch, in the order of the batch
    order = {}
    for d, rec, _ in records:
        for i, name in rec["names"]:
            order[i] = (name, d)
    if sorted(order) != list(range(rec0["size"])):
        raise ValueError(f"shards: the shards of batch {rec0['batch'][:12]} do not cover its "
                         f"{rec0['size']} submissions")
    # the columns come from the assignment (recorded by every shard), not from a shard's
    # grades.csv, which an empty shard does not have
    columns = rec0.get("columns")
    rows, written_rows = {}, {}
    shard_written = []
    for d, rec, _ in records:
        if rec.get("columns") != columns:
            raise ValueError(f"shards: expected shards of one version of the assignment, got "
                             f"the columns {columns} in {str(first)!r} and {rec.get('columns')}"
                             f" in {str(d)!r}")
        folder = OutputFolder(d)
        with folder.lock():
            shard_rows = folder.read_rows(columns)
            columns = columns or folder.columns or None
            names = [name for _, name in rec["names"]]
            unfinished = [n for n in names
                          if n not in shard_rows or not (d / n / "results.json").is_file()]
            if unfinished:
                raise ValueError(
                    f"shards: shard {rec['shard']}/{count} in {str(d)!r} has not finished: "
                    f"{len(unfinished)} of its {len(names)} submissions are not graded (first "
                    f"{unfinished[0]!r}); run its 'grade --shard {rec['shard']}/{count}' "
                    f"again to resume it")
            expected = set(names)
            extra = [n for n in shard_rows if n not in expected]
            if extra:
                raise ValueError(f"shards: {str(d)!r} holds submissions that are not in "
                                 f"shard {rec['shard']}/{count} of the batch (first "
                                 f"{extra[0]!r}); grade them in their own shard")
            for n in names:
                _check_row(d, n, shard_rows[n])
            rows.update({n: shard_rows[n] for n in names})
            written_rows.update(read_written_csv(d))
            written = folder.load_written()
            if written.merged:
                shard_written.append(written)
    out = OutputFolder(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with out.lock():
        merged = out._read_json(MERGED)
        roster = rec0.get("roster")
        if (out_dir / GRADES).exists() and (merged or {}).get("batch") != rec0["batch"]:
            raise ValueError(f"out must be a new folder or the output of an earlier merge of "
                             f"the same shards, got {str(out_dir)!r}, which holds other grades")
        if merged and "roster" in merged and merged["roster"] != roster:
            raise ValueError(f"roster: {str(out_dir)!r} was merged from shards graded "
                             f"{_roster_text(merged)}, these are graded {_roster_text(rec0)}; "
                             f"merge them into a new folder")
        out.claim(rec0["assignment"])
        # rows added to an earlier merge since (late work) are kept, after the batch's
        later = {n: r for n, r in out.read_rows(columns).items() if n not in owner} \
            if merged else {}
        # recorded first, so that a merge stopped halfway can be run again
        out._write_json(MERGED, {"batch": rec0["batch"], "count": count, "roster": roster,
                                 "shards": [str(by_shard[k]) for k in range(count)]})
        out._write_json(BATCH, {**(out._read_json(BATCH) or {}), "names": "case-folded",
                                "base": rec0.get("base", batch0.get("base")),
                                "roster": {"sha256": roster, "path": None} if roster else None})
        written = out.load_written()
        for other in shard_written:
            for q, top in other.questions.items():
                written.questions[q] = max(written.questions.get(q, 0.0), top)
            for name, scores in other.scores.items():
                written.scores.setdefault(name, {}).update(scores)
            written.merged = True
        if written.merged:
            out.save_written(written)
        ordered = [order[i] for i in sorted(order)]
        for name, d in ordered:
            text = (d / name / "results.json").read_text(encoding="utf-8")
            if written.merged:
                text = json.dumps(written.apply(json.loads(text), name), indent=2) + "\n"
            (out_dir / name).mkdir(parents=True, exist_ok=True)
            _write_atomic(out_dir / name / "results.json", text)
        out.write_grades(columns, {**{name: rows[name] for name, _ in ordered}, **later},
                         written)
        out.clear_finished()
        if written_rows:
            old = read_written_csv(out_dir)
            rank = {name: k for k, (name, _) in enumerate(ordered)}
            keys = sorted(written_rows, key=lambda key: (rank.get(key[0], len(rank)),))
            export = _Export(out_dir, _stored_rubric(shard_dirs))
            for key in keys:
                row = dict(written_rows[key])
                for column in ("points", "max_points", "comment"):
                    if not row.get(column) and old.get(key, {}).get(column):
                        row[column] = old[key][column]
                export.rows[key] = row
            for key in old:  # the written answers of rows added since the earlier merge
                if key[0] in later:
                    export.rows[key] = old[key]
            export.finish()
    if progress:
        progress(f"merged {count} shards ({len(ordered)} submissions) into "
                 f"{out_dir / GRADES}")
    return len(ordered)


_NOT_RECORDED = object()


def _roster_text(rec):
    roster = rec.get("roster", _NOT_RECORDED)
    if roster is _NOT_RECORDED:
        return "no roster recorded"
    return f"roster sha256 {roster[:12]}" if roster else "without a roster"


def _check_row(shard_dir, name, row):
    """ValueError unless the grades.csv row of ``name`` in a shard says what its
    ``results.json`` says: each question's score, the total, the maximum and the identity
    (a grades.csv edited by hand is not merged)."""
    from .gradebook import WRITTEN_TEST, _float, _unquoted

    path = Path(shard_dir) / name / "results.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        tests = [t for t in data["tests"] if not str(t["name"]).endswith(WRITTEN_TEST)]
        written = sum(float(t["score"]) for t in data["tests"]
                      if str(t["name"]).endswith(WRITTEN_TEST))
        said = {"total": float(data["score"]) - written,
                "max": sum(float(t["max_score"]) for t in tests)}
        for t in tests:
            q = str(t["name"]).split(" (", 1)[0]
            said[q] = said.get(q, 0.0) + float(t["score"])
        identity = (data.get("extra_data") or {}).get("identity") or {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"shards: {str(path)!r} must be the results.json of a graded "
                         f"submission, got one that cannot be read ({exc})") from None
    problems = [f"{column} {row.get(column)!r} where results.json says {value:g}"
                for column, value in said.items()
                if column in row and abs(_float(row.get(column)) - value) > 1e-3]
    for column, key in (("student_id", "student_id"), ("id_source", "source"),
                        ("id_check", "check"), ("claimed_id", "claimed")):
        if identity and column in row and _unquoted(row[column]) != identity.get(key, ""):
            problems.append(f"{column} {row[column]!r} where results.json says "
                            f"{identity.get(key, '')!r}")
    if problems:
        raise ValueError(f"shards: the row of {name!r} in {str(Path(shard_dir) / GRADES)!r} "
                         f"disagrees with its results.json: {'; '.join(problems)}; grades.csv "
                         f"of a shard is written by grade only: run its 'grade --shard' again "
                         f"with --regrade for that submission, or restore the file")


def _Export(out_dir, rubric):  # noqa: N802 - the written module is imported on first use
    """``written-answers.csv`` and ``.html`` to be written from rows already read, with the
    assignment's ``rubric`` (as each shard's export stored it)."""
    from .written import WrittenExport

    export = WrittenExport.__new__(WrittenExport)
    export.out_dir, export.rows, export.questions = Path(out_dir), {}, True
    export.rubric = rubric
    return export


def _stored_rubric(shard_dirs):
    """The rubric a shard's written-answer export kept in its state folder, or {}."""
    from .written import RUBRIC_STORE

    for d in shard_dirs:
        path = Path(d) / STATE / RUBRIC_STORE
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    return {}


# --- Dask distributed ------------------------------------------------------------------


def _dask_shard(assignment_dir, notebooks, out_dir, shard, count, base, limits,
                allow_per_process_limits, regrade, roster=None):
    """One Dask task: grade one shard with one grading worker process on this machine
    (``roster``: the entries and path of the batch's roster, or None)."""
    from .assignment import Limits
    from .variants import Roster

    results = grade_shard(assignment_dir, notebooks, out_dir, shard, count, base=base,
                          roster=None if roster is None else Roster(*roster),
                          workers=1, limits=Limits(**limits), progress=None,
                          allow_per_process_limits=allow_per_process_limits, regrade=regrade)
    from distributed import get_worker

    return {"shard": shard, "graded": len(results), "kept": len(results.kept),
            "worker": f"{get_worker().name} ({os.uname().nodename})"}


def grade_on_dask(scheduler, assignment_dir, notebooks, out_dir, shards=None, limits=None,
                  allow_per_process_limits=False, regrade=False, base=None, progress=print,
                  roster=None, security=None):
    """Grade the batch ``notebooks`` on the Dask distributed cluster whose scheduler is at
    ``scheduler`` (``tls://host:8786``, or a ``distributed.Client``) and merge it into
    ``out_dir``; return the number of submissions.

    The batch splits into ``shards`` shards (default: 2 per worker thread of the cluster,
    at most one per submission); each is one task, which grades its shard into
    ``out_dir/.nbcourse/shards/K-of-N`` with the sandbox of the machine it runs on, checking
    per-student answers for the owners the ``roster`` (a
    :class:`~nbcourse.grading.variants.Roster`, sent with each task) names. The
    submissions and ``out_dir`` must be on storage that every worker sees at the same
    path. ``security`` (a ``distributed.Security``) authenticates the client to a
    scheduler that requires TLS. Running it again resumes every shard, then merges again."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ValueError(f"argument --dask: needs the packages dask and distributed (pinned in "
                         f"requirements-dev.txt), which are not installed: {exc}") from None

    from .assignment import load_assignment

    assignment = load_assignment(assignment_dir)
    limits = limits or assignment.limits
    notebooks = [os.path.abspath(os.fspath(p)) for p in notebooks]
    out_dir = Path(os.path.abspath(os.fspath(out_dir)))
    if shards is not None and (not isinstance(shards, int) or isinstance(shards, bool)
                               or shards < 1):
        raise ValueError(f"argument --shards: expected an integer >= 1, got {shards!r}")
    base, names, _ = shard_plan(notebooks, shards or 1, base)
    if roster is not None:
        roster.owners(names, notebooks)  # refused here rather than in every task
    sent = None if roster is None else (roster.entries, roster.path)
    own = not isinstance(scheduler, Client)
    client = Client(scheduler, security=security) if own else scheduler
    try:
        if shards is None:
            threads = sum(client.nthreads().values())
            shards = max(1, min(len(notebooks), 2 * max(1, threads)))
        digest = _batch_digest(names)[:12]
        folders = [out_dir / STATE / "shards" / f"{k}-of-{shards}" for k in range(shards)]
        futures = [client.submit(_dask_shard, str(assignment.path), notebooks, str(folders[k]),
                                 k, shards, base, dict(limits.__dict__),
                                 bool(allow_per_process_limits), bool(regrade), sent,
                                 pure=False, key=f"nbcourse-grade-{digest}-{k}-of-{shards}")
                   for k in range(shards)]
        for done, future in enumerate(as_completed(futures), 1):
            info = future.result()
            if progress:
                progress(f"[{done:>{len(str(shards))}}/{shards}] shard {info['shard']}/{shards}"
                         f" on {info['worker']}: {info['graded']} graded, {info['kept']} kept")
    finally:
        if own:
            client.close()
    return merge_shards(out_dir, folders, progress)


# --- command line ----------------------------------------------------------------------


def shard_options(parser):
    """The options of ``grade`` for shards and for Dask."""
    group = parser.add_argument_group("many machines (README: grading on a cluster)")
    group.add_argument("--shard", metavar="K/N",
                       help="grade only shard K of N (K = 0 .. N-1) of the submissions given, "
                            "into --out; merge the N outputs with grade-merge-shards")
    group.add_argument("--dask", metavar="ADDRESS",
                       help="grade on the Dask distributed cluster whose scheduler is at "
                            "ADDRESS (tcp://host:8786), one task per shard, and merge into "
                            "--out; submissions and --out must be on storage every worker "
                            "sees at the same path")
    group.add_argument("--shards", type=int, metavar="N",
                       help="with --dask: number of shards (default 2 per worker thread)")
    group.add_argument("--tls-ca-file", metavar="PEM",
                       help="with --dask: the certificate authority the scheduler's "
                            "certificate is checked against (README: Dask distributed)")
    group.add_argument("--tls-cert", metavar="PEM",
                       help="with --dask: this client's certificate, which the scheduler "
                            "checks")
    group.add_argument("--tls-key", metavar="PEM",
                       help="with --dask: the private key of --tls-cert (default: in it)")


def dask_security(parser, args):
    """The ``distributed.Security`` of the ``--tls-*`` options, or None without them."""
    given = [args.tls_ca_file, args.tls_cert, args.tls_key]
    if not any(given):
        return None
    if args.dask is None:
        parser.error("argument --tls-ca-file: expected only with --dask")
    if not (args.tls_ca_file and args.tls_cert):
        parser.error("argument --tls-ca-file: expected --tls-ca-file and --tls-cert "
                     "together (and --tls-key unless the key is in the certificate file)")
    for option, path in zip(("--tls-ca-file", "--tls-cert", "--tls-key"), given, strict=True):
        if path is not None and not Path(path).is_file():
            parser.error(f"argument {option}: expected a PEM file, got {path!r}, which is not "
                         f"a file")
    try:
        from distributed.security import Security
    except ImportError as exc:
        parser.error(f"argument --dask: needs the packages dask and distributed (pinned in "
                     f"requirements-dev.txt), which are not installed: {exc}")
    return Security(tls_ca_file=args.tls_ca_file, tls_client_cert=args.tls_cert,
                    tls_client_key=args.tls_key, require_encryption=True)


def run_sharded(parser, args, assignment, notebooks, limits, roster=None):
    """``grade`` with ``--shard`` or ``--dask``: None if neither was given, else the exit
    status. ``roster``: the batch's roster (a :class:`~nbcourse.grading.variants.Roster`),
    which travels with every shard."""
    import sys
    import time

    from .gradebook import OutputBusy, OutputFolder
    from .sandbox import IsolationError
    from .variants import report_identities

    security = dask_security(parser, args)
    if args.shard is None and args.dask is None:
        if args.shards is not None:
            parser.error("argument --shards: expected only with --dask")
        return None
    if args.shard is not None and args.dask is not None:
        parser.error("argument --shard: not allowed with --dask, which runs every shard")
    if args.shards is not None and args.dask is None:
        parser.error("argument --shards: expected only with --dask")
    progress = None if args.quiet else print
    start = time.monotonic()
    try:
        if args.dask is not None:
            if args.shards is not None and args.shards < 1:
                parser.error(f"argument --shards: expected an integer >= 1, got {args.shards}")
            count = grade_on_dask(args.dask, assignment.path, notebooks, args.out, args.shards,
                                  limits, args.allow_per_process_limits, args.regrade,
                                  args.base, progress, roster, security)
            report_identities(None, roster, OutputFolder(args.out).read_rows(None))
            print(f"{count} submissions graded on {args.dask} in "
                  f"{time.monotonic() - start:.1f} s -> {Path(args.out) / GRADES}")
            return 0
        try:
            k, n = parse_shard(args.shard)
        except ValueError as exc:
            parser.error(str(exc))
        results = grade_shard(assignment.path, notebooks, args.out, k, n, base=args.base,
                              roster=roster, workers=args.workers, limits=limits,
                              progress=progress,
                              allow_per_process_limits=args.allow_per_process_limits,
                              regrade=args.regrade)
    except (IsolationError, OutputBusy, ValueError, OSError) as exc:
        print(f"nbcourse grade: {exc}", file=sys.stderr)
        return 2
    report_identities(None, roster, OutputFolder(args.out).read_rows(None))
    graded = sum(r.status == "graded" for r in results)
    print(f"shard {k}/{n}: {len(results)} submissions ({graded} graded, "
          f"{len(results) - graded} invalid or failed; {len(results.kept)} already graded "
          f"and kept) in {time.monotonic() - start:.1f} s -> {Path(args.out) / GRADES}")
    return 0


def merge_main(argv=None):
    """``python -m nbcourse grade-merge-shards --out OUT SHARD...``."""
    import argparse
    import sys

    from .gradebook import OutputBusy

    parser = argparse.ArgumentParser(
        prog="python -m nbcourse grade-merge-shards",
        description="Merge the output folders of 'grade --shard K/N', one for every K, into "
                    "one output folder equal to that of one 'grade' run over the whole batch "
                    "(except the measured times).", allow_abbrev=False)
    parser.add_argument("--out", required=True,
                        help="new output folder (or the output of an earlier merge of the "
                             "same shards, whose written scores are kept)")
    parser.add_argument("--quiet", action="store_true", help="no summary line")
    parser.add_argument("shards", nargs="+", help="the N output folders of the shards")
    args = parser.parse_args(argv)
    try:
        merge_shards(args.out, args.shards, None if args.quiet else print)
    except (ValueError, OSError, OutputBusy) as exc:
        print(f"nbcourse grade-merge-shards: {exc}", file=sys.stderr)
        return 2
    return 0
