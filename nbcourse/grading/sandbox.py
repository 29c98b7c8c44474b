"""Run a submission's code in its own IPython kernel inside a bubblewrap sandbox.

Every kernel is started by bubblewrap (``bwrap``, Debian package ``bubblewrap``) with

* its own user, mount, PID, IPC, UTS, cgroup and network namespaces: no network at all
  (not even 127.0.0.1 or abstract Unix sockets), no view of any process but its own;
* a filesystem holding only the Python installation (read-only; an installed nbcourse is
  covered), the shared libraries it loads, a minimal ``/dev``, its own ``/proc`` and a
  private, size-capped tmpfs as ``/tmp`` (its home and working directory). The repository,
  the assignment, other submissions and the output folder are not in it;
* ``--die-with-parent`` and ``--new-session``: killing the sandbox's bubblewrap process (or
  the grading worker) kills every process in it, whatever it forked or ``setsid``-ed. A
  worker killed while one of its sandboxes is still being set up (before bubblewrap has
  bound itself to it) leaves that sandbox's first process waiting, idle and empty; the next
  batch kills it with everything else left in the cgroups of dead workers
  (:meth:`TreeLimits.remove_stale`);
* every capability dropped and a scrubbed environment.

Memory, CPU and process limits cover the whole process tree through a cgroup of its own
(cgroup v1 controllers ``memory``, ``pids`` and ``cpu``, or cgroup v2), which needs a
writable cgroup hierarchy (root, or delegation). Per-process resource limits are set too.

:func:`isolation` says what this machine allows; :func:`require_isolation` refuses when the
sandbox cannot start, and when whole-tree limits are unavailable unless the caller accepts
per-process limits explicitly (a kernel can then use ``memory_mb`` in each of its processes
and more than one CPU). There is no weaker fallback.

The grader reaches the kernel through Unix sockets inside the sandbox's own ``/tmp``, via
``/proc/<pid>/root``: nothing of a sandbox is ever written to the grader's filesystem. The
connection itself lives in a *link* process per kernel (:mod:`nbcourse.grading.link`) with
its own hard memory and CPU limits, which reads what a kernel sends as a stream: one huge
reply (a 50 MB exception message) comes back with its long strings cut, so the grading
process receives one bounded reply per request; a kernel that sends more than the link's
limit of bytes or of messages that answer nothing (a flood) ends that submission
(:class:`Flood`).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .assignment import Limits

__all__ = ["Flood", "Isolation", "IsolationError", "KernelDied", "Reply", "Sandbox", "find_bwrap",
           "isolation", "require_isolation"]

KERNEL_SOURCE = (Path(__file__).with_name("_kernel.py")).read_text(encoding="utf-8")
LINK_SOURCE = (Path(__file__).with_name("link.py")).read_text(encoding="utf-8")
MAX_MESSAGE = 10 * 1024 * 1024  # a reply's content, once the link has cut its long strings
MAX_LINK_BYTES = 32 * MAX_MESSAGE  # all a kernel may send its link, replies included
MAX_STRAYS = 1000  # messages a kernel may send that answer no request
LINK_MEMORY_MB = 64  # the link's address space beyond what it holds at its start
SANDBOX_UID = 65534  # the kernel's uid inside its user namespace
SCRATCH = "/tmp"
PER_PROCESS_RISK = (
    "memory, CPU and process limits apply to each process of a kernel, not to its whole "
    "process tree, so one submission can use memory_mb in every process it forks and more "
    "than one CPU, slowing or starving the rest of the batch")


class KernelDied(RuntimeError):
    """The kernel could not be started or stopped answering."""


class Flood(KernelDied):
    """The kernel sent the grader more than it may (a flood of messages or one huge one):
    the link that holds the connection stopped; the submission ends with this reason."""


class IsolationError(RuntimeError):
    """The isolation the grader requires is not available on this machine."""


@dataclass
class Reply:
    """Outcome of one execute request: ``status`` is ok, error, timeout or dead."""

    status: str
    ename: str = ""
    evalue: str = ""
    user_expressions: dict | None = None
    seconds: float = 0.0
    stuck: bool = False  # timed out and did not answer the interrupt


# --- what the sandbox contains -----------------------------------------------------------


def kernel_sys_path():
    """This interpreter's stdlib and site-packages only: no cwd, no PYTHONPATH, no .pth
    files, hence no editable nbcourse in the kernel."""
    prefixes = tuple({os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix)})
    out = []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if entry and (real + os.sep).startswith(prefixes) and entry not in out:
            out.append(entry)
    return out


def _python_binds():
    """Read-only paths of the Python installation the kernel needs."""
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    binds = set()
    for prefix in {sys.prefix, sys.base_prefix}:
        for path in (prefix, os.path.realpath(prefix)):
            if path in ("/usr", "/usr/local", "/"):
                binds.add(os.path.join(path, "lib", version))  # not all of /usr
            else:
                binds.add(path)
    folder = os.path.dirname(sys.executable)
    binds.add(sys.executable if folder in ("/usr/bin", "/usr/local/bin", "/bin") else folder)
    binds.add(os.path.realpath(sys.executable))
    for entry in kernel_sys_path():
        binds.add(entry)
        binds.add(os.path.realpath(entry))
    return sorted(p for p in binds if os.path.exists(p))


def _library_binds():
    """Directories of shared libraries (libc, libm, libz, ...), and the dynamic loader."""
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    dirs = [f"/usr/lib/{multiarch}" if multiarch else "/usr/lib", "/usr/lib64"]
    return [d for d in dirs if os.path.isdir(d) and not os.path.islink(d)]


def _hidden_packages():
    """Installed copies of nbcourse inside the bound site-packages: covered in the sandbox."""
    out = []
    for entry in kernel_sys_path():
        candidate = os.path.join(entry, "nbcourse")
        if os.path.isdir(candidate):
            out.append(candidate)
    return out


def find_bwrap():
    """Path of the bubblewrap program (``bwrap``) the sandbox runs, or None if it is not
    installed."""
    return shutil.which("bwrap") or ("/usr/bin/bwrap" if os.path.exists("/usr/bin/bwrap")
                                     else None)


def _env():
    return {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": SCRATCH, "TMPDIR": SCRATCH, "USER": "student", "LOGNAME": "student",
        "IPYTHONDIR": f"{SCRATCH}/.ipython", "MPLCONFIGDIR": f"{SCRATCH}/.matplotlib",
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "MALLOC_ARENA_MAX": "2",
        "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg",
    }


def bwrap_command(scratch_mb, extra=()):
    """The bubblewrap command line up to (not including) the program to run."""
    bwrap = find_bwrap()
    if bwrap is None:
        raise IsolationError("bubblewrap (bwrap) is not installed; install the Debian "
                             "package bubblewrap")
    cmd = [bwrap, "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID),
           "--gid", str(SANDBOX_UID), "--hostname", "sandbox", "--die-with-parent",
           "--new-session", "--cap-drop", "ALL",
           # the scratch tmpfs first: a Python installation under /tmp is bound over it
           "--size", str(int(scratch_mb) * 1024 * 1024), "--perms", "0700",
           "--tmpfs", SCRATCH]
    for path in _library_binds() + _python_binds():
        cmd += ["--ro-bind", path, path]
    for name in ("/lib", "/lib64"):
        if os.path.islink(name):
            cmd += ["--symlink", os.readlink(name), name]
    for path in _hidden_packages():
        cmd += ["--tmpfs", path, "--remount-ro", path]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--chdir", SCRATCH, "--clearenv"]
    for key, value in _env().items():
        cmd += ["--setenv", key, value]
    return cmd + list(extra)


# --- whole-tree limits --------------------------------------------------------------------


def _own_cgroups():
    """``{controller: path of this process's cgroup}`` from /proc/self/cgroup."""
    out = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(",") if controllers else ["unified"]:
            out[c] = path
    return out


class TreeLimits:
    """A cgroup (v1: memory, pids and cpu; or v2) holding one sandbox's whole process tree."""

    V1 = ("memory", "pids", "cpu")

    def __init__(self, limits):
        self.dirs = []
        try:
            self._create(limits)
        except BaseException:
            self.close(timeout=0)
            raise

    def _create(self, limits):
        name = f"nbgrade-{os.getpid()}-{secrets.token_hex(4)}"
        own = _own_cgroups()
        v2_root = Path("/sys/fs/cgroup")
        if all((Path("/sys/fs/cgroup") / c).is_dir() for c in self.V1) and all(
                c in own for c in self.V1):
            for c in self.V1:
                d = Path("/sys/fs/cgroup") / c / own[c].lstrip("/") / name
                d.mkdir(mode=0o700)
                self.dirs.append(d)
            memory, pids, cpu = self.dirs
            mib = int(limits.memory_mb) * 1024 * 1024
            (memory / "memory.limit_in_bytes").write_text(str(mib))
            if (memory / "memory.memsw.limit_in_bytes").exists():  # no escape into swap
                (memory / "memory.memsw.limit_in_bytes").write_text(str(mib))
            (pids / "pids.max").write_text(str(int(limits.max_procs)))
            (cpu / "cpu.cfs_period_us").write_text("100000")
            (cpu / "cpu.cfs_quota_us").write_text("100000")  # one CPU for the whole tree
        elif (v2_root / "cgroup.controllers").is_file() and "unified" in own:
            d = v2_root / own["unified"].lstrip("/") / name
            d.mkdir(mode=0o700)
            self.dirs.append(d)
            (d / "memory.max").write_text(str(int(limits.memory_mb) * 1024 * 1024))
            (d / "memory.swap.max").write_text("0")
            (d / "pids.max").write_text(str(int(limits.max_procs)))
            (d / "cpu.max").write_text("100000 100000")
        else:
            raise OSError("no writable cgroup hierarchy with memory, pids and cpu controllers")

    @classmethod
    def remove_stale(cls):
        """Kill what is left in the sandbox cgroups whose grading process is gone (one
        killed hard), and remove them."""
        own = _own_cgroups()
        parents = [Path("/sys/fs/cgroup") / c / own[c].lstrip("/") for c in cls.V1 if c in own]
        if "unified" in own:
            parents.append(Path("/sys/fs/cgroup") / own["unified"].lstrip("/"))
        for parent in parents:
            try:
                entries = list(parent.glob("nbgrade-*"))
            except OSError:
                continue
            for d in entries:
                owner = d.name.split("-")[1]
                if owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
                    stale = cls.__new__(cls)
                    stale.dirs = [d]
                    stale.close(timeout=2.0)  # what cannot be removed now is tried next time

    def procs_files(self):
        return [str(d / "cgroup.procs") for d in self.dirs]

    def pids(self):
        out = set()
        for d in self.dirs:
            try:
                out |= {int(p) for p in (d / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return out

    def close(self, timeout=5.0):
        """Kill whatever is left in the cgroup and remove it; return True when empty."""
        deadline = time.monotonic() + timeout
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        empty = not self.pids()
        for d in self.dirs:
            for _ in range(100):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
        self.dirs = [d for d in self.dirs if d.exists()]
        return empty and not self.dirs


# --- what this machine allows -------------------------------------------------------------


@dataclass(frozen=True)
class Isolation:
    """What the machine allows: ``sandbox`` (bubblewrap works), ``tree_limits`` (a cgroup
    can hold each kernel's process tree) and why something is missing."""

    sandbox: bool
    tree_limits: bool
    problems: tuple[str, ...] = ()

    @property
    def level(self):
        if not self.sandbox:
            return "none"
        return "sandbox+cgroup" if self.tree_limits else "sandbox"


@lru_cache(maxsize=1)
def isolation():
    """Probe bubblewrap and cgroups once; return an :class:`Isolation`."""
    problems = []
    sandbox = False
    try:
        cmd = bwrap_command(1) + ["--", sys.executable, "-I", "-S", "-c", "pass"]
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=30, check=False)
        sandbox = done.returncode == 0
        if not sandbox:
            why = done.stderr.decode("utf-8", "replace").strip()[:300]
            problems.append(f"bubblewrap cannot create the sandbox ({why}); unprivileged "
                            f"user namespaces may be disabled")
    except IsolationError as exc:
        problems.append(str(exc))
    except (OSError, subprocess.TimeoutExpired) as exc:
        problems.append(f"bubblewrap failed to run ({exc})")
    tree = False
    if os.environ.get("NBCOURSE_GRADING_TREE_LIMITS") == "0":
        problems.append("whole-tree limits are switched off (NBCOURSE_GRADING_TREE_LIMITS=0)")
    else:
        try:
            TreeLimits.remove_stale()
            TreeLimits(Limits()).close()
            tree = True
        except OSError as exc:
            problems.append(f"whole-tree limits are unavailable ({exc.strerror or exc})")
    return Isolation(sandbox, tree, tuple(problems))


def require_isolation(allow_per_process_limits=False):
    """Return :func:`isolation` or raise :class:`IsolationError` saying what is missing.

    Parameters
    ----------
    allow_per_process_limits : bool
        Grade even where a cgroup cannot hold a kernel's process tree (see
        :data:`PER_PROCESS_RISK`). The sandbox itself is never optional.
    """
    found = isolation()
    if not found.sandbox:
        raise IsolationError("refusing to grade: the kernel sandbox is unavailable: "
                             + "; ".join(found.problems))
    if not found.tree_limits and not allow_per_process_limits:
        raise IsolationError(
            "refusing to grade: " + "; ".join(found.problems) + ". Without them, "
            + PER_PROCESS_RISK + ". Grade as root (or with a delegated cgroup), or pass "
            "--allow-per-process-limits to accept this risk")
    return found


# --- one kernel ---------------------------------------------------------------------------


class Sandbox:
    """One kernel for one submission: start, execute code, interrupt, kill.

    Parameters
    ----------
    limits : Limits
    tree_limits : bool
        Put the sandbox in a cgroup of its own (whole-tree limits); see :func:`isolation`.
    extra_seconds : float
        Time beyond ``total_timeout`` the kernel may run (the probes' own budget): its
        processor-time limit and its link's are raised by this much.
    """

    def __init__(self, limits=None, tree_limits=True, extra_seconds=0.0):
        self.limits = limits or Limits()
        self.tree_limits = tree_limits
        self.cpu_seconds = int(self.limits.total_timeout + extra_seconds) + 10
        self.proc = None  # the bwrap process
        self.child = None  # the sandbox's first process, as seen from here
        self.kernel = None  # the kernel process, as seen from here
        self.cgroup = None
        self.link = None  # the process holding the connection to the kernel
        self._pending = None
        self._ended = False  # the link stopped because the kernel died
        self._launched = None  # (connection info, key, info pipe) until start() reads them

    # -- lifecycle ---------------------------------------------------------------------

    def launch(self):
        """Start the sandbox's processes without waiting for its kernel (:meth:`start`
        waits). Nothing of a submission is in it until :meth:`execute`, so a worker may
        launch the next submission's sandbox while it grades the current one."""
        if self.proc is not None:
            return
        key = secrets.token_hex(32)
        shell_port = 1 + secrets.randbelow(60000)
        info = {"transport": "ipc", "ip": f"{SCRATCH}/.kernel", "key": key,
                "signature_scheme": "hmac-sha256", "kernel_name": "",
                "shell_port": shell_port, "iopub_port": shell_port + 1,
                "stdin_port": shell_port + 2, "control_port": shell_port + 3,
                "hb_port": shell_port + 4}
        config = {"path": kernel_sys_path(), "limits": self.limits.__dict__,
                  "cpu_seconds": self.cpu_seconds,
                  "connection_file": f"{SCRATCH}/.kernel.json"}
        conn_r, conn_w = os.pipe()
        info_r, info_w = os.pipe()
        launched = False
        try:
            cmd = bwrap_command(self.limits.file_mb, [
                "--file", str(conn_r), config["connection_file"], "--info-fd", str(info_w),
                "--", sys.executable, "-I", "-S", "-c", KERNEL_SOURCE, json.dumps(config)])
            if self.tree_limits:
                self.cgroup = TreeLimits(self.limits)
                files = self.cgroup.procs_files()
                cmd = ["/bin/sh", "-c", 'n=$1; shift; while [ "$n" -gt 0 ]; do '
                       'echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"',
                       "sh", str(len(files)), *files, *cmd]
            with os.fdopen(conn_w, "w") as f:
                f.write(json.dumps(info))  # a pipe holds far more than this
            conn_w = None
            log = os.environ.get("NBCOURSE_GRADING_DEBUG")
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=None if log else subprocess.DEVNULL, pass_fds=(conn_r, info_w),
                cwd="/", close_fds=True)
            launched = True
        finally:
            for fd in (conn_r, conn_w, info_w, None if launched else info_r):
                if fd is not None:
                    os.close(fd)
        self._launched = (info, key, info_r)

    def start(self, timeout=30.0):
        """Start the sandbox (unless :meth:`launch` did) and wait until its kernel answers
        a kernel_info request."""
        deadline = time.monotonic() + timeout
        self.launch()
        if self._launched is None:
            raise KernelDied("the sandbox was started before")
        (info, key, info_r), self._launched = self._launched, None
        self.child = self._child_pid(info_r, deadline)
        self._connect(info, key)
        reply = self._request("kernel_info_request", {}, max(deadline - time.monotonic(), 0.1))
        if reply is None:
            raise KernelDied("the kernel did not start")
        kids = _descendants(self.child, direct=True)  # the kernel only, before any cell
        self.kernel = min(kids) if kids else None

    def _child_pid(self, fd, deadline):
        """Read bubblewrap's ``--info-fd`` JSON (at most 4 KiB) for the sandbox's pid."""
        import selectors

        data = b""
        with os.fdopen(fd, "rb", buffering=0) as stream, selectors.DefaultSelector() as sel:
            sel.register(stream, selectors.EVENT_READ)
            while len(data) < 4096 and b"}" not in data:
                if not sel.select(max(deadline - time.monotonic(), 0)):
                    raise KernelDied("the sandbox did not start in time")
                chunk = stream.read(4096 - len(data))
                if not chunk:
                    break
                data += chunk
        try:
            pid = int(json.loads(data.decode("ascii"))["child-pid"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise KernelDied("the sandbox did not start") from None
        return pid

    def _connect(self, info, key):
        """Start the link process (:mod:`nbcourse.grading.link`) that holds the connection
        to the kernel: whatever the kernel sends fills it, never this process."""
        config = {"path": f"/proc/{self.child}/root{info['ip']}-{info['shell_port']}",
                  "key": key, "max_message": MAX_MESSAGE, "max_bytes": MAX_LINK_BYTES,
                  "max_strays": MAX_STRAYS, "memory_mb": LINK_MEMORY_MB,
                  "cpu_seconds": self.cpu_seconds, "parent": os.getpid()}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "MALLOC_ARENA_MAX": "2",
               "LANG": "C.UTF-8"}
        self.link = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", LINK_SOURCE], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=None if os.environ.get("NBCOURSE_GRADING_DEBUG") else subprocess.DEVNULL, cwd="/", close_fds=True,
            env=env, bufsize=0)
        _write_all(self.link.stdin, json.dumps(config).encode() + b"\n")

    def alive(self):
        """True while the sandbox runs."""
        return self.proc is not None and self.proc.poll() is None

    def _request(self, msg_type, content, timeout):
        return self._wait(self._send(msg_type, content, timeout), timeout)

    def _send(self, msg_type, content, timeout):
        msg_id = secrets.token_hex(16)
        self._pending = {"msg_type": msg_type, "content": content, "msg_id": msg_id,
                         "timeout": timeout}
        return msg_id

    def _wait(self, msg_id, timeout):
        """The reply's content to request ``msg_id`` (sent by :meth:`_send` or waited for
        again), None on timeout or if the sandbox ended; raises :class:`Flood` when the
        link ended because the kernel sent more than it may."""
        request, self._pending = self._pending or {"msg_id": msg_id}, None
        if self._ended:
            return None
        request["timeout"] = timeout
        try:
            _write_all(self.link.stdin, json.dumps(request).encode() + b"\n")
        except (OSError, ValueError):
            self._flood()
        deadline = time.monotonic() + timeout
        while True:
            line = _read_line(self.link.stdout, max(deadline - time.monotonic(), 0) + 1.0,
                              self.alive)
            if line is None:  # the sandbox ended, or the link is silent past the deadline
                if self.link.poll() is not None:
                    self._flood()
                if not self.alive() or time.monotonic() > deadline + 1.0:
                    return None
                continue
            try:
                head = json.loads(line)
            except ValueError:
                self._flood()
            if "flood" in head:
                raise Flood(str(head["flood"])[:200])
            if "disconnected" in head:
                if self._kernel_running():
                    raise Flood(str(head["disconnected"])[:200])
                self._ended = True  # the kernel died and the link with it: its sandbox ends
                return None
            n = int(head.get("reply", 0))
            if not 0 <= n <= MAX_MESSAGE:
                self._flood()
            data = _read_exact(self.link.stdout, n)
            if len(data) != n:
                self._flood()
            if head.get("msg_id") != msg_id:
                continue  # the answer to an earlier request this one stopped waiting for
            if "reply" not in head:
                return None
            try:
                content = json.loads(data)
            except (ValueError, RecursionError):
                return None
            return {"content": content if isinstance(content, dict) else {}}

    def _kernel_running(self, wait=2.0):
        """Whether the kernel process still runs ``wait`` seconds after its connection
        broke (a kernel that exits closes its sockets just before it stops running)."""
        end = time.monotonic() + wait
        while self.alive() and time.monotonic() < end:
            if self.kernel is None or not _running(self.kernel):
                return False
            time.sleep(0.02)
        return self.alive() and self.kernel is not None and _running(self.kernel)

    def _flood(self):
        code = self.link.poll()
        if code is None:
            self.link.kill()
            code = self.link.wait()
        if code < 0 and -code in (signal.SIGABRT, signal.SIGKILL, signal.SIGXCPU,
                                  signal.SIGSEGV, signal.SIGBUS):
            raise Flood(f"the kernel sent the grader more than its connection to the kernel "
                        f"may hold (it reached its memory or CPU limit: "
                        f"{signal.Signals(-code).name})")
        raise KernelDied(f"the grader's connection to the kernel failed (exit {code})")

    def execute(self, code, timeout, user_expressions=None, silent=False):
        """Run ``code``; on timeout interrupt, and report the outcome as a :class:`Reply`."""
        start = time.monotonic()
        content = {"code": code, "silent": silent, "store_history": not silent,
                   "user_expressions": user_expressions or {}, "allow_stdin": False,
                   "stop_on_error": False}
        msg_id = self._send("execute_request", content, timeout)
        reply = self._wait(msg_id, timeout)
        if reply is None and self.alive():
            self.interrupt()
            late = self._wait(msg_id, 1.0)
            return Reply("timeout", seconds=time.monotonic() - start, stuck=late is None)
        if reply is None:
            return Reply("dead", seconds=time.monotonic() - start)
        seconds = time.monotonic() - start
        body = reply.get("content", {})
        return Reply(str(body.get("status", "error")), str(body.get("ename", ""))[:200],
                     str(body.get("evalue", ""))[:500], body.get("user_expressions"), seconds)

    def interrupt(self):
        """SIGINT to the kernel (the first process of the sandbox runs only the kernel)."""
        if self.kernel is None and self.child:
            kids = _descendants(self.child, direct=True)
            self.kernel = min(kids) if kids else None
        if self.kernel is not None and self.alive():
            try:
                os.kill(self.kernel, signal.SIGINT)
            except OSError:
                pass

    # -- killing -----------------------------------------------------------------------

    def kill(self):
        """Kill the sandbox and every process in it; True when none is left."""
        ok = True
        if self._launched is not None:  # launched, never started
            os.close(self._launched[2])
            self._launched = None
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()  # bwrap: --die-with-parent takes the whole PID namespace
            self.proc.wait()
            # the sandbox's first process exits (a zombie until its new parent reaps it)
            # only once the kernel has killed every other process of its PID namespace
            deadline = time.monotonic() + 5
            while self.child and _running(self.child) and time.monotonic() < deadline:
                time.sleep(0.002)
            ok = not (self.child and _running(self.child))
        if self.cgroup is not None:
            ok = self.cgroup.close() and ok
            self.cgroup = None
        if self.link is not None:
            if self.link.poll() is None:
                self.link.kill()
            self.link.wait()
            for stream in (self.link.stdin, self.link.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.link = None
        self.proc = None
        return ok

    close = kill


def _write_all(stream, data):
    view = memoryview(data)
    while view:
        view = view[stream.write(view):]


def _read_exact(stream, n):
    chunks, left = [], n
    while left > 0 and (chunk := stream.read(min(left, 1 << 20))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_line(stream, timeout, alive, limit=4096):
    """One line (at most ``limit`` bytes) from ``stream`` within ``timeout`` seconds; None
    on timeout, at end of file, or when ``alive()`` turns false while waiting."""
    import selectors

    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        while (remaining := deadline - time.monotonic()) > 0:
            if sel.select(min(remaining, 0.1)):
                line = stream.readline(limit)
                return line if line.endswith(b"\n") else None
            if not alive():
                return None
    return None


def _read_proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read(4096).decode("ascii", "replace")
    except OSError:
        return ""


def _running(pid):
    """True while ``pid`` exists and is not a zombie."""
    stat = _read_proc(pid, "stat")
    return bool(stat) and stat.rsplit(")", 1)[-1].split()[:1] not in (["Z"], ["X"])


def _descendants(root, direct=False):
    kids, out, todo = {}, [], [root]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read_proc(entry, "stat")
            if stat:
                try:
                    ppid = int(stat.rsplit(")", 1)[1].split()[1])
                except (IndexError, ValueError):
                    continue
                kids.setdefault(ppid, []).append(int(entry))
    if direct:
        return kids.get(root, [])
    while todo:
        for child in kids.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out
