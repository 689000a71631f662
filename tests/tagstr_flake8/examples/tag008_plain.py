# OPTIONS: --extend-select TAG008 --extend-ignore E275
"""TAG008 without tag strings, in f-string fields too, on every Python."""


def f(x):
    a = f"{x if'a' else'b'}"  # TAG008:14 TAG008:20
    return a, f"{f'{x}' if'{' in x else 2}"  # TAG008:25
