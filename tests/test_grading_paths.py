"""One class graded through every path gives one gradebook, roster included: on one machine,
as shards on the command line, as the README's Slurm job array on a one-node Slurm cluster,
and as the README's Dask recipe (TLS, bound to one interface) with the scheduler and the
workers as processes of their own. The class has a roster, a notebook copied from a
classmate (identity and all), a student the roster does not list, an untouched template and
a file that is not a notebook; every path uses more shards than there are students."""

import shutil
import ssl
import subprocess

import pytest
from clusters import (
    ROOT,
    Processes,
    commands,
    dask_processes,
    free_port,
    listening,
    make_certificate,
    recipe_block,
    shared_paths,
    slurm_cluster,
    wait_for,
    wait_for_job,
)
from grading_helpers import gradebook_snapshot
from hostile import EX_BINARY, HONEST_LIMITS, code_cells, notebook

from nbcourse.__main__ import main
from nbcourse.grading import Limits, read_roster
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.generate import student_path
from nbcourse.grading.shards import shard_plan

pytestmark = pytest.mark.sandbox
LIMITS = Limits(**HONEST_LIMITS)
STUDENTS = ["ada.ipynb", "bob.ipynb", "carol.ipynb", "dave.ipynb", "eve.ipynb"]
SHARDS = 16  # the README's N, more than the class has students


def _solution_of(student_id):
    cells = code_cells(EX_BINARY / "solution.ipynb")
    i = next(i for i, c in enumerate(cells) if c.startswith("STUDENT_ID ="))
    cells[i] = f"STUDENT_ID = {student_id!r}"
    return cells


def make_class(shared):
    """``shared/submissions/02/`` and ``shared/rosters/02.csv``, as the README lays them out."""
    subs = shared / "submissions" / "02"
    subs.mkdir(parents=True)
    notebook(_solution_of("ada"), subs / "ada.ipynb")
    shutil.copy(subs / "ada.ipynb", subs / "bob.ipynb")  # copied, identity and all
    notebook(_solution_of("carol"), subs / "carol.ipynb")  # not on the roster
    shutil.copy(student_path(EX_BINARY), subs / "dave.ipynb")  # the untouched template
    (subs / "eve.ipynb").write_bytes(b"not a notebook")
    (shared / "rosters").mkdir()
    roster = shared / "rosters" / "02.csv"
    roster.write_text("submission,student_id\nada.ipynb,ada\nbob.ipynb,bob\ndave.ipynb,dave\n"
                      "eve.ipynb,eve\n", encoding="utf-8")
    return subs, roster


@pytest.fixture(scope="module")
def one_machine(tmp_path_factory):
    """The class graded by one run on one machine with the roster: (shared, snapshot)."""
    shared = tmp_path_factory.mktemp("one") / "shared"
    subs, roster = make_class(shared)
    out = shared / "grades" / "02"
    grade_batch(EX_BINARY, sorted(subs.iterdir()), out, workers=2, limits=LIMITS,
                progress=None, roster=read_roster(roster))
    snapshot = gradebook_snapshot(out)
    table = snapshot["grades.csv"]
    rows = {r[0]: dict(zip(table[0], r, strict=True)) for r in table[1:]}
    assert list(rows) == STUDENTS
    # the copy is flagged and its per-student answer is wrong for bob; ada's is right
    assert (rows["bob.ipynb"]["student_id"], rows["bob.ipynb"]["id_check"],
            rows["bob.ipynb"]["claimed_id"]) == ("bob", "differs", "ada")
    assert float(rows["bob.ipynb"]["q7"]) < float(rows["ada.ipynb"]["q7"])
    assert (rows["carol.ipynb"]["id_source"], rows["carol.ipynb"]["id_check"]) == (
        "notebook", "unverified")
    assert rows["eve.ipynb"]["status"] == "invalid"
    _, _, members = shard_plan(sorted(subs.iterdir()), SHARDS)
    assert sum(1 for m in members if not m) >= SHARDS - len(STUDENTS)
    return shared, snapshot


