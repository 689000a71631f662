"""A library outside the migrated tree: the migration cannot read it."""

from tagstr_runtime import accepts_template


@accepts_template
def html(*args):
    """An eager tag of the library's (the migration cannot see that it is)."""
    return "".join(a if isinstance(a, str) else f"<{a.getvalue()}>" for a in args)


def shout(*args):
    return "".join(a.upper() if isinstance(a, str) else str(a.getvalue()).upper() for a in args)


__all__ = ["shout"]
