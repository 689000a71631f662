"""What stays standard Python (SPEC 1.2, 1.3): no tag strings here, nothing changes."""


def f() -> str:
    if"a":
        return"x"
    return rb"y".decode() + f"{1}" + r"\d" + "abc" + u"x"


x = "a" in"abc"
y = not"x"
