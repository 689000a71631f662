"""SPEC clauses with a static meaning, one or two lines each."""
from tagstr_runtime import Decoded, Interpolation


def tag(*args: Decoded | Interpolation) -> str:
    return ""


def match(*args: Decoded | Interpolation) -> int:
    return 0


def 日本(*args: Decoded | Interpolation) -> bytes:
    return b""


n = 1
# 1.1: a name glued to a quote, Unicode names included
reveal_type(日本"x")  # N:13: Revealed type is "bytes"
# 1.2: string prefixes stay literals
reveal_type(rb"x")  # N:13: Revealed type is "Literal[b'x']?"
reveal_type(Rb"x" + bR"y")  # N:13: Revealed type is "bytes"
# 1.3: soft keywords may be tags; a match statement stays one
reveal_type(match"x {n}")  # N:13: Revealed type is "int"
match"x":
    case "x":
        pass
# 1.7: tag strings nest in fields, f-string fields and format specs
reveal_type(tag"{tag"{n.a}"}")  # N:13: Revealed type is "str"  # E:23: "int" has no attribute "a"  [attr-defined]
reveal_type(f"{n:{tag"{n.b}"}}")  # N:13: Revealed type is "str"  # E:24: "int" has no attribute "b"  [attr-defined]
# 2: \N{ starts an interpolation; doubled braces are the named character
reveal_type(tag"\N{n.c}")  # E:20: "int" has no attribute "c"  [attr-defined]  # N:13: Revealed type is "str"
reveal_type(tag"\N{{BULLET}} {{literal}}")  # N:13: Revealed type is "str"
# 3: conversions, specs and the debug form
reveal_type(tag"{n!r} {n!s:>3} {n!a} {n=} {n = :>{n}}")  # N:13: Revealed type is "str"
# 4: the tag is looked up when evaluated; interpolations are closures
lazy = [tag"{i}" for i in range(3)]
