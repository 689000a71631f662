"""TAG007: an assignment expression in an interpolation."""
from tags import html


def f(items):
    a = html"{(n := len(items))} items"  # TAG007:16 F841:16
    b = html"{[y := x for x in items]}"  # TAG007:16 F841:16
    return a, b, f"{(m := 2)}", m
