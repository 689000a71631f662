"""A library outside the migrated tree: the migration cannot read it."""

from tagstr_runtime import template_tag


def _upper(template):
    return "".join(
        part if isinstance(part, str) else str(part.value).upper() for part in template
    )


upper = template_tag(_upper)


def stars(*args):
    """A tag function of the library's, eager; what it does is not for the migration to read."""
    return "".join(part if isinstance(part, str) else f"*{part.getvalue()}*" for part in args)
