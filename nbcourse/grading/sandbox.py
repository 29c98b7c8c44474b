"""Run a submission's code in its own IPython kernel inside a bubblewrap sandbox.

Every kernel is started by bubblewrap (``bwrap``, Debian package ``bubblewrap``) with

* its own user, mount, PID, IPC, UTS, cgroup and network namespaces: no network at all
  (not even 127.0.0.1 or abstract Unix sockets), no view of any process but its own;
* a filesystem holding only the Python installation (read-only; an installed nbcourse is
  covered), the shared libraries it loads, five devices in a read-only ``/dev``, its own
  ``/proc``, a read-only root and one place to write: a private, size-capped tmpfs as
  ``/tmp`` (its home and working directory), where ``/dev/shm`` leads. The repository, the
  assignment, other submissions and the output folder are not in it, and layouts in which a
  bound folder holds them are refused (:func:`check_layout`);
* ``--die-with-parent`` and ``--new-session``: killing the sandbox's bubblewrap process (or
  the grading worker) kills every process in it, whatever it forked or ``setsid``-ed. A
  worker killed while one of its sandboxes is still being set up (before bubblewrap has
  bound itself to it) leaves that sandbox's first process waiting, idle and empty; the next
  batch kills it with everything else left in the cgroups of dead workers
  (:meth:`TreeLimits.remove_stale`);
* least privilege: every capability dropped, a system call filter (:mod:`.seccomp`) and
  ``--disable-userns`` (no namespaces, mounts, tracing or kernel keys inside), a host uid
  of its own when the grader is root (:func:`sandbox_user`), a cgroup of its own in every
  hierarchy the grader can write to (:class:`TreeLimits`), and bubblewrap started with an
  empty environment (the kernel gets a fixed one).

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
import platform
import re
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

__all__ = ["Flood", "Isolation", "IsolationError", "KernelDied", "Reply", "Sandbox",
           "check_layout", "find_bwrap", "isolation", "popen", "require_isolation"]

KERNEL_SOURCE = (Path(__file__).with_name("_kernel.py")).read_text(encoding="utf-8")
LINK_SOURCE = (Path(__file__).with_name("link.py")).read_text(encoding="utf-8")
MAX_MESSAGE = 10 * 1024 * 1024  # a reply's content, once the link has cut its long strings
MAX_LINK_BYTES = 32 * MAX_MESSAGE  # all a kernel may send its link, replies included
MAX_STRAYS = 1000  # messages a kernel may send that answer no request
LINK_MEMORY_MB = 64  # the link's address space beyond what it holds at its start
SANDBOX_UID = 65534  # the kernel's uid inside its user namespace
HOST_IDS = (0x7A000000, 1 << 16)  # (first, count) of the host uids sandboxes run as (root)
SCRATCH = "/tmp"
SHM = f"{SCRATCH}/.shm"  # where /dev/shm leads
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


def _binds():
    """Every path bound (read-only) into a sandbox."""
    return _library_binds() + _python_binds()


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


@lru_cache(maxsize=4)
def _bwrap_options(bwrap):
    """The options ``bwrap --help`` lists (``--disable-userns`` came with 0.8.0)."""
    try:
        done = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=30,
                              env={}, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(w for w in (done.stdout + done.stderr).split() if w.startswith("--"))


def _env():
    return {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": SCRATCH, "TMPDIR": SCRATCH, "USER": "student", "LOGNAME": "student",
        "IPYTHONDIR": f"{SCRATCH}/.ipython", "MPLCONFIGDIR": f"{SCRATCH}/.matplotlib",
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "MALLOC_ARENA_MAX": "2",
        "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg",
    }


def sandbox_user():
    """The host uid (and gid) a sandbox runs as, for a grader run by root: a number no user
    or group of this machine has, drawn afresh for each sandbox from ``HOST_IDS``, so no
    two sandboxes share the per-user quotas of the kernel (inotify instances, message queues,
    processes) and none is host root's. None for any other grader (its sandboxes run as its
    own user: its unprivileged user namespaces map the sandbox's uid to it)."""
    import grp
    import pwd

    if os.geteuid() != 0:
        return None
    while True:
        uid = HOST_IDS[0] + secrets.randbelow(HOST_IDS[1])
        try:
            pwd.getpwuid(uid)
            continue
        except KeyError:
            pass
        try:
            grp.getgrgid(uid)
        except KeyError:
            return uid


