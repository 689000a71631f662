"""Columns in flake8's units: UTF-8 bytes for AST reports, as for f-strings."""
from tags import html

日本 = html


def f(名前):
    a = 日本"é {名前} {missing_a}"  # F821:29
    b = f"é {名前} {missing_b}"  # F821:24
    return a, b, html"ü{missing_c}"  # F821:26


# NFKC names: tags named "html" and "fi" (as the compiler reads them)
fi = html
c = 𝔥𝔱𝔪𝔩"{missing_d}" + ﬁ"{missing_e}"  # F821:23 F821:42
