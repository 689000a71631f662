"""Tags made by factories and bound to locals of this module."""

from html import escape

from .tags import make_greet, make_quoting_tag

quoted = make_quoting_tag(escape)
greet = make_greet()


def run(name):
    # quote, the factory's parameter, may do anything between two reads
    print(quoted"<p>{name}</p>")  # expect: MIG014
    print(greet"hello {name}")  # expect: MIG009

    local = make_quoting_tag(str.upper)
    print(local"local {name}")  # expect: MIG014
