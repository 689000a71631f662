"""Tags of every kind, defined once and imported elsewhere."""

import re

from tagstr_runtime import Decoded, accepts_template, format_value


@accepts_template
def html(*args):
    """Eager, takes a template: migrates."""
    out = []
    for arg in args:
        if isinstance(arg, Decoded):
            out.append(arg)
        else:
            value = format_value(arg.getvalue(), arg.conv, arg.format_spec)
            out.append(value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


def shout(*args):
    """Eager, but takes no template (not decorated)."""
    return "".join(a.upper() if isinstance(a, Decoded) else str(a.getvalue()).upper() for a in args)


@accepts_template
def regex(*args):
    """Reads the source text of its literal parts (.raw)."""
    return "".join(a.raw if isinstance(a, Decoded) else re.escape(str(a.getvalue())) for a in args)


def make_quoting_tag(quote):
    """A factory of eager template-taking tags."""

    @accepts_template
    def quoting(*args):
        return "".join(a if isinstance(a, Decoded) else quote(str(a.getvalue())) for a in args)

    return quoting


def make_greet():
    """A factory of tags that take no template."""

    def greet(*args):
        return "".join(a if isinstance(a, Decoded) else f"dear {a.getvalue()}" for a in args)

    return greet


bold = html"<b>{1 + 1}</b>"
loud = shout"{bold}!"  # expect: MIG009
