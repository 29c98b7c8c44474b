"""Small Sphinx extension with the book's fixes to the default Jupyter Book 1.x pages.

- sphinx-thebe registers its configuration script once per environment read, so a page can
  carry two copies of ``const THEBE_JS_URL = ...``, which is a JavaScript error in the
  browser.  Each page keeps the first copy of every script.
- Sphinx adds MathJax only to pages whose body has mathematics, but chapter titles with
  mathematics appear in every page's navigation.  Assets are therefore added to every page.

It also adds the role ``{assignment}`NAME```, which links a chapter to its graded assignment:
the student notebook ``exercises/NAME/NAME.ipynb`` opened on Binder, with the repository,
branch and notebook interface taken from ``_config.yml``, as the launch buttons are.  A name
with no such notebook fails the build.
"""

from pathlib import Path
from urllib.parse import quote

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)


def _script_key(script):
    filename = getattr(script, "filename", script) or None  # inline scripts: None or ""
    return (filename, str(getattr(script, "attributes", {})))


def dedupe_scripts(app, pagename, templatename, context, doctree):
    seen, unique = set(), []
    for script in context.get("script_files", []):
        key = _script_key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


# ``launch_buttons.notebook_interface`` -> the start of Binder's ``urlpath``, as the launch
# buttons of sphinx-book-theme read it
INTERFACE_PATHS = {"jupyterlab": "lab/tree", "classic": "tree"}


def binder_url(config, path):
    """The Binder address that opens ``path`` (relative to the repository root).

    The repository is ``repository.url``, the branch ``repository.branch`` and the interface
    ``launch_buttons.notebook_interface`` of ``_config.yml`` (JupyterLab: ``urlpath=lab/tree/``,
    classic Notebook: ``urlpath=tree/``), so the address opens what the page's launch button
    opens.
    """
    options = config.html_theme_options
    repo = options["repository_url"].rstrip("/").removeprefix("https://github.com/")
    branch = options.get("repository_branch", "main")
    launch = options.get("launch_buttons", {})
    hub = launch.get("binderhub_url", "https://mybinder.org")
    interface = launch.get("notebook_interface", "classic")
    if interface not in INTERFACE_PATHS:
        raise ValueError(f"launch_buttons.notebook_interface: expected one of "
                         f"{sorted(INTERFACE_PATHS)}, got {interface!r}")
    return f"{hub.rstrip('/')}/v2/gh/{repo}/{branch}?urlpath={INTERFACE_PATHS[interface]}/{quote(path)}"


def assignment_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{assignment}`01-binary-discriminant``` -> a Binder link to the student notebook."""
    app = inliner.document.settings.env.app
    path = f"exercises/{text}/{text}.ipynb"
    if not (Path(app.confdir) / path).is_file():
        msg = inliner.reporter.error(f"assignment {text!r}: no student notebook at {path}",
                                     line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    link = nodes.reference(rawtext, "", refuri=binder_url(app.config, path), **(options or {}))
    link += nodes.literal(text=f"exercises/{text}")
    return [link], []


def setup(app):
    app.add_role("assignment", assignment_role)
    app.set_html_assets_policy("always")
    app.connect("html-page-context", dedupe_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
