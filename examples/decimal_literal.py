"""Decimal literals: ``D"0.1" + D"0.2" == D"0.3"``.

``Decimal(0.1)`` is the binary float nearest to 0.1 (55 digits of it), and
``Decimal("0.1")`` needs quotes and a call.  The ``D`` tag (also spelled
``dec``) makes a ``decimal.Decimal`` from the text of the tag string, exactly:
the value is the decimal number written, whatever the context's precision.

Decisions:

* The text is what ``Decimal(str)`` accepts: surrounding whitespace is
  ignored and ``_`` may group digits (``D"1_000.25"``), ``D"-Infinity"`` and
  ``D"NaN"`` work.  Anything else raises ``ValueError`` naming the text
  (rather than ``decimal.InvalidOperation``, which depends on the context's
  traps).
* Interpolations are allowed and are formatted as in an f-string, then the
  whole text is parsed: ``D"{units}.{cents:02d}"``, ``D"1e{exponent}"``.  So a
  ``float`` goes in through ``str()``, its shortest round-tripping form:
  ``D"{0.1}"`` is ``Decimal("0.1")``, not ``Decimal(0.1)``, and
  ``D"{x:.2f}"`` rounds first.  A ``Decimal`` goes in unchanged (its ``str``
  is exact).
* The text is the *cooked* literal, so ``D"1\\u0030"`` is ``Decimal("10")``;
  there is no reason to write it that way.
* A tag string without interpolations always gives the same value; the tag
  keeps those in a cache keyed on the text, so ``D"0.1"`` in a loop parses once.

Run it with ``python -m tagstr_runtime examples/decimal_literal.py``.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation, localcontext

from tagstr_runtime import Decoded, Interpolation, accepts_template, format_value

__all__ = ["D", "dec"]

_CACHE: dict[str, Decimal] = {}
_CACHE_LIMIT = 1024


def _parse(text: str) -> Decimal:
    try:
        with localcontext() as ctx:
            ctx.traps[InvalidOperation] = True
            return Decimal(text)
    except InvalidOperation:
        raise ValueError(f"invalid decimal literal: {text!r}") from None


@accepts_template
def dec(*args: Decoded | Interpolation[object]) -> Decimal:
    """The tag: the tag string's text, with interpolations formatted, as a Decimal."""
    literal = [arg for arg in args if isinstance(arg, Decoded)]
    if len(literal) == len(args):
        text = "".join(literal)
        found = _CACHE.get(text)
        if found is None:
            found = _parse(text)
            if len(_CACHE) < _CACHE_LIMIT:
                _CACHE[text] = found
        return found
    parts: list[str] = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                parts.append(decoded)
            case Interpolation(getvalue, _, conv, format_spec):
                parts.append(format_value(getvalue(), conv, format_spec))
    return _parse("".join(parts))


D = dec


def demo() -> list[tuple[str, object]]:
    units, cents, exponent = 12, 5, -3
    price = D"19.99"
    return [
        ('0.1 + 0.2 == 0.3 (float)', 0.1 + 0.2 == 0.3),
        ('D"0.1" + D"0.2" == D"0.3"', D"0.1" + D"0.2" == D"0.3"),
        ('D"0.1" + D"0.2"', D"0.1" + D"0.2"),
        ('Decimal(0.1)', Decimal(0.1)),
        ('D"{0.1}"', D"{0.1}"),
        ('D"1_000.25"', D"1_000.25"),
        ('D"{units}.{cents:02d}"', D"{units}.{cents:02d}"),
        ('D"1e{exponent}"', D"1e{exponent}"),
        ('3 * price', 3 * price),
        ('D"{price * 3}"', D"{price * 3}"),
    ]


def main() -> None:
    for source, value in demo():
        print(f"{source:<28} -> {value!r}")


if __name__ == "__main__":
    main()
