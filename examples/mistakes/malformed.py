"""A malformed tag string: a syntax error for Python, mypy and flake8 alike."""

from tagstr_runtime import Decoded, Interpolation


def html(*args: Decoded | Interpolation[str]) -> str:
    """A tag whose interpolations must be ``str``."""
    return "".join(a if isinstance(a, Decoded) else a.getvalue() for a in args)


user = "Ada"
# !x is not a conversion: only !s, !r and !a are.
greeting = html"<p>Hello {user!x}</p>"  # expect: mypy[syntax]:32 flake8[E999]:32
