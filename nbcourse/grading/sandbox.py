"""Run a submission's code in its own sandboxed IPython kernel.

Isolation, strongest first (each level includes the ones below it):

``namespace``
    Root with CAP_SYS_ADMIN (Docker as root, Gradescope): the kernel gets a private mount
    namespace in which the assignment, the nbcourse package, the repository, the output
    folder and the submissions' folders are covered by empty read-only tmpfs mounts, and
    its scratch directory is a size-limited tmpfs.
``uid``
    Root: the kernel runs as a fresh unprivileged uid of its own, so ``RLIMIT_NPROC``
    bounds its processes (a fork bomb stops at ``max_procs``), it cannot signal or trace
    the grader, and it cannot read files that are not world-readable.
``rlimit``
    Not root: resource limits, a process session and killing every descendant. The kernel
    runs as the grading user, so it could signal that user's other processes; grade as
    root (e.g. in a container) for real isolation.

Every level: a scrubbed environment, a fresh scratch directory as cwd, all inherited file
descriptors closed, limits on address space, file size, open files, CPU time and processes,
``no_new_privs``, and the kernel reached through Unix sockets in a private directory.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import zmq
from jupyter_client.connect import write_connection_file
from jupyter_client.session import Session

from .assignment import Limits

__all__ = ["KernelDied", "Reply", "Sandbox", "Zygote", "isolation_level"]

ZYGOTE_SOURCE = (Path(__file__).with_name("_zygote.py")).read_text(encoding="utf-8")
MAX_MESSAGE = 16 * 1024 * 1024
UID_RANGE = (62000, 65000)
_UIDS_IN_USE: set[int] = set()
CLAIMED_UIDS: list[int] = []  # every uid this process has claimed, in order


class KernelDied(RuntimeError):
    """The kernel could not be started or stopped answering."""


@dataclass
class Reply:
    """Outcome of one execute request: ``status`` is ok, error, timeout or dead."""

    status: str
    ename: str = ""
    evalue: str = ""
    user_expressions: dict | None = None
    seconds: float = 0.0
    stuck: bool = False  # timed out and did not answer the interrupt


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def become_subreaper():
    """Make orphaned descendants reparent to this process (Linux); return success."""
    try:
        return _libc().prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def isolation_level(namespace_ok):
    """Name the isolation this process can give kernels: namespace, uid or rlimit."""
    if os.geteuid() != 0:
        return "rlimit"
    if namespace_ok:
        return "namespace"
    return "uid" if python_is_shared() else "rlimit"


def _kernel_sys_path():
    """This interpreter's stdlib and site-packages only: no cwd, no PYTHONPATH, no .pth
    files, hence no editable nbcourse in the kernel."""
    prefixes = tuple({os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix)})
    out = []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if entry and (real + os.sep).startswith(prefixes) and entry not in out:
            out.append(entry)
    return out


def _exposures():
    """Directories on the way to the Python installation that other users cannot enter.

    Returns ``[(parent, [child, ...]), ...]``: the namespace sandbox replaces each parent
    by a tmpfs holding only bind mounts of those children.
    """
    needed = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, *_kernel_sys_path())}
    plan: dict[str, set[str]] = {}
    for target in sorted(needed):
        parts = Path(target).parts
        for depth in range(1, len(parts) - 1):
            parent = str(Path(*parts[:depth]))
            if os.stat(parent).st_mode & 0o001 == 0:
                plan.setdefault(parent, set()).add(str(Path(*parts[:depth + 1])))
                break
    return [(parent, sorted(children)) for parent, children in sorted(plan.items())]


SYSTEM_DIRS = frozenset({"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev",
                         "proc", "sys"})


def hide_everything_but(needed):
    """Paths to cover so that, apart from the system directories, only ``needed`` (and the
    directories leading to them) stay visible: an allow-list view of the filesystem.

    Symbolic links are left alone (their targets obey the same rules).
    """
    needed = {Path(os.path.realpath(p)) for p in needed}
    ancestors = {a for n in needed for a in n.parents}
    plan = []

    def visit(folder):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink() or path in needed:
                continue
            if path in ancestors:
                visit(path)
            elif entry.is_dir(follow_symlinks=False) or entry.is_file(follow_symlinks=False):
                if not (folder == Path("/") and entry.name in SYSTEM_DIRS):
                    plan.append(str(path))

    visit(Path("/"))
    return plan


def python_is_shared():
    """True when other users can reach this Python installation (no exposure needed)."""
    return not _exposures()


def _base_env():
    return {
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MALLOC_ARENA_MAX": "2",
        "PYTHONHASHSEED": "0",
        "MPLBACKEND": "Agg",
    }


class Zygote:
    """A preloaded interpreter that forks sandboxed kernels (see ``_zygote.py``).

    ``weakest=True`` gives the ``rlimit`` level even as root (to test that level).
    """

    def __init__(self, python=None, start_timeout=60.0, weakest=False):
        self._probe_dir = tempfile.mkdtemp(prefix="nbgrade-probe-")
        probe = os.geteuid() == 0 and not weakest
        config = {"path": _kernel_sys_path(),
                  "namespace_probe_dir": self._probe_dir if probe else None}
        self.proc = subprocess.Popen(
            [python or sys.executable, "-I", "-S", "-c", ZYGOTE_SOURCE, json.dumps(config)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=_base_env(), cwd="/", close_fds=True, text=True, bufsize=1)
        hello = self._read_line(start_timeout)
        shutil.rmtree(self._probe_dir, ignore_errors=True)
        if not hello.get("ready"):
            raise KernelDied("the kernel zygote did not start")
        self.namespace = bool(hello.get("namespace"))
        self.isolation = "rlimit" if weakest else isolation_level(self.namespace)
        if self.isolation == "rlimit" and os.geteuid() == 0 and not weakest:
            self.close()
            raise KernelDied(
                "refusing to run kernels as root: RLIMIT_NPROC does not bind root. Make the "
                "Python installation readable by other users (then kernels get their own "
                "uid) or grade where mount namespaces are allowed")

    def _read_line(self, timeout):
        import selectors

        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            if not sel.select(timeout):
                self.close()
                raise KernelDied("the kernel zygote did not answer in time")
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            raise KernelDied("the kernel zygote exited")
        return json.loads(line)

    def alive(self):
        return self.proc.poll() is None

    def fork(self, request):
        """Fork one kernel for ``request``; return its pid."""
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return int(self._read_line(30.0)["pid"])

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def _read_proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read().decode("ascii", "replace")
    except OSError:
        return ""


def _uid_of(pid):
    for line in _read_proc(pid, "status").splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    return None


def _children_map():
    kids = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read_proc(entry, "stat")
            if stat:
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(entry))
    return kids


def _descendants(root):
    kids, out, todo = _children_map(), [], [root]
    while todo:
        for child in kids.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _claim_uid():
    """Pick a free sandbox uid and hold an exclusive lock on it (released when the lock's
    file is closed, or when this process dies), so concurrent graders never share a uid."""
    taken = set(_UIDS_IN_USE)
    try:
        for line in Path("/etc/passwd").read_text().splitlines():
            parts = line.split(":")
            if len(parts) > 2 and parts[2].isdigit():
                taken.add(int(parts[2]))
    except OSError:
        pass
    running = {_uid_of(e) for e in os.listdir("/proc") if e.isdigit()}
    free = [u for u in range(*UID_RANGE) if u not in taken and u not in running]
    locks = Path(tempfile.gettempdir()) / "nbgrade-uids"
    locks.mkdir(mode=0o700, exist_ok=True)
    for uid in random.SystemRandom().sample(free, len(free)):
        fd = os.open(locks / f"{uid}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _UIDS_IN_USE.add(uid)
        CLAIMED_UIDS.append(uid)
        return uid, fd
    raise KernelDied("no free sandbox uid")


def _user_task_count():
    """Processes and threads of this user: what RLIMIT_NPROC counts."""
    uid, total = os.getuid(), 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = dict(line.split(":", 1) for line in _read_proc(entry, "status").splitlines()
                          if ":" in line)
            if fields.get("Uid", "").split()[:1] == [str(uid)]:
                total += int(fields.get("Threads", "1").strip() or 1)
    return total


class Sandbox:
    """One kernel for one submission: start, execute code, interrupt, kill.

    Parameters
    ----------
    zygote : Zygote
    limits : Limits
    hide : sequence of str
        Paths the kernel must not see (used at the ``namespace`` level).
    """

    def __init__(self, zygote, limits=None, hide=()):
        self.zygote, self.limits = zygote, limits or Limits()
        self.hide = [str(p) for p in hide]
        drop = zygote.isolation in ("uid", "namespace")
        self.uid, self._uid_lock = _claim_uid() if drop else (None, None)
        self.root = Path(tempfile.mkdtemp(prefix="nbgrade-"))
        os.chmod(self.root, 0o711)
        self.ipc, self.work = self.root / "ipc", self.root / "work"
        for d in (self.ipc, self.work):
            d.mkdir(mode=0o700)
            if self.uid is not None:
                os.chown(d, self.uid, self.uid)
        self.pid = None
        self.ctx = self.shell = None
        self.session = None

    # -- lifecycle ---------------------------------------------------------------------

    def start(self, timeout=30.0):
        """Fork the kernel and wait until it answers a kernel_info request."""
        key = secrets.token_hex(32)
        conn_file = str(self.ipc / "kernel.json")
        _, info = write_connection_file(conn_file, ip=str(self.ipc / "k"), transport="ipc",
                                        key=key.encode())
        if self.uid is not None:
            os.chown(conn_file, self.uid, self.uid)
        nproc = self.limits.max_procs if self.uid is not None else (
            _user_task_count() + self.limits.max_procs)
        env = {**_base_env(), "HOME": str(self.work), "TMPDIR": str(self.work),
               "IPYTHONDIR": str(self.work / ".ipython"),
               "MPLCONFIGDIR": str(self.work / ".matplotlib")}
        hide = self.hide
        if self.zygote.namespace:
            needed = [sys.prefix, sys.base_prefix, *_kernel_sys_path(), self.root]
            hide = sorted(set(hide) | set(hide_everything_but(needed)))
        request = {"connection_file": conn_file, "cwd": str(self.work), "uid": self.uid,
                   "namespace": self.zygote.namespace, "hide": hide, "env": env,
                   "expose": _exposures() if self.zygote.namespace else [],
                   "limits": self.limits.__dict__, "nproc": nproc,
                   "log": str(self.ipc / "kernel.log") if os.environ.get("NBCOURSE_GRADING_DEBUG")
                   else None}
        self.pid = self.zygote.fork(request)
        self._connect(info, key)
        reply = self._request("kernel_info_request", {}, timeout)
        if reply is None:
            raise KernelDied("the kernel did not start")

    def _connect(self, info, key):
        self.ctx = zmq.Context()
        self.session = Session(key=key.encode(), signature_scheme="hmac-sha256",
                               username="grader")
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        self.shell.setsockopt(zmq.LINGER, 0)
        self.shell.connect(f"ipc://{info['ip']}-{info['shell_port']}")

    def alive(self):
        """True while the kernel process exists."""
        if self.pid is None:
            return False
        stat = _read_proc(self.pid, "stat")
        return bool(stat) and stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")

    def _request(self, msg_type, content, timeout):
        msg = self.session.send(self.shell, msg_type, content)
        return self._wait(msg["header"]["msg_id"], timeout)

    def _wait(self, msg_id, timeout):
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            if self.shell.poll(int(min(remaining, 0.1) * 1000) + 1):
                try:
                    _, reply = self.session.recv(self.shell, mode=zmq.NOBLOCK)
                except Exception:  # a forged or malformed message: ignore it
                    continue
                if reply and reply.get("parent_header", {}).get("msg_id") == msg_id:
                    return reply
            elif not self.alive():
                return None
        return None

    def execute(self, code, timeout, user_expressions=None, silent=False):
        """Run ``code``; on timeout interrupt, and report the outcome as a :class:`Reply`."""
        start = time.monotonic()
        content = {"code": code, "silent": silent, "store_history": not silent,
                   "user_expressions": user_expressions or {}, "allow_stdin": False,
                   "stop_on_error": False}
        msg = self.session.send(self.shell, "execute_request", content)
        reply = self._wait(msg["header"]["msg_id"], timeout)
        if reply is None and self.alive():
            self.interrupt()
            late = self._wait(msg["header"]["msg_id"], 2.0)
            if self.alive():
                self.kill_others()  # stray children of a fork loop
            return Reply("timeout", seconds=time.monotonic() - start, stuck=late is None)
        if reply is None:
            return Reply("dead", seconds=time.monotonic() - start)
        seconds = time.monotonic() - start
        body = reply.get("content", {})
        return Reply(str(body.get("status", "error")), str(body.get("ename", ""))[:200],
                     str(body.get("evalue", ""))[:500], body.get("user_expressions"), seconds)

    def interrupt(self):
        if self.alive():
            try:
                os.kill(self.pid, signal.SIGINT)
            except OSError:
                pass

    # -- killing -----------------------------------------------------------------------

    def _targets(self, keep_kernel):
        """Pids of the sandbox: the kernel's tree, orphans reparented to us, its uid."""
        me, zygote = os.getpid(), self.zygote.proc.pid
        pids = set(_descendants(zygote))
        own_sid = os.getsid(0)
        for pid in _children_map().get(me, []):
            stat = _read_proc(pid, "stat")
            if pid != zygote and stat and int(stat.rsplit(")", 1)[1].split()[4]) != own_sid:
                pids.add(pid)
                pids.update(_descendants(pid))
        if self.uid is not None:
            pids |= {int(e) for e in os.listdir("/proc") if e.isdigit() and _uid_of(e) == self.uid}
        pids -= {me, zygote}
        if keep_kernel:
            pids.discard(self.pid)
        return pids

    def _sweep(self, keep_kernel):
        for _ in range(200):
            pids = self._targets(keep_kernel)
            if not pids:
                return True
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                for pid in pids:
                    try:
                        os.kill(pid, sig)
                    except OSError:
                        pass
            for pid in pids:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            time.sleep(0.005)
        return False

    def kill_others(self):
        """Kill every process of the sandbox except the kernel itself."""
        return self._sweep(keep_kernel=True)

    def kill(self):
        """Kill the kernel and everything it started."""
        ok = self._sweep(keep_kernel=False)
        if self.shell is not None:
            self.shell.close(0)
            self.ctx.term()
            self.shell = self.ctx = None
        self.pid = None
        return ok

    def close(self):
        """Kill everything and remove the sandbox's files."""
        self.kill()
        if os.environ.get("NBCOURSE_GRADING_DEBUG"):
            log = self.ipc / "kernel.log"
            if log.exists():
                sys.stderr.write(log.read_text(errors="replace")[-5000:])
        shutil.rmtree(self.root, ignore_errors=True)
        if self.uid is not None:
            _UIDS_IN_USE.discard(self.uid)
            os.close(self._uid_lock)  # releases the claim
            self.uid = None
