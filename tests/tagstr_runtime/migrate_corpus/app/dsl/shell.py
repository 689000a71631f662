"""A shell command line: every value quoted."""

from __future__ import annotations

import shlex

from tagstr_runtime import Decoded, Interpolation, accepts_template


@accepts_template
def sh(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else shlex.quote(str(a.getvalue())) for a in args)
