"""The ``greet`` examples of the PEP 750 draft, with the PEP's exact results.

Each ``pep_*`` function below is one code block of the PEP, its ``greet``
defined locally as the PEP defines it, and returns what its tag string gave.
Differences from the PEP's text, all for type checking or correctness:

* ``result`` lists are annotated, and positional access (``args[0].strip()``)
  is narrowed with ``assert isinstance(...)``, so that a type checker
  accepts them.
* The PEP's ``Interpolation`` slots are ``(getvalue, raw, conversion,
  format_spec)`` in one example; ours are named ``(getvalue, expr, conv,
  format_spec)``: ``expr`` is the PEP's ``raw``.  Unpacking by position (the
  last example) does not care.
* The PEP's very first example unpacks an interpolation into two names
  (``_, getvalue = recipient``), which fails for a 4-tuple; ``pep_abstract``
  takes the first item instead.

Run it with ``python -m tagstr_runtime examples/greet.py``.
"""

from __future__ import annotations

from tagstr_runtime import Decoded, Interpolation

__all__ = [
    "pep_abstract",
    "pep_formatting",
    "pep_interpolation",
    "pep_pattern_matching",
    "pep_static",
    "pep_uppercase",
]


def pep_abstract() -> str:
    """The abstract: ``greet"hello {name}"`` is ``"Hello WORLD!"``."""

    def greet(*args: Decoded | Interpolation[str]) -> str:
        salutation, recipient, *_ = args
        assert isinstance(salutation, Decoded) and isinstance(recipient, Interpolation)
        getvalue, *_ = recipient  # the PEP writes ``_, getvalue = recipient``
        return f"{salutation.title().strip()} {getvalue().upper()}!"

    name = "World"
    greeting = greet"hello {name}"
    assert greeting == "Hello WORLD!"
    return greeting


def pep_static() -> str:
    """A tag that ignores its arguments."""

    def greet(*args: Decoded | Interpolation[object]) -> str:
        """Give a static greeting."""
        return "Hello!"

    greeting = greet"Hi"
    assert greeting == "Hello!"
    return greeting


def pep_uppercase() -> str:
    """The tag receives the literal text as its first argument."""

    def greet(*args: Decoded | Interpolation[object]) -> str:
        """Uppercase and add exclamation."""
        first = args[0]
        assert isinstance(first, Decoded)
        salutation = first.upper()
        return f"{salutation}!"

    greeting = greet"Hello"  # Use the custom "tag" on the string
    assert greeting == "HELLO!"
    return greeting


def pep_interpolation() -> str:
    """An interpolation: a tuple whose first item is the ``getvalue`` lambda."""

    def greet(*args: Decoded | Interpolation[str]) -> str:
        """Handle an interpolation."""
        # The first arg is the string-like value "Hello " with a space
        first = args[0]
        assert isinstance(first, Decoded)
        salutation = first.strip()
        # The second arg is an "interpolation"
        interpolation = args[1]
        assert isinstance(interpolation, Interpolation)
        # Interpolations are tuples, the first item is a lambda
        getvalue = interpolation[0]
        # It gets called in the scope where it was defined, so
        # the interpolation returns "World"
        result = getvalue()
        recipient = result.upper()
        return f"{salutation} {recipient}!"

    name = "World"
    greeting = greet"Hello {name}"
    assert greeting == "Hello WORLD!"
    return greeting


def pep_pattern_matching() -> str:
    """The generalised version with structural pattern matching and type hints."""

    def greet(*args: Decoded | Interpolation[str]) -> str:
        """Handle arbitrary args using structural pattern matching."""
        result: list[str] = []
        for arg in args:
            match arg:
                case Decoded() as decoded:
                    result.append(decoded)
                case Interpolation() as interpolation:
                    value = interpolation.getvalue()
                    result.append(value.upper())

        return f"{''.join(result)}!"

    name = "World"
    greeting = greet"Hello {name} nice to meet you"
    assert greeting == "Hello WORLD nice to meet you!"
    return greeting


def pep_formatting() -> str:
    """Conversions, format specs and the expression text, unpacked by position."""

    def greet(*args: Decoded | Interpolation[object]) -> str:
        """Interpolations can have string formatting specs and conversions."""
        result: list[str] = []
        for arg in args:
            match arg:
                case Decoded() as decoded:
                    result.append(decoded)
                case getvalue, raw, conversion, format_spec:  # Unpack
                    gv = f"gv: {getvalue()}"
                    r = f"r: {raw}"
                    c = f"c: {conversion}"
                    f = f"f: {format_spec}"
                    result.append(", ".join([gv, r, c, f]))

        return f"{''.join(result)}!"

    name = "World"
    greeting = greet"Hello {name!r:s}"
    assert greeting == "Hello gv: World, r: name, c: r, f: s!"
    return greeting


EXAMPLES = (
    pep_abstract,
    pep_static,
    pep_uppercase,
    pep_interpolation,
    pep_pattern_matching,
    pep_formatting,
)


def main() -> None:
    for example in EXAMPLES:
        print(f"{example.__name__:<22} {example()!r}")


if __name__ == "__main__":
    main()
