"""pyflakes sees interpolations at their original columns, as in f-strings."""
import os
import sys  # F401:1

from tags import html, sql


def page(user, unused_arg):
    title = user.name
    count = 3  # F841:5
    return html"<h1>{title}</h1><p>{os.sep}{missing}</p>"  # F821:45


def nested(rows, w):
    return html"<ul>{html"<li>{rows[0]!r:>{w}}</li>"}{undefined}"  # F821:55


def specs(value, w):
    return sql"{value:{w}.{precision}} {value=} {value = !s}"  # F821:28


def later():
    return html"{defined_later}"


defined_later = 1
