"""Every scope case."""

import scopes.binds  # noqa: F401
import scopes.classes  # noqa: F401
import scopes.frames  # noqa: F401
