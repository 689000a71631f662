"""TAG014: a string whose prefix names a tag in scope is no tag string."""
from tagstr_runtime import Decoded, Interpolation, template_tag


def render(template):
    return str(template)


R = template_tag(render)  # TAG003:1
name = "World"
greeting = R"Hello {name}"  # TAG014:12
implicit = (R"Hello "  # TAG014:13
            "{name}")
fine = r"\d+"


def f(*args: Decoded | Interpolation) -> str:  # TAG003:1
    return "".join(str(a) for a in args)


def uses() -> str:
    return f"{name}!"  # TAG014:12


def shadowed(f: object) -> str:
    return f"{name}: {f}"


def local() -> tuple[bytes, str]:
    b = 1
    return b"bytes", f"{b}"  # TAG014:22


class Box:
    f = "not a tag"

    def m(self) -> str:
        return f"{self.f}"  # TAG014:16