def _fresh_class(tmp_path):
    shared = tmp_path / "shared"
    make_class(shared)
    return shared


def test_shards_on_the_command_line_equal_one_machine(one_machine, tmp_path, capsys):
    shared = _fresh_class(tmp_path)
    subs, roster = shared / "submissions" / "02", shared / "rosters" / "02.csv"
    folders = [shared / "grades" / "02-shards" / str(k) for k in range(SHARDS)]
    for k in range(SHARDS):
        assert main(["grade", "--shard", f"{k}/{SHARDS}", "--workers", "1", "--quiet",
                     "--roster", str(roster), "--assignment", str(EX_BINARY),
                     "--out", str(folders[k]), "--total-timeout", "600", "--cell-timeout",
                     "120", "--probe-timeout", "60", "--memory-mb", "1536",
                     "--max-procs", "48", str(subs)]) == 0
    _, _, members = shard_plan(sorted(subs.iterdir()), SHARDS)
    order = sorted(folders, key=lambda d: bool(members[int(d.name)]))  # empty shards first
    assert main(["grade-merge-shards", "--out", str(shared / "grades" / "02"),
                 *map(str, order)]) == 0
    assert gradebook_snapshot(shared / "grades" / "02") == one_machine[1]
    assert "1 submission not on the roster" in capsys.readouterr().out


