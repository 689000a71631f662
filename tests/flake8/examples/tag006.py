# OPTIONS: --extend-select TAG006
"""TAG006: an interpolation capturing a loop variable (off by default)."""
from tags import lazy


def f(items, log):
    for item in items:
        log.append(lazy"processing {item}")  # TAG006:37
    for index, (key, value) in enumerate(items):
        log.append(lazy"{index}: {key}={value} {items}")  # TAG006:27 TAG006:36 TAG006:42
    return [lazy"{x}" for x in items]  # TAG006:20


def g(items, item):
    for item2 in items:
        if item2:
            return lazy"{item2} {item}"
    return lazy"{item}"
