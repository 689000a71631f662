"""Uses the tag t through an import, and a tag with an ordinary name."""

from .tags import html, t, tr


def run(name):
    return html"{name}: " + t"Hello {name}" + tr"\n{name}"  # expect: MIG012
