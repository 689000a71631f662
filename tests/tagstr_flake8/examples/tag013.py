# OPTIONS: --extend-select TAG013
"""TAG013: an interpolation reading an except clause's name (off by default).

pyflakes' F821/F841 about our closures are not reported: the f-string twin
reads the name in place and gets neither.
"""
from tags import html, lazy


def handle(log):
    try:
        pass
    except ValueError as err:
        log.append(lazy"failed: {err}")  # TAG013:34
    try:
        pass
    except (KeyError, OSError) as exc:
        return html"{exc} {[a for a in exc.args]}"  # TAG013:22 TAG013:40


def after_rebinding(log):
    try:
        pass
    except ValueError as err:
        err = str(err)
        log.append(lazy"{err}")  # TAG013:26


def not_the_clause(log, err):
    try:
        pass
    except ValueError:
        log.append(lazy"{err}")
    try:
        pass
    except ValueError as other:  # F841:5
        log.append(lazy"{err}")
    return lazy"{err}"


def in_a_users_lambda(log):
    try:
        pass
    except ValueError as err:  # F841:5
        log.append(lambda: lazy"{err}")  # F821:34


def nested(log):
    try:
        pass
    except ValueError as err:
        log.append(html"<ul>{html"<li>{err}</li>"}</ul>")  # TAG013:40
