"""Non-ASCII text before and inside tag strings: columns in characters, as mypy's native parser counts."""
from tagstr_runtime import Decoded, Interpolation


def tag(*args: Decoded | Interpolation) -> str:
    return ""


n = 1
café = "é"; a = tag"naïve {n.foo} ünïcode {n.bar}"  # E:28: "int" has no attribute "foo"  [attr-defined]  # E:44: "int" has no attribute "bar"  [attr-defined]
日本 = tag"日本語{日本語}"  # E:14: Name "日本語" is not defined; did you mean "日本"?  [name-defined]
b = "€€€" + tag"{n + "€"}"  # E:22: Unsupported operand types for + ("int" and "str")  [operator]
# names are NFKC-normalised, as the compiler reads them: these are tags named "tag" and "fi"
fi = tag
c = 𝔱𝔞𝔤"{n.baz}" + ﬁ"{n.qux}"  # E:10: "int" has no attribute "baz"  [attr-defined]  # E:23: "int" has no attribute "qux"  [attr-defined]
