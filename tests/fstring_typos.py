"""Broken f-strings, the typos made while typing, for the differential tests of every tool.

A file without tag strings must get from each tool exactly what the stock tool
says (CPython's ``SyntaxError``, stock flake8's E999, stock mypy's error).  The
project's lexer reads f-string fields by PEP 701 on every Python, and a tag
string may sit in one, so a typo in a plain f-string (``f"{name"``, a quote
too many, a stray bracket) is where it could see a tag string that is not
there.  ``typo_sources()`` mutates valid f-strings deterministically:
truncations, deleted and inserted characters (brackets, braces, quotes,
comments, backslashes, ``!``/``:``), implicit concatenation with broken parts,
triple quotes; each mutant goes into one of a few small module templates.
The caller keeps the ones the running Python rejects (3.11 and 3.12 reject
different ones).
"""

from __future__ import annotations

__all__ = ["ISSUE_CASES", "typo_sources"]

#: The reports of issue 11 item 2, verbatim.
ISSUE_CASES = (
    'name = "you"\nprint(f"Hello {name")\n',
    'x = (f"{a" "b")\n',
    'x = f"{a)}"\n',
    'x = f"{a # why}"\n',
)

# Valid f-string expressions on every supported Python.
BASES = (
    'f"Hello {name}"',
    "f'{a}{b!r:>10}'",
    'f"{x:{width}.{prec}}"',
    "f\"{d['k']}\"",
    "f'{d[\"k\"]}'",
    'f"""{a}\n{b}"""',
    "f'{a + b = }'",
    'f"{obj.attr!s}"',
    'rf"\\d{n}"',
    'f"{{literal}} {a}"',
    'f"{x if y else z}"',
    'f"{ {1: 2}[1] }"',
    'f"{(lambda: 1)()}"',
    'f"{when:%Y-%m-%d}"',
    "f'''{a!r}'''",
    'f"{fn(a, b)}"',
    'f"{items[0]:>{w}}"',
)
# Implicitly concatenated literals: no quote is deleted there, since that glues a
# name to the next quote outside any f-string (``f"{a} "plain"``): a real tag string.
CONCATENATED = ('f"{a}" "plain"', '"plain" f"{a}"', 'f"{a}" f"{b}"')

# Characters whose deletion makes a typical typo.
_DELETABLE = "{}[]()!:\"'"
# Typed by mistake inside a field (after '{' or before '}').
_INSERTIONS = (")", "]", "(", "[", " # c", "\\n", "!", "!x", "! r", ":", '"', "'", "{", "}", "=", ' "b"', "a.b", "None")
# Around a whole f-string: concatenation with broken parts, triple quotes.
_AROUND = (
    '{} "b',
    '"a" {}',
    '{} f"{{b"',
    'f"{{a" {}',
    '{} f"""{{b',
    'f"""{{a}}\n{}',
    '({} f"{{b" "c")',
)
_TEMPLATES = (
    "a = b = name = 1\nprint({})\n",
    "x = {}\n",
    "def f(a, b):\n    return ({},\n            2)\n",
    "class C:\n    s = {}\n\n\ny = 1\n",
)


def _mutants(base: str) -> list[str]:
    deletable = _DELETABLE if base not in CONCATENATED else _DELETABLE.strip("\"'")
    out: list[str] = []
    for i, c in enumerate(base):
        if c in deletable:
            out.append(base[:i] + base[i + 1 :])  # one character deleted
            out.append(base[:i])  # cut before it
            out.append(base[: i + 1])  # cut after it
        if c == "{" or (c == "}" and base[i - 1 : i] != "}"):
            at = i + 1 if c == "{" else i
            out.extend(base[:at] + ins + base[at:] for ins in _INSERTIONS)
    out.extend(form.format(base) for form in _AROUND)
    return out


def typo_sources() -> list[str]:
    """The mutants, each in a module template, without duplicates, in a fixed order."""
    seen: dict[str, None] = dict.fromkeys(ISSUE_CASES)
    index = 0
    for base in BASES + CONCATENATED:
        for mutant in _mutants(base):
            source = _TEMPLATES[index % len(_TEMPLATES)].format(mutant)
            index += 1
            seen.setdefault(source)
    return list(seen)


def rejected(source: str) -> bool:
    """The running Python rejects ``source`` with a ``SyntaxError``.

    (3.12.1 raises ``ValueError`` for ``f"{x:{w=}}"``: a CPython bug that stock
    flake8 and mypy meet with or without the plugins; such a source is left out.)
    """
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, "<typo>", "exec", dont_inherit=True)
    except SyntaxError:
        return True
    except ValueError:
        return False
    return False
