"""Tags defined in a module of the tree (read by ``resolve.py`` without running it)."""
from tagstr_runtime import Decoded, Interpolation, accepts_template


@accepts_template
def html(*args: Decoded | Interpolation) -> str:
    return "".join(str(a) if isinstance(a, str) else str(a.getvalue()) for a in args)


def lazy_log(*args: Decoded | Interpolation) -> object:
    return Message(args)


class Message:
    def __init__(self, args):
        self.args = args


def make_sql():
    def sql(*args: Decoded | Interpolation) -> str:
        return " ".join(a.raw if isinstance(a, Decoded) else "?" for a in args)
    return sql


sql = make_sql()
