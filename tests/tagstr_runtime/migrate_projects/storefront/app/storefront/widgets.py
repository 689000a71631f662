"""A class used as a tag, instances whose __call__ is the tag, a library's function wrapped."""

import extlib as ext

from tagstr_runtime import Decoded, accepts_template


class Box:
    """The tag string constructs it: it keeps its arguments."""

    def __init__(self, *args):
        self.args = args

    def __str__(self):
        return "[" + "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in self.args) + "]"


class Renderer:
    def __init__(self, prefix):
        self.prefix = prefix

    def __call__(self, *args):
        return self.prefix + "".join(a if isinstance(a, Decoded) else repr(a.getvalue()) for a in args)


render = accepts_template(Renderer("render: "))
plain_render = Renderer("plain: ")
starred = accepts_template(ext.stars)  # takes a template; when it reads its values, only extlib knows


def run(x):
    print(Box"box {x}")  # expect: MIG001 MIG009
    print(render"<{x}>")
    print(plain_render"<{x}>")  # expect: MIG009
    print(starred"stars {x}")  # expect: MIG011
