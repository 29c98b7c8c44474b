"""A page of the built book opened in headless Chromium, for the browser, accessibility and
print tests (the fixtures ``browser`` and ``server`` are in ``conftest.py``)."""


class PageVisit:
    """A page opened in a fresh context that records errors and blocked requests."""

    def __init__(self, browser, server, doc, color_scheme="light", width=1280):
        self.context = browser.new_context(viewport={"width": width, "height": 900},
                                           color_scheme=color_scheme)
        self.errors, self.failed, self.blocked, self.requested = [], [], [], []
        self.context.route("**/*", self._route(server))
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.page.goto(f"{server}/{doc}.html", wait_until="load")
        # the mathematics is typeset already; wait for the fonts it uses (polled, so that a
        # page that redirects, such as index.html, is waited for after its navigation)
        self.page.wait_for_function("() => document.fonts.status === 'loaded'", timeout=20_000)

    def _route(self, server):
        def handle(route):
            self.requested.append(route.request.url)
            if route.request.url.startswith(server):
                route.continue_()
            else:
                self.blocked.append(route.request.url)
                route.abort()
        return handle

    def close(self):
        self.context.close()
