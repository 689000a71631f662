"""TAG001: a tag named like a Python 3.14 template-string prefix."""


def t(*args):
    return args


def template(*args):
    return args


tr = rt = T = t
a = t"Hello {__name__}"  # TAG001:5
b = T"x"  # TAG001:5
c = (tr"x", rt"{a}")  # TAG001:6 TAG001:13
d = template"fine {t}"
