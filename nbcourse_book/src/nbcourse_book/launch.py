"""Launch links on Binder (the ``{assignment}`` role, the line after a chapter's exercises),
written when a page is written, so that a change of branch rewrites them, also incrementally."""

from pathlib import Path
from urllib.parse import quote

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx_exercise.nodes import solution_node

ASSIGNMENT = "nbcourse_assignment"
"""Attribute of an ``{assignment}`` reference: the student notebook's path."""
GATHERED = "nbcourse_gathered"
"""Attribute of a solution copied onto the Solutions page (:mod:`nbcourse_book.printing`)."""
INTERFACE_PATHS = {"jupyterlab": "lab/tree", "classic": "tree"}
"""``launch_buttons.notebook_interface`` -> the start of Binder's ``urlpath``."""


def binder_url(repository, branch, path, launch=None):
    """The Binder address that opens ``path`` (relative to the repository root) of the GitHub
    ``repository`` on ``branch``, with the hub and interface (JupyterLab or the classic
    Notebook) of ``launch``, the ``launch_buttons`` of ``_config.yml``.

    >>> binder_url("https://github.com/org/course", "student", "a b.ipynb",
    ...            {"notebook_interface": "jupyterlab"})
    'https://mybinder.org/v2/gh/org/course/student?urlpath=lab/tree/a%20b.ipynb'
    """
    hub = (launch or {}).get("binderhub_url", "https://mybinder.org")
    interface = (launch or {}).get("notebook_interface", "classic")
    if interface not in INTERFACE_PATHS:
        raise ValueError(f"launch_buttons.notebook_interface: expected one of "
                         f"{sorted(INTERFACE_PATHS)}, got {interface!r}")
    slug = repository.rstrip("/").removeprefix("https://github.com/")
    return f"{hub.rstrip('/')}/v2/gh/{slug}/{branch}?urlpath={INTERFACE_PATHS[interface]}/{quote(path)}"


def binder_url_of(config, path):
    """:func:`binder_url` with what Jupyter Book put in ``html_theme_options``."""
    options = config.html_theme_options
    return binder_url(options["repository_url"], options.get("repository_branch", "main"), path,
                      options.get("launch_buttons"))


def assignment_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{assignment}`02-binary-discriminant``` -> a link to the assignment's student notebook."""
    env = inliner.document.settings.env
    path = f"exercises/{text}/{text}.ipynb"
    if not (Path(env.app.confdir) / path).is_file():
        msg = inliner.reporter.error(f"assignment {text!r}: no student notebook at {path}",
                                     line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    link = nodes.reference(rawtext, "", **{ASSIGNMENT: path}, **(options or {}))
    link += nodes.literal(text=f"exercises/{text}")
    return [link], []


class ResolveAssignmentLinks(SphinxPostTransform):
    """Each ``{assignment}`` link opens its notebook on Binder, as the builder now configures."""

    def run(self, **kwargs):
        for link in self.document.findall(nodes.reference):
            if ASSIGNMENT in link:
                link["refuri"] = binder_url_of(self.config, link[ASSIGNMENT])


class LinkLiveNotebook(SphinxPostTransform):
    """HTML: after a chapter's last exercise solution, link the chapter's notebook on Binder
    (on the student branch, the chapter without its solutions)."""

    formats = ("html",)

    def run(self, **kwargs):
        docname = self.env.docname
        solutions = [s for s in self.document.findall(solution_node) if not s.get(GATHERED)]
        if not solutions or not (Path(self.app.srcdir) / f"{docname}.ipynb").is_file():
            return
        link = nodes.reference("", "open this chapter on Binder",
                               refuri=binder_url_of(self.config, f"{docname}.ipynb"))
        note = nodes.paragraph("", "To work on these exercises in a live notebook, ", link,
                               nodes.Text("."), classes=["nbcourse-student-version"])
        last = solutions[-1]
        last.parent.insert(last.parent.index(last) + 1, note)
