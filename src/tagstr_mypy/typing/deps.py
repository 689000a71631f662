"""What dmypy re-checks a tag string for: the dependencies of the call it stands for.

Fine-grained mode (``mypy/server/deps.py``) learns dependencies from the
checked tree and its types.  For ``tag(...)`` it records the tag's name (its
signature, a class's constructor) and, when the tag is not a function, the
``__call__`` of its type; for a tag string's generated call it sees the tag
only as an argument, so an edit of a callable instance's ``__call__`` would
leave the tag string's old verdict in place.  The dependency visitor reads
the callee's type from the type map: recording the tag's type there gives it
the call form's dependencies, and nothing else reads that entry (the hook's
name has no extent a user can point at, and no message is about it).
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Context
from mypy.types import Instance, ProperType, TupleType, TypeType, TypeVarType, UnionType

__all__ = ["depend_as_call"]


def depend_as_call(api: TypeChecker, call: Context, tag_type: ProperType) -> None:
    """Make ``call`` depend on ``tag_type`` as a call of it does.

    Functions and classes (``FunctionLike``) are left alone: the call form
    gets no ``__call__`` dependency for them, and their names already give
    what it does get.
    """
    if isinstance(call, CallExpr) and isinstance(tag_type, (Instance, TupleType, TypeVarType, UnionType, TypeType)):
        api.store_type(call.callee, tag_type)
