"""pycodestyle checks the original lines and nothing inside tag strings."""
from tags import html


def f(d, x, y):
    a = html"<b>{d["k"]}</b>{d['k']}{ x+y }{x!r:>{y}}"
    b = html'{d['k']:{y}}' if x else html"{x +
        y}"
    c = html"""
    {x} {d["k"]}   {y}   
"""  # @-1 W291:23
    e = html"{x

    }"
    g=html"{x}"  # E225:6
    return a, b, c, e, g


def long_line(x):
    return html"<p>{x}</p>  ééééééééééééééééééééééééééééééééééééééééééééééééééééééé"  # E501:80


trailing = html"{x}"  # F821:18
