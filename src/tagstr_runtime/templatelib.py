"""``string.templatelib`` on Python 3.14+, a faithful stand-in on 3.11-3.13.

Import ``Template``, ``Interpolation`` and ``convert`` from here to write a
template library (or a test of one) that runs on every supported Python:
from 3.14 on these are the standard classes themselves, so ``t"..."``
literals and ``template_tag`` tags build the same objects.  Before 3.14 they
come from ``tagstr_runtime.bridge.template_types``, whose docstring lists what it
copies; libraries that check for a backport's class instead get it from
``template_tag(fn, template_type=...)``.
"""

from __future__ import annotations

import sys

if sys.version_info >= (3, 14):
    from string.templatelib import Interpolation, Template, convert
else:
    from tagstr_runtime.bridge.template_types import Interpolation, Template, convert

__all__ = ["Interpolation", "Template", "convert"]

#: Whether ``Template`` is the standard one (Python 3.14+) rather than the stand-in.
NATIVE: bool = sys.version_info >= (3, 14)
