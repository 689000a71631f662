"""Values read right to left, some of them, twice, or with their specs."""

from dsl.order import backwards, first_three, firsts, spec, twice

seen = []


def note(value):
    seen.append(value)
    return value


print(backwards"{note(1)}-{note(2)}-{note(3)}")  # expect: MIG013
print(firsts"{note('a')!r} {note('b')} {note('c')!r}")  # expect: MIG013
print(twice"{note('x')} {note('y')}")  # expect: MIG013
print(first_three"{note(4)}{note(5)}{note(6)}{note(7)}")  # expect: MIG013
print(seen)
width = 6
print(spec"{width:} {width:>{width}} {note(8):{width}}")  # expect: MIG008 MIG018
print(spec"{width:>3} {width!r}")
print(seen)