def _seccomp_fd():
    """A pipe's reading end holding the system call filter (:mod:`.seccomp`)."""
    from . import seccomp

    data = seccomp.program()
    read, write = os.pipe()
    try:
        os.write(write, data)  # some 500 bytes: a pipe holds far more
    finally:
        os.close(write)
    return read


def bwrap_command(scratch_mb, fds, extra=()):
    """The bubblewrap command line up to (not including) the program to run; the pipe that
    holds the system call filter is appended to ``fds``, for the caller to pass to
    bubblewrap and close."""
    bwrap = find_bwrap()
    if bwrap is None:
        raise IsolationError("bubblewrap (bwrap) is not installed; install the Debian "
                             "package bubblewrap")
    cmd = [bwrap, "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID),
           "--gid", str(SANDBOX_UID), "--hostname", "sandbox", "--die-with-parent",
           "--new-session", "--cap-drop", "ALL",
           # the scratch tmpfs first: a Python installation under /tmp is bound over it
           "--size", str(int(scratch_mb) * 1024 * 1024), "--perms", "0700",
           "--tmpfs", SCRATCH, "--dir", SHM]
    for path in _binds():
        cmd += ["--ro-bind", path, path]
    for name in ("/lib", "/lib64"):
        if os.path.islink(name):
            cmd += ["--symlink", os.readlink(name), name]
    for path in _hidden_packages():
        cmd += ["--tmpfs", path, "--remount-ro", path]
    # /dev: the devices a program reads or writes nothing into, on a tmpfs made read-only;
    # POSIX shared memory and semaphores (/dev/shm) live in the scratch directory, under
    # its cap; the root is read-only too, so nothing is writable beyond the scratch
    cmd += ["--proc", "/proc", "--tmpfs", "/dev"]
    for device in ("null", "zero", "full", "random", "urandom"):
        cmd += ["--dev-bind", f"/dev/{device}", f"/dev/{device}"]
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2"),
                         ("shm", SHM)):
        cmd += ["--symlink", target, f"/dev/{name}"]
    cmd += ["--remount-ro", "/dev", "--remount-ro", "/"]
    if "--disable-userns" in _bwrap_options(bwrap):
        cmd += ["--disable-userns"]
    fd = _seccomp_fd()
    fds.append(fd)
    cmd += ["--seccomp", str(fd), "--chdir", SCRATCH, "--clearenv"]
    for key, value in _env().items():
        cmd += ["--setenv", key, value]
    return cmd + list(extra)


def _uncover(paths):
    """``[(folder, [paths under it], [(uid, gid) of the folders on the way])]``: the
    outermost folder on the way to each of ``paths`` that other users cannot enter (such as
    /root, for a Python installation there), which a sandbox run as a uid of its own must
    have uncovered to bind them (:data:`LAUNCHER`)."""
    found = {}
    for path in sorted(paths):
        parts = Path(path).parts
        for i in range(1, len(parts)):
            folder = str(Path(*parts[:i]))
            if os.stat(folder).st_mode & 0o001:
                continue
            entry = found.setdefault(folder, ([], set()))
            if not any(path.startswith(p.rstrip("/") + "/") or path == p for p in entry[0]):
                entry[0].append(path)  # one bound above it brings it along
            for j in range(i, len(parts)):
                st = os.stat(Path(*parts[:j]))
                entry[1].add((st.st_uid, st.st_gid))
            break
    return [(folder, paths, sorted(owners)) for folder, (paths, owners) in sorted(found.items())]


