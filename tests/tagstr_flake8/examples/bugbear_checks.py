"""bugbear runs, and never reports on generated code.

B023 on an interpolation's lambda in a loop: TAG006 says it for tag strings.
B023 where a function the user wrote makes the late binding stays, as in the
f-string twin of the file.
"""
from tags import html


def loops(items, out):
    for item in items:
        out.append(html"<li>{item}</li>")
        out.append(lambda: item)  # B023:28
    return [html"{i}" for i in items]


def user_closures(items, funcs):
    for item in items:
        funcs.append(lambda: html"{item}")  # B023:36
        funcs.append(html"{(lambda: item)()}")  # B023:37
    for x in items:
        def show():
            return html"<b>{x}</b>"  # B023:29
        funcs.append(show)


def defaults(x=[]):  # B006:16
    return html"{x}"


def getattr_const(obj):
    return html"{getattr(obj, 'name')}"  # B009:18
