"""Every lexing case."""

import lexing.escapes  # noqa: F401
import lexing.fields  # noqa: F401
import lexing.latin  # noqa: F401
