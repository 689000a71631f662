"""No TAG004 where the module binds the builtin's name itself."""
from tags import format_tag as format


def list(*args):
    return args


a = format"{a}"
b = list"x"
