# OPTIONS: --extend-select TAG008
"""TAG008: a keyword glued to a string (off by default)."""
from tags import html


def f(x):
    if x in"abc":  # TAG008:10 E225:12 E275:12
        return"yes"  # TAG008:9 E275:15
    s = "return'x'"  # return"in a comment"
    return html"{x if"a" else"b"}", s  # TAG008:20 TAG008:26
