"""The names the quiet-code judge knows without reading them (``quiet``): what only computes.

Builtins that compute, standard and project functions that compute and do
nothing else (dotted, as imported), methods of strings, bytes, containers,
numbers and compiled patterns, the methods that change the container they
are called on (quiet on one the function made), the calls that make a new
container, the decorators and base classes that add nothing observable to
making an instance.
"""

from __future__ import annotations

import ast

from tagstr_runtime.analysis.tag_types import called_name as last_name  # x.y and x.y(): y

__all__ = [
    "CHANGING_CALLS", "DECORATORS", "FRESH_CALLS", "MUTATING_METHODS", "PURE_BUILTINS", "PURE_METHODS",
    "PURE_MODULES", "PURE_QUALIFIED", "QUIET_BASES", "last_name", "makes_container", "may_change",
]

PURE_BUILTINS = frozenset("""
    abs all any ascii bin bool bytes callable chr complex dict divmod enumerate filter float format frozenset
    getattr hasattr hash hex id int isinstance issubclass iter len list map max min oct ord pow range repr
    reversed round set slice sorted str sum super tuple type zip NotImplemented
""".split())
#: standard and project functions that compute and do nothing else (dotted, as imported)
PURE_QUALIFIED = frozenset("""
    html.escape html.unescape shlex.quote shlex.join shlex.split re.escape re.sub re.subn re.match re.fullmatch
    re.search re.findall re.split re.compile json.dumps urllib.parse.quote urllib.parse.quote_plus
    urllib.parse.urlencode urllib.parse.unquote textwrap.dedent textwrap.indent textwrap.shorten os.fsdecode
    os.fsencode os.fspath os.path.join os.path.basename decimal.Decimal fractions.Fraction string.capwords
    unicodedata.normalize markupsafe.escape markupsafe.escape_silent markupsafe.Markup typing.cast
    itertools.chain itertools.zip_longest operator.attrgetter operator.itemgetter functools.partial
    tagstr_runtime.format_value tagstr_runtime.convert tagstr_runtime.Decoded tagstr_runtime.is_interpolation
    collections.defaultdict collections.OrderedDict collections.Counter collections.deque io.StringIO
""".split())
PURE_MODULES = ("math.", "cmath.", "keyword.", "string.", "unicodedata.")
#: methods of strings, bytes, containers, compiled patterns and numbers that compute
PURE_METHODS = frozenset("""
    join replace upper lower strip lstrip rstrip split rsplit splitlines startswith endswith find rfind index
    rindex count encode decode format format_map casefold title capitalize swapcase center ljust rjust zfill
    partition rpartition expandtabs translate maketrans isdigit isalpha isalnum isspace isidentifier isupper
    islower istitle isnumeric isdecimal isascii isprintable removeprefix removesuffix get keys values items
    copy sub subn match fullmatch search findall finditer group groups groupdict start end span bit_length
    is_integer as_integer_ratio hex isoformat strftime quantize normalize to_integral_value adjusted as_tuple
    is_nan is_zero copy_abs copy_negate conjugate limit_denominator date time timestamp weekday isoweekday
""".split())
#: methods that change the object they are called on: quiet on a container the function made
MUTATING_METHODS = frozenset("""
    append extend insert add update setdefault pop popitem remove discard clear sort reverse write writelines
    appendleft extendleft
""".split())
#: calls that make a new container
FRESH_CALLS = frozenset([
    "list", "dict", "set", "tuple", "str", "bytearray", "StringIO", "defaultdict", "OrderedDict", "deque",
    "Counter",
])
DECORATORS = frozenset(["dataclass", "total_ordering", "final", "dataclass_transform"])
QUIET_BASES = frozenset([
    "object", "str", "tuple", "int", "float", "dict", "list", "set", "frozenset", "bytes", "NamedTuple",
    "Generic", "Protocol", "Exception", "ValueError", "TypeError",
])


def makes_container(value: ast.expr) -> bool:
    """``value`` makes a new container (a display, a comprehension, ``list()``...)."""
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.Constant,
                          ast.JoinedStr)):
        return True
    return isinstance(value, ast.Call) and last_name(value.func) in FRESH_CALLS


#: calls that make a container that can change (a module-level ``LOG = []`` is shared state)
CHANGING_CALLS = frozenset([
    "list", "dict", "set", "bytearray", "defaultdict", "OrderedDict", "deque", "Counter", "StringIO", "array",
])


def may_change(node: ast.AST, name: str) -> bool:
    """The binding ``node`` makes ``name`` a container that can change, or rebinds it in place."""
    if isinstance(node, ast.AugAssign):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        value = node.value
        if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
            return True
        return isinstance(value, ast.Call) and last_name(value.func) in CHANGING_CALLS
    return False
