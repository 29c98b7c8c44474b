"""Kernel entry point, run inside the bubblewrap sandbox as ``python -I -S -c SOURCE CONFIG``.

The grader passes this file's *text*, so the sandbox needs nothing but the Python
installation. It sets the import path (standard library and site-packages only), per-process
resource limits as a second line of defence behind the sandbox's whole-tree limits, and
starts an IPython kernel on the connection file the sandbox received. It imports nothing
from nbcourse (which the sandbox cannot see anyway).
"""

import gc
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


def light_jupyter_client():
    """Load only the parts of ``jupyter_client`` that a kernel uses (the session, the
    connection-file functions and the blocking client class that ipykernel names); the rest
    of the package (kernel managers, provisioners, the asynchronous client) loads on first
    use of any other name, so ``import jupyter_client`` in a notebook still sees the whole
    package. If those parts cannot be loaded alone, the package loads as usual."""
    import importlib
    import importlib.util

    spec = importlib.util.find_spec("jupyter_client")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    package = importlib.util.module_from_spec(spec)

    def __getattr__(name):  # the first other name runs the package's own __init__
        del package.__getattr__
        spec.loader.exec_module(package)
        return getattr(package, name)

    package.__getattr__ = __getattr__
    sys.modules["jupyter_client"] = package
    try:
        # by module name: ``from jupyter_client import connect`` would ask the package first
        _version, blocking, connect = (importlib.import_module(f"jupyter_client.{name}")
                                       for name in ("_version", "blocking", "connect"))
        package.__version__ = _version.__version__
        package.version_info = _version.version_info
        package.protocol_version = _version.protocol_version
        package.protocol_version_info = _version.protocol_version_info
        package.write_connection_file = connect.write_connection_file
        package.find_connection_file = connect.find_connection_file
        package.BlockingKernelClient = blocking.BlockingKernelClient
    except Exception:  # noqa: BLE001 - any failure: import the package the usual way
        for name in [m for m in sys.modules if m.partition(".")[0] == "jupyter_client"]:
            del sys.modules[name]


def main(config):
    sys.path[:] = config["path"]
    set_limits(config["limits"], int(config["cpu_seconds"]))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # no debugger: debugpy is a large import at every start and one more way into the
    # kernel; ipykernel runs without it when it cannot be imported
    sys.modules["debugpy"] = None
    # start-up creates only long-lived objects: no cyclic collection while importing, and
    # afterwards they are left out of every collection the notebook's code triggers
    gc.disable()
    light_jupyter_client()
    argv = ["-f", config["connection_file"], "--HistoryManager.enabled=False",
            "--IPKernelApp.quiet=True", "--InteractiveShell.xmode=Minimal"]
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize(argv)
    app.shell.ask_exit = lambda: None  # exit() and quit() must not end the grading kernel
    gc.freeze()
    gc.enable()
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
