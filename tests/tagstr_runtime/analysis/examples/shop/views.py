"""Relative imports, and a tag named through its module."""
from . import tags
from .tags import sql as query
from resolve import shout  # absolute: the folder above the top package is a root


def page(name, rows):
    a = tags.html(f"<p>{name}</p>")  # a dotted name is no tag (a syntax error before a string)
    b = query"SELECT {name}"  # tag: function sql unproven raw tag-function via import,assignment,factory
    c = shout"{rows}"  # tag: function shout lazy tag-function via import
    return a, b, c
