"""Kernel entry point, run inside the bubblewrap sandbox as ``python -I -S -c SOURCE CONFIG``.

The grader passes this file's *text*, so the sandbox needs nothing but the Python
installation. It sets the import path (standard library and site-packages only), per-process
resource limits as a second line of defence behind the sandbox's whole-tree limits, and
starts an IPython kernel on the connection file the sandbox received. It imports nothing
from nbcourse (which the sandbox cannot see anyway).
"""

import json
import resource
import signal
import sys
import time


def set_limits(limits, cpu):
    mib = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_mb"] * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))
    # counted per user namespace: the sandbox's own processes and threads only
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["max_procs"],) * 2)


def main(config):
    sys.path[:] = config["path"]
    set_limits(config["limits"], int(config["cpu_seconds"]))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # no debugger: debugpy is a large import at every start and one more way into the
    # kernel; ipykernel runs without it when it cannot be imported
    sys.modules["debugpy"] = None
    argv = ["-f", config["connection_file"], "--HistoryManager.enabled=False",
            "--IPKernelApp.quiet=True", "--InteractiveShell.xmode=Minimal"]
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


if __name__ == "__main__":
    _config = json.loads(sys.argv[1])
    del sys.argv[1:]
    main(_config)
