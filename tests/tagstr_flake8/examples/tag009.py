# OPTIONS: --extend-select TAG009
"""TAG009: an interpolation reading a with target (off by default)."""
from tags import lazy


def read(path, log):
    with open(path) as f, open(path) as (g):
        log.append(lazy"{f.read()} {g} {path}")  # TAG009:26 TAG009:37
    with open(path):
        pass
    return lazy"{f}"
