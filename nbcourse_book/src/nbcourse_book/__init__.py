"""The book's build as one Sphinx extension (``extra_extensions: [nbcourse_book]``)."""

from . import mathml, notebooks, pages, printing, renderer, stylesheet


def setup(app):
    for part in (pages, mathml, printing, stylesheet, notebooks, renderer):
        part.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
