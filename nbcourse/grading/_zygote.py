"""Kernel zygote: a preloaded interpreter that forks one sandboxed IPython kernel per request.

The grader starts this file's *text* with ``python -I -S -c SOURCE CONFIG`` so that the
kernels never see where nbcourse or the assignment live. It preloads IPython, ipykernel and
numpy once (about a second), then for each JSON request line on stdin forks a child that

1. starts a new session (the grader kills the whole group later),
2. closes every inherited file descriptor (the kernel cannot write to the grader's pipes),
3. optionally enters a new mount namespace, covers the hidden paths with empty read-only
   tmpfs mounts and gives the scratch directory its own size-limited tmpfs,
4. sets resource limits, drops to the sandbox user, sets ``no_new_privs``,
5. changes to the scratch directory with a scrubbed environment and runs ipykernel.

The parent replies with the child's pid. This file imports nothing from nbcourse.
"""

import ctypes
import json
import os
import resource
import signal
import stat
import sys
import time

LIBC = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source, target, fstype, flags, data):
    enc = [None if v is None else v.encode() for v in (source, target, fstype, data)]
    _check(LIBC.mount(enc[0], enc[1], enc[2], flags, enc[3]), f"mount {target}")


def expose(parent, children):
    """Replace ``parent`` (not traversable by the sandbox user) with a traversable tmpfs
    that contains only bind mounts of ``children`` (e.g. a Python under /root)."""
    fds = [os.open(c, os.O_PATH) for c in children]
    _mount("tmpfs", parent, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0711")
    for child, fd in zip(children, fds, strict=True):
        os.mkdir(child, 0o755)
        _mount(f"/proc/self/fd/{fd}", child, None, MS_BIND | MS_REC, None)
        os.close(fd)


def isolate_mounts(request):
    """New mount namespace: expose the Python installation, hide paths, tmpfs scratch."""
    _check(LIBC.unshare(CLONE_NEWNS), "unshare")
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    for parent, children in request["expose"]:
        expose(parent, children)
    flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
    for path in request["hide"]:
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue  # already covered by an earlier mount
        try:
            if stat.S_ISDIR(mode):
                _mount("tmpfs", path, "tmpfs", flags, "size=4k,mode=0555")
            elif stat.S_ISREG(mode):
                _mount("/dev/null", path, None, MS_BIND, None)
        except OSError:
            if os.path.lexists(path):
                raise
            # removed meanwhile (e.g. another sandbox's folder in /tmp): nothing to hide
    owner = request["uid"] if request["uid"] is not None else os.getuid()
    size = f"size={request['limits']['file_mb']}m,mode=0700,uid={owner},gid={owner}"
    _mount("tmpfs", request["cwd"], "tmpfs", MS_NOSUID | MS_NODEV, size)


def set_limits(request):
    limits = request["limits"]
    mib = 1024 * 1024
    cpu = int(limits["total_timeout"]) + 10
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_mb"] * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))
    resource.setrlimit(resource.RLIMIT_NPROC, (request["nproc"], request["nproc"]))


def drop_privileges(uid):
    if uid is None:
        return
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def child(request):
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT, 0o600) if request.get("log") else devnull
    for fd in (0, 1, 2):
        os.dup2(log if fd == 2 else devnull, fd)
    os.closerange(3, 65536)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if request["namespace"]:
        isolate_mounts(request)
    set_limits(request)
    drop_privileges(request["uid"])
    LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    argv = ["-f", request["connection_file"], "--HistoryManager.enabled=False",
            "--IPKernelApp.quiet=True", "--InteractiveShell.xmode=Minimal"]
    request.clear()
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize(argv)
    app.shell.ask_exit = lambda: None  # exit() and quit() must not end the grading kernel
    app.start()
    quick = 0
    while quick < 20:  # a loop stopped from inside the notebook keeps serving
        app.shell.exit_now = False
        began = time.monotonic()
        try:
            app.io_loop.start()
        except KeyboardInterrupt:
            pass
        quick = quick + 1 if time.monotonic() - began < 0.05 else 0


def probe_namespace(request):
    """Fork a child that tries the mount isolation; exit status 0 when it works."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            _check(LIBC.unshare(CLONE_NEWNS), "unshare")
            _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
            _mount("tmpfs", request["cwd"], "tmpfs", MS_NOSUID | MS_NODEV, "size=1m")
            code = 0
        except BaseException:
            pass
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def preload():
    """Import what every kernel needs, once, before any fork."""
    import ipykernel.ipkernel  # noqa: F401
    import ipykernel.kernelapp  # noqa: F401
    import IPython  # noqa: F401
    import numpy  # noqa: F401
    from IPython.core import completer, history, interactiveshell  # noqa: F401


def main(config):
    sys.path[:] = config["path"]
    preload()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    hello = {"ready": True, "pid": os.getpid()}
    if config.get("namespace_probe_dir"):
        hello["namespace"] = probe_namespace({"cwd": config["namespace_probe_dir"]})
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # kernels are reaped automatically
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            try:
                child(request)
            except BaseException:
                import traceback

                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(0)
        out.write(json.dumps({"pid": pid}) + "\n")
        out.flush()


if __name__ == "__main__":
    _config = json.loads(sys.argv[1])
    del sys.argv[1:]
    main(_config)
