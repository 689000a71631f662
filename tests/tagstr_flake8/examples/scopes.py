# OPTIONS: --extend-select TAG005,TAG006,TAG009
"""Which binding an interpolation's name refers to, where scopes are subtle.

TAG005 (class variable), TAG006 (loop variable) and TAG009 (with target)
report a name only where it refers to that very binding, read in place as
in the file's f-string twin.
"""
from tags import lazy, sql

table = "fallback"
item = None


def comprehensions(rows, log):
    # @+1 TAG006:24 TAG006:27
    log.append([[lazy"{x}{y}" for y in x] for x in rows])
    for row in rows:
        log.append([lazy"{row}" for _ in range(2)])  # TAG006:27
        log.append([lazy"{cell}" for row in row for cell in row])  # TAG006:27
    for x in rows:
        log.append([lazy"{x}" for x in x])  # TAG006:27


class Ordered:
    early = sql"{table}"  # the global: the class body has no table yet
    table = "users"
    late = sql"{table}"  # TAG005:17
    hidden = [sql"{table}" for _ in range(2)]  # cannot see the class


def declared_global(items, log):
    global item
    for item in items:
        log.append(lazy"{item}")  # TAG006:26


def declared_nonlocal(items, log):
    last = None

    def inner():
        nonlocal last
        for last in items:
            log.append(lazy"{last}")  # TAG006:30

    inner()
    return last


def assignment_expressions(items, log):
    for item in items:
        if any((item := sub) for sub in item):
            log.append(lazy"{item}")  # TAG006:30
        log.append([(hit := i) for i in item])
        log.append(hit)


def captures_and_handlers(items, log, path):
    for item in items:
        match item:
            case {"inner": item}:
                log.append(lazy"{item}")  # TAG006:34
            case [first, *rest]:
                log.append(lazy"{first} {rest}")
    for error in items:
        try:
            raise error
        except ValueError as error:
            log.append(error)
            log.append(lazy"{error}")  # TAG006:30
    with open(path) as f:
        try:
            f.read()
        except OSError as f:
            log.append(f)
            log.append(lazy"{f}")  # TAG009:30


def deleted(items, log):
    for item in items:
        del item
        log.append(lazy"{item}")  # TAG006:26
