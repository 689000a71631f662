# OPTIONS: --extend-select TAG008
"""TAG008: a keyword glued to a string reads like a tag string (off by default)."""
from tags import html


def f(x):
    if x in"abc":  # TAG008:10
        return"yes"  # TAG008:9
    s = "return'x'"  # return"in a comment"
    return html"{x if"a" else"b"}"
