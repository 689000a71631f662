# OPTIONS: --extend-select TAG006
"""TAG006: an interpolation capturing a loop variable (off by default).

Not in a loop body that the tag string's value leaves with a return.
"""
from tags import lazy


def f(items, log):
    for item in items:
        log.append(lazy"processing {item}")  # TAG006:37
    for index, (key, val) in enumerate(items):
        log.append(lazy"{index}:{key}={val}")  # TAG006:26 TAG006:34 TAG006:40
    return [lazy"{x}" for x in items]  # TAG006:19


def g(items, item):
    for item2 in items:
        if item2:
            return lazy"{item2} {item}"
    return lazy"{item}"
