"""Tags exported to star imports."""

from tagstr_runtime import Decoded, Interpolation, accepts_template

__all__ = ["loud", "plain"]


@accepts_template
def loud(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a.upper() if isinstance(a, Decoded) else str(a.getvalue()).upper() for a in args)


def plain(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)
