"""Clusters that tests start and stop themselves, in their own temporary folder: a one-node
Slurm cluster (``munged``, ``slurmctld``, ``slurmd`` from Debian's ``munge`` and
``slurm-wlm``) and a Dask scheduler with workers speaking TLS, each a process of its own.

Where a cluster cannot be started (the packages are missing), the test is skipped with a
message, unless ``NBCOURSE_REQUIRE_CLUSTERS`` is set, as CI sets it: then it fails.
Every wait is bounded and says what it waited for; every process started here is stopped
here, by its own handle.
"""

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "exercises" / "README.md"


def unavailable(why):
    """Skip with ``why``, or fail where CI requires the clusters."""
    if os.environ.get("NBCOURSE_REQUIRE_CLUSTERS"):
        pytest.fail(f"NBCOURSE_REQUIRE_CLUSTERS is set, but {why}")
    pytest.skip(why)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, check, timeout=180.0, every=0.5):
    """Call ``check`` until it returns something true; fail naming ``what`` after
    ``timeout`` seconds (a deadline for a failure, never a measurement)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what} after {timeout:.0f} s")
        time.sleep(every)


def recipe_block(marker):
    """The fenced code block of exercises/README.md that contains the line ``marker``."""
    text = README.read_text(encoding="utf-8")
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M):
        if any(line.startswith(marker) for line in block.splitlines()):
            return block
    raise AssertionError(f"exercises/README.md has no code block with a line {marker!r}")


def shared_paths(text, shared):
    """The recipe with ``/shared/nbcourse`` this checkout and ``/shared/`` the folder
    ``shared`` of the test."""
    return text.replace("/shared/nbcourse", str(ROOT)).replace("/shared/", f"{shared}/")


def commands(block):
    """The commands of a shell block: continuation lines joined, comments left out."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line.strip() for line in joined.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


class Processes:
    """Processes started by a test, each logging to a file of its own; stopped in reverse
    order by their own handles."""

    def __init__(self, logs):
        self.logs = Path(logs)
        self.logs.mkdir(parents=True, exist_ok=True)
        self.procs = []

    def start(self, name, argv, **kwargs):
        log = open(self.logs / f"{name}.log", "w")
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, **kwargs)
        log.close()
        self.procs.append((name, proc))
        return proc

    def check_alive(self):
        for name, proc in self.procs:
            if proc.poll() is not None:
                pytest.fail(f"{name} exited with {proc.returncode}:\n{self.tail(name)}")

    def tail(self, name, size=3000):
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-size:] if path.exists() else ""

    def dump(self):
        for path in sorted(self.logs.iterdir()):
            print(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}")

    def stop(self):
        for _, proc in self.procs[::-1]:
            if proc.poll() is None:
                proc.terminate()
        for _, proc in self.procs[::-1]:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- Slurm ------------------------------------------------------------------------------------

