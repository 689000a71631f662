# OPTIONS: --doctests
"""Doctest examples with tag strings are checked like the rest."""
from tags import html

title = "T"


def page():
    """A page.

    >>> html"<p>{title}</p>"
    >>> html"<p>{title} {other}</p>"  # F821:26
    >>> html"{title!z}"  # F721:21
    >>> x = 1
    """
    return html"<p>{title}</p>"
