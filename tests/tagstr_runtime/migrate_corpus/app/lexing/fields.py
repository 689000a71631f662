"""Fields: quotes, nesting, specs, conversions, '=' fields, blanks and comments."""

from lexing.tags import cat, lit, width

x, d, name = 12, {"k": "v"}, "café ✓"
print(lit"{d["k"]} {d['k']!r}")
print(lit"{lit'{x}'} {cat"{x:>{width'4'}}"}")
print(cat"{x:>{width'6'}}|")
print(f"{lit'{x}'=}")  # expect: MIG007
print(lit"{lit'{x}'=}")  # expect: MIG007
print(lit"{x=} {x = !r:>6} {name=}")
print(lit"{ x } {x!a} {name!a:^12}")
print(lit"{(x  # a comment
+ 1)}")
print(lit"{x:}")  # expect: MIG018
print(lit"{x:>{x}} {x:{'<'}{x}}")
print(lit"{name.upper():>{x}}")  # expect: MIG008
print(lit'''multi
line {x}
''' , cat"{x:#x}")
print(lit"{x if x else 'none'} {[i for i in range(3)]} {(lambda: 1)() is not None}")
