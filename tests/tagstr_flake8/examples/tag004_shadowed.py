"""No TAG004 where a scope the tag string sees binds the builtin's name."""
from tags import format_tag as format


def list(*args):
    return args


a = format"{a}"
b = list"x"


def takes_a_tag(str):
    return str"x"


def unrelated(len, tuple):
    return len, tuple


c = len"x"  # TAG004:5


class Holder:
    tuple = list
    d = tuple"x"

    def method(self):
        return tuple"x"  # TAG004:16


# the module runs top to bottom: before it binds a name, the builtin is read
e = repr"x"  # TAG004:5


def repr(*args):
    return args


f = repr"x"


def later():
    return sorted"x"  # a function reads the module's binding when it runs


def sorted(*args):
    return args
