"""TAG003: a tag function named like a string prefix is never a tag."""
from tagstr_runtime import Decoded, Interpolation, TagFunction


def f(*args: Decoded | Interpolation) -> str:  # TAG003:1
    return "".join(str(a) for a in args)


class Rb:  # TAG003:1
    def __call__(self, *args):
        return [a.getvalue() for a in args if isinstance(a, Interpolation)]


# @+1 TAG003:1
u = lambda *args: [a for a in args if isinstance(a, Decoded)]  # noqa: E731
br: TagFunction = f  # TAG003:1


def r(*args):
    return args


def html(*args: Decoded | Interpolation) -> str:
    return "".join(str(a) for a in args)


fr = "not a function"
