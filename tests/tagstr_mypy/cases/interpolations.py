"""Interpolations are checked in their scope, with lambda semantics, at their columns."""
from tagstr_runtime import Decoded, Interpolation


def tag(*args: Decoded | Interpolation) -> str:
    return ""


n = 1
a = tag"{n.foo}"  # E:10: "int" has no attribute "foo"  [attr-defined]
b = tag"x{n + "s"}y"  # E:15: Unsupported operand types for + ("int" and "str")  [operator]
c = tag"{n:{n.width}}"  # E:13: "int" has no attribute "width"  [attr-defined]
d = tag"{n!r:>{n}.{n.prec}}"  # E:20: "int" has no attribute "prec"  [attr-defined]
e = tag"{tag"{n.inner}"}"  # E:15: "int" has no attribute "inner"  [attr-defined]
f = tag"{ n.spaced = }"  # E:11: "int" has no attribute "spaced"  [attr-defined]
g = tag"""
first line
   {n.third}
"""  # E@18:5: "int" has no attribute "third"  [attr-defined]
h = tag"{[i.real for i in [n]]} {(k := n)}"
i = tag"{
    n.split_over  # a comment inside the field
}"  # E@22:5: "int" has no attribute "split_over"  [attr-defined]
j = tag'{n}' + 1  # E:16: Unsupported operand types for + ("str" and "int")  [operator]
o = f"{n.outside} {n:>{n.spec}}"  # E:8: "int" has no attribute "outside"  [attr-defined]  # E:24: "int" has no attribute "spec"  [attr-defined]
k = f"{tag"{n.in_fstring}"}"  # E:13: "int" has no attribute "in_fstring"  [attr-defined]


class Scope:
    attr = 1
    ok = tag"{n}"
    hidden = tag"{attr}"  # E:19: Name "attr" is not defined  [name-defined]

    def method(self) -> str:
        return tag"{self.attr} {self.missing}"  # E:33: "Scope" has no attribute "missing"  [attr-defined]


def late() -> list[str]:
    out = []
    for item in range(3):
        out.append(tag"{item.bad}")  # E:25: "int" has no attribute "bad"  [attr-defined]
    return out
