"""bugbear runs, and never reports on generated code.

B023 on an interpolation's lambda in a loop: TAG006 says it for tag strings.
"""
from tags import html


def loops(items, out):
    for item in items:
        out.append(html"<li>{item}</li>")
        out.append(lambda: item)  # B023:28
    return [html"{i}" for i in items]


def defaults(x=[]):  # B006:16
    return html"{x}"


def getattr_const(obj):
    return html"{getattr(obj, 'name')}"  # B009:18
