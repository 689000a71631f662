# mypy: enable-error-code="deprecated"
# A deprecated overload of a tag is named as the plugin's messages name types
# (Interpolation[str]), not as the tuple mypy makes of it.
from typing import overload

from typing_extensions import deprecated

from tagstr_runtime import Decoded, Interpolation


@overload
@deprecated("use ints")
def pick(*args: Decoded | Interpolation[str]) -> str: ...
@overload
def pick(*args: Decoded | Interpolation[int]) -> str: ...
def pick(*args: Decoded | Interpolation[object]) -> str:
    return ""


class Pick:
    @overload
    @deprecated("pass ints")
    def __call__(self, *args: Decoded | Interpolation[str]) -> str: ...
    @overload
    def __call__(self, *args: Decoded | Interpolation[int]) -> str: ...
    def __call__(self, *args: Decoded | Interpolation[object]) -> str:
        return ""


s = "a"
picked = pick"{s}"  # E:10: overload def (*args: Decoded | Interpolation[str]) -> str of function deprecated_overloads.pick is deprecated: use ints  [deprecated]
p = Pick()
called = p"{s}"  # E:10: overload def (self: Pick, *args: Decoded | Interpolation[str]) -> str of function deprecated_overloads.Pick.__call__ is deprecated: pass ints  [deprecated]
