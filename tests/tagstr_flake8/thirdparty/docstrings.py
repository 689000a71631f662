"""Docstrings around tag strings."""


def greet(name):  # D103:1
    return html"<p>{name}</p>"


def logged():  # D103:1
    log"starting {logged}"
    return 1


class Page:
    """A page."""

    def render(self):  # D102:1
        return html'<p>{self}</p>'

    def title(self):
        """return the title"""  # D400:1 D403:1
        return html"{self}"
