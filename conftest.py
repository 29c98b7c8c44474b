"""Session setting for every pytest run from the repository root, nbval's included.

The book's notebooks store the static form of their interactive figures
(``nbcourse.interact``); the kernels nbval starts inherit this environment, so
they display that form too and nbval compares like with like.
"""

import json
import os

os.environ["NBCOURSE_FIGURES"] = "static"


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
