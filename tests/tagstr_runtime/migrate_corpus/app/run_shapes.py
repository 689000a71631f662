"""Tag bodies of many shapes, with fields that say when they run."""

from dsl.shapes import checked, copies, counted, guarded, indexed, joined, lazy_lambda, log, numbered, slices, typed

order = []


def f(name, value=None):
    order.append(name)
    return name if value is None else value


print([type(a).__name__ for a in copies"{f('a')}"])  # expect: MIG001
print(indexed"{f('b')}{f('c')}")  # expect: MIG013
print(slices"{f('d')}-{f('e')}")  # expect: MIG013
print(guarded"{f('g')}", log)  # expect: MIG014
print(counted"{f('h')} {f('i')}", counted"{f('j')}")  # expect: MIG014 MIG014
print(joined"{f('k')}{f('l')!r:>5}")
print(checked"{f('m')}{f('n')}")  # expect: MIG014
print(checked"{order}{len(order)}")  # expect: MIG014
x, y = 1, 2
print(checked"{x}{y}")
print(typed"a{f('o')!r}b{f('p')}")
print(lazy_lambda"{f('q')}")
print(order)
print(numbered"{log.append('x') or 1} {log.append('y') or 2}")  # expect: MIG014
try:
    print(checked"{f('r') and None}{f('s')}")  # expect: MIG014
except AssertionError as error:
    print("refused:", error, order)
