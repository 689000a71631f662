"""The tag t, and another name for it that is also a prefix."""

from tagstr_runtime import Decoded, accepts_template


@accepts_template
def t(*args):  # expect: MIG012
    return "".join(a if isinstance(a, Decoded) else f"<{a.getvalue()}>" for a in args)


@accepts_template
def html(*args):
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)


tr = t  # expect: MIG012