SLURM_CONF = """\
ClusterName=nbcourse
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
AuthType=auth/munge
AuthInfo=socket={sockets}/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation={tmp}/state
SlurmdSpoolDir={sockets}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/logs/slurmctld-file.log
SlurmdLogFile={tmp}/logs/slurmd-file.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
NodeName=nbcourse-node NodeAddr=127.0.0.1 CPUs=2 RealMemory=16000 State=UNKNOWN
PartitionName=grading Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""

SLURM_TOOLS = ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol",
               "scancel")


@contextlib.contextmanager
def slurm_cluster(tmp):
    """A one-node Slurm cluster in the folder ``tmp``; yields the environment in which
    ``sbatch`` and friends talk to it (``SLURM_CONF``).

    munged's socket and slurmd's spool (where each job step binds a socket named
    ``<node>_<job>.<step>``) live in a short-named temporary folder, removed afterwards:
    a socket's path is limited to 107 bytes, which a test's own folder can exceed."""
    missing = [t for t in SLURM_TOOLS if not shutil.which(t, path=os.environ.get("PATH", "")
                                                          + ":/usr/sbin:/sbin")]
    if missing:
        unavailable(f"a Slurm cluster needs Debian's slurm-wlm and munge "
                    f"(missing: {', '.join(missing)})")
    if os.geteuid() != 0:
        unavailable("the one-node Slurm cluster runs its daemons as root")
    tmp = Path(tmp)
    for sub in ("state", "logs"):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
    sockets = Path(tempfile.mkdtemp(prefix="nbslurm-", dir="/tmp"))
    (sockets / "spool").mkdir()
    os.chmod(tmp, 0o711)
    os.chmod(sockets, 0o711)  # munged's socket folder must be searchable
    sbin = "/usr/sbin:/sbin:"
    env = {**os.environ, "SLURM_CONF": str(tmp / "slurm.conf"),
           "PATH": sbin + os.environ.get("PATH", "/usr/bin:/bin")}
    subprocess.run(["mungekey", "--create", f"--keyfile={tmp}/munge.key"], check=True, env=env)
    os.chmod(tmp / "munge.key", 0o600)
    conf = SLURM_CONF.format(host=socket.gethostname().split(".")[0], tmp=tmp, sockets=sockets,
                             ctld_port=free_port(), d_port=free_port())
    (tmp / "slurm.conf").write_text(conf, encoding="utf-8")
    procs = Processes(tmp / "logs")
    try:
        procs.start("munged", ["munged", "--foreground", "--force", f"--key-file={tmp}/munge.key",
                               f"--socket={sockets}/munge.socket", f"--pid-file={tmp}/munged.pid",
                               f"--log-file={tmp}/logs/munged-file.log",
                               f"--seed-file={tmp}/munged.seed"], env=env)
        wait_for("munged's socket", lambda: (sockets / "munge.socket").exists(), 60)
        procs.start("slurmctld", ["slurmctld", "-D", "-f", str(tmp / "slurm.conf")], env=env)
        procs.start("slurmd", ["slurmd", "-D", "-N", "nbcourse-node", "-f",
                               str(tmp / "slurm.conf")], env=env)

        def idle():
            procs.check_alive()
            out = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True,
                                 text=True).stdout
            return out.strip() == "idle"

        wait_for("the Slurm node to be idle", idle, 120)
        yield env
    except BaseException:
        procs.dump()
        raise
    finally:
        subprocess.run(["scancel", "--user", "root"], env=env, capture_output=True)
        with contextlib.suppress(BaseException):
            wait_for("cancelled Slurm jobs to end", lambda: not subprocess.run(
                ["squeue", "-h"], env=env, capture_output=True, text=True).stdout.strip(), 60)
        procs.stop()
        shutil.rmtree(sockets, ignore_errors=True)


def job_state(env, job):
    """The states of job ``job`` (its array tasks too), e.g. ``{"COMPLETED"}``."""
    out = subprocess.run(["scontrol", "-o", "show", "job", str(job)], env=env,
                         capture_output=True, text=True).stdout
    return set(re.findall(r"\bJobState=(\S+)", out))


FINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
         "PREEMPTED", "BOOT_FAIL", "DEADLINE"}


def job_restarts(env):
    """The largest number of times a task of any job was started again after failing to
    launch (a job that waits on another shows no restarts of its own)."""
    out = subprocess.run(["scontrol", "-o", "show", "job"], env=env,
                         capture_output=True, text=True).stdout
    return max(map(int, re.findall(r"\bRestarts=(\d+)", out)), default=0)


def wait_for_job(env, job, timeout=1800.0, restarts=3):
    """Wait until every task of ``job`` has ended; return their states.  A task of any job
    that Slurm had to start again more than ``restarts`` times fails the test at once: the
    node cannot run it, and waiting longer shows nothing more."""
    def ended():
        if job_restarts(env) > restarts:
            pytest.fail(f"waiting for Slurm job {job}: a task was requeued more than "
                        f"{restarts} times (slurmd's log below says why)")
        states = job_state(env, job)
        return states if states and states <= FINAL else None

    return wait_for(f"Slurm job {job} to end", ended, timeout, every=2.0)


# --- Dask with TLS -----------------------------------------------------------------------------


def make_certificate(folder, name="grading"):
    """The README's command: a self-signed certificate that is its own authority, and its
    key; returns (pem, key)."""
    block = recipe_block("openssl req")
    line = next(c for c in commands(block) if c.startswith("openssl req"))
    line = line.replace("/shared/tls/grading", f"{folder}/{name}")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["bash", "-c", f"umask 077 && {line}"], check=True, capture_output=True)
    return folder / f"{name}.pem", folder / f"{name}.key"


def listening(port):
    """The local addresses of sockets listening on TCP ``port`` (IPv4 and IPv6)."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hexport = fields[1].split(":")
            if fields[3] == "0A" and int(hexport, 16) == port and len(address) == width:
                found.add(address)  # in the kernel's byte order: 0100007F is 127.0.0.1
    return found


def dask_processes():
    """The ``dask`` command of this environment."""
    dask = Path(sys.executable).parent / "dask"
    if not dask.exists():
        unavailable("Dask distributed is not installed (requirements-dev.txt pins it)")
    return dask
