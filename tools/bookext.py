"""Small Sphinx extension with the book's fixes to the default Jupyter Book 1.x pages.

- sphinx-thebe registers its configuration script once per environment read, so a page can
  carry two copies of ``const THEBE_JS_URL = ...``, which is a JavaScript error in the
  browser.  Each page keeps the first copy of every script.
- Sphinx adds MathJax only to pages whose body has mathematics, but chapter titles with
  mathematics appear in every page's navigation.  Assets are therefore added to every page.
"""


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


def setup(app):
    app.set_html_assets_policy("always")
    app.connect("html-page-context", dedupe_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
