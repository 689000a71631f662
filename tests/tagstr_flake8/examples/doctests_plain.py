# OPTIONS: --doctests
"""Doctests with tag strings in a file that has none itself."""
title = "T"


def page():
    """A page.

    >>> from tags import html
    >>> html"<b>{title}</b>"
    >>> html"<b>{missing}</b>"  # F821:18
    >>> print(1 +)  # F721:19
    """
