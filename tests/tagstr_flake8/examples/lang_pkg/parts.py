# OPTIONS: --max-line-length=120
"""Types that declare a language, imported by the modules that define tags."""
from typing import Annotated, TypeAlias

from tagstr_runtime import Decoded, Interpolation
from tagstr_runtime.languages import SQL

Part = Decoded | Interpolation
HtmlPart = Annotated[Part, "html"]
SqlPart: TypeAlias = "Annotated[Part, SQL]"
