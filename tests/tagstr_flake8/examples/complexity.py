# OPTIONS: --max-complexity 2
"""mccabe counts the user's branches; interpolation lambdas add none."""
from tags import html


def simple(x, ys):
    if x:
        return html"{[y for y in ys if y]} {x if x else ys} {(lambda: x)()}"
    return html"{ys}"


def branchy(x):  # C901:1
    if x:
        return html"{x}"
    elif x is None:
        return html"{x}"
    return html"{x}"
