# -*- coding: latin-1 -*-
"""A latin-1 module with CRLF line endings."""

from lexing.tags import lit

name = "José"
print(lit"été {name}¡")
print(lit"café {name!r}\n")  # expect: MIG002
