"""TAG002: a backslash-N before a field starts an interpolation."""
from tags import sym

SPACE = " "
a = sym"\N{SPACE} item"  # TAG002:9
b = sym"\N{{BULLET}} item"
c = sym"\\N{SPACE}"
d = sym"x {a} \N{ SPACE }"  # TAG002:15
e = sym"{a:\N{SPACE}}"  # TAG002:12
f = sym"{a:\\N{SPACE}}"
g = sym"\N{a} item"  # TAG002:9