# Run first in every sandbox's process, before bubblewrap, as the grader's user: join the
# cgroups given; then, given a uid (the grader is root), take that uid and gid with no
# supplementary group and become bubblewrap with an empty environment. Folders the uid
# cannot enter that hold what bubblewrap binds are uncovered first: a child process takes
# the uid and makes a user namespace of its own (so what the sandbox holds of the kernel's
# per-user quotas is that uid's on the host, not root's), in which this process maps the
# owners of those folders to themselves; with the capabilities it has in that namespace,
# the child puts a tmpfs over each such folder in a mount namespace of its own and binds the
# paths back into it, then becomes bubblewrap (with no capability left: its uid in the
# namespace is not 0). This process waits for it, and dies with the grader.
LAUNCHER = r"""
import json, os, sys
config = json.loads(sys.argv[1])
argv = sys.argv[2:]
for path in config["cgroups"]:
    fd = os.open(path, os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
uid = config["uid"]
if uid is None:
    os.execve(argv[0], argv, {})
def become(uid):
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
if not config["uncover"]:
    become(uid)
    os.execve(argv[0], argv, {})
import ctypes, signal
libc = ctypes.CDLL(None, use_errno=True)
def die_with_parent():  # again after every change of this process's ids, which undoes it
    libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != config["parent"]:
        os._exit(125)
die_with_parent()
mapped, go = os.pipe(), os.pipe()
child = os.fork()
if child == 0:
    try:
        os.close(mapped[0])
        os.close(go[1])
        become(uid)
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            raise OSError(ctypes.get_errno(), "cannot make a user namespace")
        os.write(mapped[1], b"1")
        if os.read(go[0], 1) != b"1":
            raise OSError("the user namespace was not mapped")
        if libc.unshare(0x00020000) != 0 or libc.mount(  # CLONE_NEWNS; MS_REC | MS_PRIVATE
                None, b"/", None, 0x4000 | 0x40000, None) != 0:
            raise OSError(ctypes.get_errno(), "cannot make a mount namespace")
        for folder, paths, _ in config["uncover"]:
            fds = [os.open(p, os.O_PATH) for p in paths]
            if libc.mount(b"nbgrade", folder.encode(), b"tmpfs", 0x2 | 0x4 | 0x8,  # nosuid,nodev,noexec
                          b"mode=0755,size=1m") != 0:
                raise OSError(ctypes.get_errno(), "cannot mount a tmpfs on " + folder)
            for path, fd in zip(paths, fds):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if os.path.isdir(f"/proc/self/fd/{fd}"):
                    os.makedirs(path, exist_ok=True)
                else:
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444))
                if libc.mount(f"/proc/self/fd/{fd}".encode(), path.encode(), None,
                              0x1000 | 0x4000, None) != 0:  # MS_BIND | MS_REC
                    raise OSError(ctypes.get_errno(), "cannot bind " + path)
                os.close(fd)
        os.execve(argv[0], argv, {})
    except BaseException as exc:
        os.write(2, f"nbcourse sandbox launcher: {exc}\n".encode())
    os._exit(126)
os.close(mapped[1])
os.close(go[0])
if os.read(mapped[0], 1) == b"1":
    owners = {(0, 0)} | {tuple(o) for _, _, found in config["uncover"] for o in found}
    # opened as the namespace's owner (whose capabilities in it the kernel asks for: root
    # may lack CAP_SYS_ADMIN), with root's capabilities kept (SECBIT_NO_SETUID_FIXUP),
    # which mapping other ids asks for
    libc.prctl(28, 0x4, 0, 0, 0)  # PR_SET_SECUREBITS
    os.seteuid(uid)
    try:
        maps = [open(f"/proc/{child}/{kind}_map", "w") for kind in ("uid", "gid")]
    finally:
        os.seteuid(0)
        die_with_parent()
    for f, column in zip(maps, (0, 1)):
        ids = sorted({o[column] for o in owners} - {65534, uid})
        with f:
            f.write("".join(f"{i} {i} 1\n" for i in ids) + f"65534 {uid} 1\n")
    os.write(go[1], b"1")
os.close(go[1])
_, status = os.waitpid(child, 0)
sys.exit(os.waitstatus_to_exitcode(status) % 256)
"""