@pytest.mark.cluster
def test_the_readme_slurm_recipe_equals_one_machine(one_machine, tmp_path):
    shared = _fresh_class(tmp_path)
    with slurm_cluster(tmp_path / "slurm") as env:
        work = tmp_path / "submit"
        work.mkdir()
        script = shared_paths(recipe_block("#SBATCH"), shared)
        (work / "grade.sbatch").write_text(script, encoding="utf-8")
        submit = shared_paths(recipe_block("jobid=$(sbatch"), shared)
        proc = subprocess.run(["bash", "-euo", "pipefail", "-c", submit], cwd=work, env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        merge_job = proc.stdout.split()[-1]
        states = wait_for_job(env, merge_job)
        logs = "".join(p.read_text(errors="replace") for p in sorted(work.glob("slurm-*")))
        assert states == {"COMPLETED"}, logs
        names = subprocess.run(["scontrol", "-o", "show", "job"], env=env, capture_output=True,
                               text=True).stdout
        assert "JobName=grade-02" in names and "JobName=merge-02" in names
    assert len(list((shared / "grades" / "02-shards").iterdir())) == SHARDS
    assert gradebook_snapshot(shared / "grades" / "02") == one_machine[1], logs


def _dask_recipe(shared, port):
    """The README's Dask block for this machine: ``lo`` for ``ib0``, 127.0.0.1 for the head
    node, a free port, two workers."""
    block = shared_paths(recipe_block("export DASK_CONFIG="), shared)
    block = (block.replace("ib0", "lo").replace("tls://head:8786", f"tls://127.0.0.1:{port}")
             .replace("--port 8786", f"--port {port}").replace("--nworkers 8", "--nworkers 2"))
    lines = commands(block)
    setting = next(c for c in lines if c.startswith("export DASK_CONFIG="))
    return setting, {kind: next(c for c in lines if kind in c)
                     for kind in ("dask scheduler", "dask worker", "nbcourse grade")}


@pytest.mark.cluster
def test_the_readme_dask_recipe_authenticates_and_equals_one_machine(one_machine, tmp_path):
    from distributed import Client
    from distributed.security import Security

    if not (ROOT / ".venv" / "bin" / "dask").exists():
        dask_processes()
        pytest.skip("the README's recipe runs .venv/bin/dask of the checkout, which has none")
    shared = _fresh_class(tmp_path)
    # the README's block that makes the certificate and the configuration, as it stands
    made = subprocess.run(["bash", "-euo", "pipefail", "-c",
                           shared_paths(recipe_block("openssl req"), shared)],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    pem, key = shared / "tls" / "grading.pem", shared / "tls" / "grading.key"
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    rogue_pem, rogue_key = make_certificate(tmp_path / "rogue", "rogue")
    port = free_port()
    setting, cmd = _dask_recipe(shared, port)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TMPDIR": str(tmp_path),
           "LANG": "C.UTF-8"}
    procs = Processes(tmp_path / "dask-logs")
    try:
        procs.start("scheduler", ["bash", "-c", f"{setting}; exec {cmd['dask scheduler']}"],
                    cwd=ROOT, env=env)
        procs.start("workers", ["bash", "-c", f"{setting}; exec {cmd['dask worker']}"],
                    cwd=ROOT, env=env)
        security = Security(tls_ca_file=str(pem), tls_client_cert=str(pem),
                            tls_client_key=str(key), require_encryption=True)
        address = f"tls://127.0.0.1:{port}"

        def two_workers():
            procs.check_alive()
            try:
                with Client(address, security=security, timeout=10) as client:
                    return len(client.scheduler_info()["workers"]) == 2
            except OSError:
                return False

        wait_for("the scheduler and two workers", two_workers, 240, every=2.0)
        # bound to the named interface only
        assert listening(port) == {"0100007F"}
        # a client without the cluster's certificate cannot send anything
        with pytest.raises((OSError, TimeoutError)):
            Client(f"tcp://127.0.0.1:{port}", timeout=5)
        with pytest.raises((OSError, TimeoutError)):
            Client(address, timeout=5, security=Security(
                tls_ca_file=str(pem), tls_client_cert=str(rogue_pem),
                tls_client_key=str(rogue_key), require_encryption=True))
        _refused_without_a_certificate(port, pem)
        # the recipe's grading command, as the README writes it
        proc = subprocess.run(["bash", "-c", f"{setting}; {cmd['nbcourse grade']}"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=1800)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "1 submission not on the roster" in proc.stdout
        assert gradebook_snapshot(shared / "grades" / "02") == one_machine[1]
        # more shards than students, through the same cluster
        out = shared / "grades" / "02-many"
        roster = shared / "rosters" / "02.csv"
        assert main(["grade", "--dask", address, "--shards", str(SHARDS), "--quiet",
                     "--tls-ca-file", str(pem), "--tls-cert", str(pem), "--tls-key", str(key),
                     "--roster", str(roster), "--assignment", str(EX_BINARY), "--out", str(out),
                     str(shared / "submissions" / "02")]) == 0
        assert gradebook_snapshot(out) == one_machine[1]
    except BaseException:
        procs.dump()
        raise
    finally:
        procs.stop()


def _refused_without_a_certificate(port, pem):
    """A TLS client that trusts the scheduler but presents no certificate of its own is
    dropped during or right after the handshake, before a message is read."""
    import socket

    context = ssl.create_default_context(cafile=str(pem))
    context.check_hostname = False
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        try:
            with context.wrap_socket(raw) as tls:
                tls.sendall(b"\x00" * 64)
                data = tls.recv(1024)
        except (ssl.SSLError, ConnectionError, OSError):
            return
    assert data == b"", f"the scheduler answered a client without a certificate: {data!r}"


def test_the_recipes_pass_the_roster_and_name_their_jobs():
    sbatch = recipe_block("#SBATCH")
    assert "--job-name=grade-02" in sbatch and "exercises/02-binary-discriminant" in sbatch
    assert "--roster" in sbatch and "--roster" in recipe_block("export DASK_CONFIG=")
    scheduler = next(c for c in commands(recipe_block("export DASK_CONFIG="))
                     if "dask scheduler" in c)
    assert "--protocol tls" in scheduler and "--interface" in scheduler
    assert "--no-dashboard" in scheduler  # no dashboard open to every interface
