"""\f \v \x1c-\x1e \x85 U+2028 U+2029 end no line to Python or flake8.

str.splitlines() ends a line at each: the masked text must not, or masking is
off and pycodestyle reads inside the tag strings (E225 on 3.11, E902 on 3.12).
"""
# in a comment:          .


def html(*args):
    return args


def f(d):
    plain = "  "
    a = html"{d["a<b"]}"
    b = html" {d[
        "k"]}"
    c = html"""
    {d["k"]*2} """
    return plain, a, b, c,undefined  # E231:26 F821:27
