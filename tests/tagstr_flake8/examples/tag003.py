"""TAG003: a tag function named like a string prefix is never a tag."""
import io

from tagstr_runtime import Decoded, Interpolation, TagFunction


def f(*args: Decoded | Interpolation) -> str:  # TAG003:1
    return "".join(str(a) for a in args)


class Rb:
    """Its instances are tags, not the class itself."""

    def __call__(self, *args):
        return [a.getvalue() for a in args if isinstance(a, Interpolation)]


class U:  # TAG003:1
    """A class tag: the tag string would construct it."""

    def __init__(self, *args: Decoded | Interpolation):
        self.args = args


# @+1 TAG003:1
u = lambda *args: [a for a in args if isinstance(a, Decoded)]  # noqa: E731
br: TagFunction = f  # TAG003:1
r = Rb()  # TAG003:1
F: Rb = Rb()  # TAG003:1
rB = fmt = f  # TAG003:1


def b(*buffers: io.BytesIO):
    return [x.getvalue() for x in buffers]


def html(*args: Decoded | Interpolation) -> str:
    return "".join(str(a) for a in args)


class Html:
    def __call__(self, *args: Decoded | Interpolation) -> str:
        return "".join(str(a) for a in args)


fr = "not a function"
page = Html()
rf = io.BytesIO()
