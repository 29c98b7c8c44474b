"""Session setting for every pytest run from the repository root, nbval's included.

The book's notebooks store the static form of their interactive figures
(``nbcourse.interact``); the kernels nbval starts inherit this environment, so
they display that form too and nbval compares like with like.
"""

import atexit
import json
import os
import shutil
import tempfile

os.environ["NBCOURSE_FIGURES"] = "static"


def _configuration_of_this_run_only():
    """Every kernel, IPython, Jupyter server, matplotlib and git that the tests start reads
    its user configuration from an empty folder of this run, not from the home folder: a
    machine's own IPython startup files, kernel specs, matplotlibrc or git hooks neither run
    nor change what a test sees.  The folder is removed when the process ends."""
    folder = tempfile.mkdtemp(prefix="nbcourse-test-config-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for name, sub in (("IPYTHONDIR", "ipython"), ("JUPYTER_CONFIG_DIR", "jupyter-config"),
                      ("JUPYTER_DATA_DIR", "jupyter-data"),
                      ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"), ("MPLCONFIGDIR", "matplotlib")):
        os.environ[name] = os.path.join(folder, sub)
        os.makedirs(os.environ[name], exist_ok=True)
    for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONSTARTUP", "MATPLOTLIBRC",
                 "MPLBACKEND"):
        os.environ.pop(name, None)
    os.environ["GIT_CONFIG_GLOBAL"] = os.devnull
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    for role in ("AUTHOR", "COMMITTER"):  # commits made by tests name no one's identity
        os.environ[f"GIT_{role}_NAME"] = "nbcourse tests"
        os.environ[f"GIT_{role}_EMAIL"] = "tests@nbcourse.invalid"


if "NBCOURSE_TEST_CONFIG" not in os.environ:  # once per run: pytest-xdist's workers inherit it
    _configuration_of_this_run_only()
    os.environ["NBCOURSE_TEST_CONFIG"] = os.environ["IPYTHONDIR"]


def _compare_json_outputs_as_text():
    """nbval masks outputs with ``tests/nbval_sanitize.cfg`` only where they are strings; the
    project's JSON outputs (``nbcourse.mime``) are compared as their JSON text, so the same
    patterns mask the parts that may differ between machines (the PNG frames)."""
    try:
        from nbval.plugin import IPyNbCell
    except ImportError:  # nbval not installed: no notebook comparisons to adjust
        return
    if getattr(IPyNbCell.sanitize, "json_as_text", False):
        return
    plain = IPyNbCell.sanitize

    def sanitize(self, s):
        if isinstance(s, dict | list):
            s = json.dumps(s, sort_keys=True, ensure_ascii=False, indent=1)
        return plain(self, s)

    sanitize.json_as_text = True
    IPyNbCell.sanitize = sanitize


_compare_json_outputs_as_text()