def popen(program, scratch_mb=1, cgroup=None, extra=(), pass_fds=(), **kwargs):
    """Start ``program`` (an argument list) in a new sandbox; return its
    :class:`subprocess.Popen` (the process that starts bubblewrap).

    Parameters
    ----------
    program : list of str
    scratch_mb : int
        Size of the sandbox's scratch directory (its ``/tmp``), in MiB.
    cgroup : TreeLimits, optional
        The cgroups the sandbox's processes are put in before bubblewrap starts.
    extra : list of str
        More bubblewrap options, before the program.
    pass_fds : tuple of int
        File descriptors bubblewrap receives (those ``extra`` names).
    **kwargs
        Given to :class:`subprocess.Popen` (not ``env``: bubblewrap starts with none).
    """
    user = sandbox_user()
    fds = []
    try:
        cmd = bwrap_command(scratch_mb, fds, list(extra) + ["--", *program])
        config = {"cgroups": cgroup.procs_files() if cgroup is not None else [], "uid": user,
                  "uncover": _uncover(_binds()) if user is not None else [],
                  "parent": os.getpid()}
        launch = [sys.executable, "-I", "-S", "-c", LAUNCHER, json.dumps(config), *cmd]
        return subprocess.Popen(launch, env={}, pass_fds=(*fds, *pass_fds), cwd="/",
                                close_fds=True, **kwargs)
    finally:
        for fd in fds:
            os.close(fd)


def check_layout(assignment=None, out=None, submissions=(), roster=None):
    """Refuse a layout in which a folder bound into every sandbox holds the course.

    The sandbox binds the Python installation's folders (its prefix, site-packages, the
    interpreter's folder) read-only into every kernel. A virtual environment made at the
    course root (``python -m venv .``) or a course cloned inside one would so show every
    kernel the solutions, the hidden tests, the roster and the other submissions.

    Raises
    ------
    IsolationError
        Naming the bound folder and what it holds, and saying what to do, if a bound folder
        is or holds ``assignment``, ``out`` (the output folder), any of ``submissions`` or
        ``roster``.
    """
    binds = {os.path.realpath(b): b for b in _binds()}
    named = [("assignment", assignment), ("output folder", out), ("roster", roster)]
    named += [("submission", path) for path in submissions]
    for what, path in named:
        if path is None:
            continue
        real = os.path.realpath(path)
        for bound, shown in sorted(binds.items()):
            if real == bound or real.startswith(bound.rstrip("/") + "/"):
                raise IsolationError(
                    f"refusing to grade: every sandbox binds {shown} (part of the Python "
                    f"installation the kernels run), which holds the {what} {path}, so every "
                    f"kernel could read it. Keep the course, the submissions, the output folder "
                    f"and the roster outside the Python environment: make the virtual "
                    f"environment elsewhere (python -m venv ~/.venvs/nbcourse) and install "
                    f"the course's requirements into it, or move the course out of {shown}")


# --- whole-tree limits --------------------------------------------------------------------


def _own_cgroups():
    """``{controllers: path of this process's cgroup}`` from /proc/self/cgroup, where
    ``controllers`` is the hierarchy's comma-separated controllers (or ``name=...``) for
    cgroup v1, and ``unified`` for cgroup v2."""
    out = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        _, controllers, path = line.split(":", 2)
        out[controllers or "unified"] = path
    return out


