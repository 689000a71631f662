"""A tag named R: R"..." is a raw string, never a call of the tag (before 3.14 and after)."""

from tagstr_runtime import template_tag

from .tags import html


def _render(template):
    return "rendered"


R = template_tag(_render)  # expect: MIG012


def run(name):
    print(R"Hello {name}")  # expect: MIG012
    print(html"<u>{name}</u>")
