"""The binding cases."""

import bindings.cases  # noqa: F401