def _unescape(field):
    r"""A path of /proc/self/mountinfo, whose spaces and the like are written ``\040``."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def hierarchies():
    """``{controllers: folder of this process's cgroup}`` for every mounted cgroup hierarchy
    (keys as in :func:`_own_cgroups`), from /proc/self/mountinfo: where a hierarchy is
    mounted more than once, its first mount that shows this process's cgroup."""
    own = _own_cgroups()
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return {}
    found = {}
    for line in lines:
        fields, _, tail = line.partition(" - ")
        fields, tail = fields.split(), tail.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        options = set(tail[2].split(","))
        for key, path in own.items():
            if key in found or (key == "unified") != (tail[0] == "cgroup2"):
                continue
            if key != "unified" and not set(key.split(",")) <= options:
                continue
            root = _unescape(fields[3])
            relative = os.path.relpath(path, root)
            if relative == ".." or relative.startswith("../"):
                continue  # this mount does not show this process's cgroup
            found[key] = Path(_unescape(fields[4])) / relative
    return {k: Path(os.path.normpath(v)) for k, v in found.items()}


class TreeLimits:
    """The cgroups of one sandbox: a cgroup of its own in every mounted hierarchy this
    process can write to (v1 and v2), created in this process's own cgroup of each, and
    with ``limits``, the memory, process and CPU limits of the whole process tree in the
    hierarchies that have those controllers.

    So a sandbox never sits in a cgroup it shares with the grader or with the host (at the
    root of a hierarchy); in a hierarchy this process cannot write to, the sandbox, with
    less privilege, cannot either. Raises OSError (and leaves nothing) when a cgroup
    cannot be made, or ``limits`` cannot be set."""

    def __init__(self, limits=None):
        self.dirs = []
        try:
            self._create(limits)
        except BaseException:
            self.close(timeout=0)
            raise

    def _create(self, limits):
        name = f"nbgrade-{os.getpid()}-{secrets.token_hex(4)}"
        todo = {"memory": None, "pids": None, "cpu": None}
        if limits is not None:
            mib = str(int(limits.memory_mb) * 1024 * 1024)
            todo = {"memory": [("memory.limit_in_bytes", mib),  # v1
                               ("memory.memsw.limit_in_bytes", mib),  # no escape into swap
                               ("memory.max", mib), ("memory.swap.max", "0")],  # v2
                    "pids": [("pids.max", str(int(limits.max_procs)))],
                    "cpu": [("cpu.cfs_period_us", "100000"), ("cpu.cfs_quota_us", "100000"),
                            ("cpu.max", "100000 100000")]}  # one CPU for the whole tree
        for key, parent in sorted(hierarchies().items()):
            if not os.access(parent, os.W_OK):
                continue
            d = parent / name
            try:
                d.mkdir(mode=0o700)
            except OSError as exc:
                raise OSError(exc.errno, f"cannot make a cgroup in the {key} hierarchy "
                                         f"({exc.strerror}: {d})") from None
            self.dirs.append(d)
            if (parent / "cpuset.cpus").exists():  # v1 cpuset: no task joins an empty one
                for file in ("cpuset.cpus", "cpuset.mems"):
                    (d / file).write_text((parent / file).read_text().strip() or "\n")
            if limits is None:
                continue
            for controller, settings in todo.items():
                written = False
                for file, value in settings or ():
                    if (d / file).exists():
                        (d / file).write_text(value)
                        written = True
                if written:
                    todo[controller] = None
        missing = [c for c, settings in todo.items() if settings]
        if missing:
            raise OSError(f"no writable cgroup hierarchy with the {', '.join(missing)} "
                          f"controller{'s' * (len(missing) > 1)}")

    @classmethod
    def remove_stale(cls):
        """Kill what is left in the sandbox cgroups, in every hierarchy, whose grading
        process is gone (one killed hard), and remove them."""
        for parent in hierarchies().values():
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

    def _tree(self):
        """Every cgroup of the sandbox, those made inside its own first."""
        out = []
        for d in self.dirs:
            try:
                out += sorted((Path(top) / n for top, names, _ in os.walk(d) for n in names),
                              key=lambda p: len(p.parts), reverse=True)
            except OSError:
                pass
            out.append(d)
        return out

    def pids(self):
        out = set()
        for d in self._tree():
            try:
                out |= {int(p) for p in (d / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return out

    def close(self, timeout=5.0):
        """Kill whatever is left in the cgroups and remove them; True when all is gone."""
        deadline = time.monotonic() + timeout
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        empty = not self.pids()
        pending = self._tree()  # a cgroup is removed once its killed processes are reaped
        for _ in range(200):
            left = []
            for d in pending:
                try:
                    d.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    left.append(d)
            if not left:
                break
            pending = left
            time.sleep(0.01)
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
    """Probe bubblewrap and cgroups once; return an :class:`Isolation`. Removes what earlier
    batches left in their cgroups first (:meth:`TreeLimits.remove_stale`)."""
    from . import seccomp

    problems = []
    sandbox = False
    TreeLimits.remove_stale()
    if not seccomp.supported():
        problems.append(f"the sandbox's system call filter knows the processors "
                        f"{', '.join(sorted(seccomp.TABLES))}, not {platform.machine()}")
    else:
        try:
            sandbox = _probe_sandbox(problems)
        except IsolationError as exc:
            problems.append(str(exc))
        except (OSError, subprocess.TimeoutExpired) as exc:
            problems.append(f"bubblewrap failed to run ({exc})")
    tree = False
    if os.environ.get("NBCOURSE_GRADING_TREE_LIMITS") == "0":
        problems.append("whole-tree limits are switched off (NBCOURSE_GRADING_TREE_LIMITS=0)")
    else:
        try:
            TreeLimits(Limits()).close()
            tree = True
        except OSError as exc:
            problems.append(f"whole-tree limits are unavailable ({exc.strerror or exc})")
    return Isolation(sandbox, tree, tuple(problems))


def _probe_sandbox(problems):
    """Start one sandbox as every sandbox starts (its own cgroups, its own uid, the system
    call filter) with a program that does nothing; True if it ran."""
    try:
        group = TreeLimits()
    except OSError as exc:
        problems.append(f"a sandbox cannot have a cgroup of its own in every hierarchy the "
                        f"grader can write to, and would share the grader's ({exc}); grade "
                        f"from a cgroup where the grader may make cgroups")
        return False
    try:
        proc = popen([sys.executable, "-I", "-S", "-c", "pass"], cgroup=group,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.PIPE)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
    finally:
        group.close()
    if proc.returncode == 0:
        return True
    why = err.decode("utf-8", "replace").strip()[-300:]
    who = ("as an unprivileged user (a host uid of its own, not root's); the Python "
           "installation must be readable by every user, and unprivileged user namespaces "
           "enabled" if os.geteuid() == 0 else "as this user; unprivileged user namespaces may "
           "be disabled")
    problems.append(f"bubblewrap cannot create the sandbox {who} ({why})")
    return False


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
            # a cgroup of its own in every hierarchy, with the limits of the whole process
            # tree where whole-tree limits are used
            self.cgroup = TreeLimits(self.limits if self.tree_limits else None)
            with os.fdopen(conn_w, "w") as f:
                f.write(json.dumps(info))  # a pipe holds far more than this
            conn_w = None
            log = os.environ.get("NBCOURSE_GRADING_DEBUG")
            self.proc = popen(
                [sys.executable, "-I", "-S", "-c", KERNEL_SOURCE, json.dumps(config)],
                self.limits.file_mb, self.cgroup,
                ["--file", str(conn_r), config["connection_file"], "--info-fd", str(info_w)],
                (conn_r, info_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=None if log else subprocess.DEVNULL)
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
