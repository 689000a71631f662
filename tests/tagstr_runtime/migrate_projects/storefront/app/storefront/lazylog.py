"""A lazy tag: the expensive call runs only when the message is printed."""

from tagstr_runtime import Decoded, accepts_template, format_value


class State:
    count = 0


state = State()


def expensive():
    state.count += 1
    return "<dump>"


class Message:
    def __init__(self, args):
        self.args = args

    def __str__(self):
        return "".join(
            a if isinstance(a, Decoded) else format_value(a.getvalue(), a.conv, a.format_spec) for a in self.args
        )


@accepts_template
def lazy(*args):
    """Keeps its arguments: nothing is evaluated until the message is printed."""
    return Message(args)


LEVEL = "INFO"


def debug(message):
    if LEVEL == "DEBUG":
        print(message)


def info(message):
    print(message)


info(lazy"lazylog loaded, count={state.count}")  # expect: MIG001
