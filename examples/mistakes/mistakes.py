"""Deliberate mistakes with tag strings, and what mypy and flake8 say about them.

The quick start (``examples/quickstart.py``) checks this folder with mypy and
flake8, prints their diagnostics, and compares them with the ``# expect:``
comments: ``mypy[code]:column`` or ``flake8[code]:column``, on the line
reported.  The tag strings are never run.
"""

from tagstr_runtime import Decoded, Interpolation


def html(*args: Decoded | Interpolation[str]) -> str:
    """A tag whose interpolations must be ``str``."""
    return "".join(a if isinstance(a, Decoded) else a.getvalue() for a in args)


def double(number: int) -> int:
    """An ordinary function: it takes one ``int``, not tag-string arguments."""
    return number * 2


count = 3
user = "Ada"

# The wrong type for the tag: html takes str values, count is an int.
items = html"<p>{count} items</p>"  # expect: mypy[tagstr-interpolation]:18

# A function that cannot be a tag: it takes an int, a tag string passes text.
twice = double"21"  # expect: mypy[tagstr-signature]:9

# A name that does not exist (a typo of user).
greeting = html"<p>Hello {usr}</p>"  # expect: mypy[name-defined]:27 flake8[F821]:27


class Page:
    heading = "Welcome"
    # A class-body name: the interpolation is a lambda, which cannot see it.
    banner = html"<h1>{heading}</h1>"  # expect: mypy[name-defined]:24 flake8[TAG005]:24 flake8[F821]:24


# A tag named t: on Python 3.14, t"..." is a template string instead.
t = html
row = t"<td>{user}</td>"  # expect: flake8[TAG001]:7 (before 3.14)
