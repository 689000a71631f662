"""One eager, quiet tag for every scope case."""

from tagstr_runtime import Decoded, Interpolation, accepts_template


@accepts_template
def v(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else repr(a.getvalue()) for a in args)
