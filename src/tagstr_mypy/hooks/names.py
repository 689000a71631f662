"""The full names the plugin's hooks are registered for.

Apart from the hook modules, which import the desugarer and the checks: mypy
asks for hooks by name for every call of every module, and a run over code
without tag strings must not import more than these names to answer.
"""

from __future__ import annotations

from typing import Final

from tagstr_runtime.frontend import CHECKER_MODULE, TEMPLATE_TAG_TYPE

__all__ = ["CHECKER_MODULE", "TAG_CALL", "TEMPLATE_TAG_CALL"]

#: ``tag_call`` of the checker's stand-ins: the call every tag string is in the checker tree.
TAG_CALL: Final = f"{CHECKER_MODULE}.tag_call"
#: ``__call__`` of the class ``@accepts_template`` returns.
TEMPLATE_TAG_CALL: Final = f"{TEMPLATE_TAG_TYPE}.__call__"
