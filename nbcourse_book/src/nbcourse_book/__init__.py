"""The book's build as one Sphinx extension (``nbcourse_book`` in ``_config.yml``): its parts
by what they produce are in ``docs/building.md``.  :func:`setup` registers everything and
states here, and only here, the order in which Sphinx runs the handlers."""

from . import launch, mathml, notebooks, pages, printing, renderer, selfcheck, stylesheet

EARLY, LATE = 400, 900
"""Before and after every other extension's handlers (Sphinx's default priority is 500)."""

HANDLERS = (  # (event, EARLY or LATE, handler): an event's handlers run in this order
    ("config-inited", LATE, printing.use_book_class),  # after sphinx-jupyterbook-latex's
    ("builder-inited", LATE, pages.merge_drawn_alike_tokens),
    ("builder-inited", LATE, pages.accessible_translator),  # wraps the theme's translator
    ("builder-inited", LATE, printing.number_through_the_book),  # after sphinx-jupyterbook-latex
    ("builder-inited", LATE, mathml.start_temml),
    ("builder-inited", LATE, mathml.add_assets),
    ("builder-inited", LATE, stylesheet.remove_stale_bundle),
    # html-page-context: the text is Unicode before sphinxext-opengraph reads it; the themes
    # have added their scripts before the book's changes to them
    ("html-page-context", EARLY, pages.plain_text_for_description),
    ("html-page-context", LATE, pages.defer_scripts),
    ("html-page-context", LATE, stylesheet.link_bundle),  # the page's final stylesheets
    ("build-finished", LATE, stylesheet.write_bundle),  # once every page is written
)

POST_TRANSFORMS = (  # (priority among Sphinx's and the other extensions' own, transform)
    # before LaTeX equation references (5), references (10) and sphinx-exercise's solution
    # titles (20-22), so that the gathered copies get them too
    (4, printing.GatherSolutions),
    (4, selfcheck.GatherAnswers),
    (4, printing.FrontMatterHeadings),
    (30, launch.ResolveAssignmentLinks),  # the gathered copies' links too
    (30, launch.LinkLiveNotebook),  # after the solutions are gathered
    (800, printing.DropEmptyChapters),  # after the bibliography left its page (750)
)

SKIP = (printing.visit_placeholder, None)


def setup(app):
    app.add_config_value("nbcourse_css_bundle", False, "html", types=[bool])
    app.add_role("assignment", launch.assignment_role)
    app.add_directive("solutions", printing.Gathering)
    app.add_directive("selfcheck-answers", printing.Gathering)
    formats = ("html", "latex", "text", "man", "texinfo")
    app.add_node(printing.placeholder, **dict.fromkeys(formats, SKIP))
    app.add_node(renderer.explore_figure,
                 **{**dict.fromkeys(formats, SKIP), "html": (renderer.visit_explore_html, None)})
    app.add_html_math_renderer(mathml.NAME, inline_renderers=(mathml.visit_math, None),
                               block_renderers=(mathml.visit_displaymath, None))
    app.add_builder(notebooks.StudentNotebookBuilder)
    for index, (event, when, handler) in enumerate(HANDLERS):
        app.connect(event, handler, priority=when + index)
    for priority, transform in POST_TRANSFORMS:
        transform.default_priority = priority
        app.add_post_transform(transform)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def setup_slides(app):
    """The extension of the slides' own Sphinx project (:mod:`nbcourse_book.slides`): the
    book's MathML renderer and the Temml it typesets with."""
    app.add_html_math_renderer(mathml.NAME, inline_renderers=(mathml.visit_math, None),
                               block_renderers=(mathml.visit_displaymath, None))
    app.connect("builder-inited", mathml.start_temml, priority=LATE)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
