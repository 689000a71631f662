"""Escapes: kept, cooked, or warned about by 3.14."""

from lexing.tags import cat, lit, text

x = 7
print(text"\d+{x}")  # only escapes a string keeps as written: rt"..."
print(text"tab\there {x}\n")
print(text"\d+\t{x}")  # expect: MIG016
print(text"\N{{BULLET}} {x} \N{{EM DASH}}")
print(text"\N{x}")  # expect: MIG003
print(text"\t\N{x}")  # expect: MIG003
print(text"\{x}")
print(text"octal \101 {x} hex \x41 \u00e9 \U0001F600")
print(text"bad octal \400 {x}")  # expect: MIG016
print(text"""line one \
line two {x}""")
print(text"quote \" and \' {x}")
print(text"{{braces}} {{{x}}}")
print(cat"\t{x:a>5}")
print(text"\t{x:\n}")  # expect: MIG010
print(lit"tab\t{x}")  # expect: MIG002
print(lit"plain {x}")
