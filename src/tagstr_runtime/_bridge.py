"""Both directions between tag strings and Python 3.14 template strings.

- ``template_tag(fn)``: a function that takes a ``Template`` (an HTML, SQL or
  logging library written for t-strings) becomes a tag.  ``html"<p>{x}</p>"``
  then hands ``fn`` the ``Template`` that ``t"<p>{x}</p>"`` builds, so
  libraries of either world serve both.
- ``@accepts_template``: a tag also takes a template, ``html(t"<p>{x}</p>")``
  giving what ``html"<p>{x}</p>"`` gives, so a code base can move to
  t-strings one call site at a time (``python -m tagstr_runtime.migrate``).

A template keeps one text per literal part and values already evaluated;
a tag string keeps two texts (cooked, ``.raw``) and closures.  What is lost
on the way from a template is said in ``docs/python314.md``; the mypy plugin
checks ``html(t"...")`` of a decorated tag with the tag's per-slot types.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Generic, NoReturn, ParamSpec, TypeVar, overload

from tagstr_runtime._types import Decoded, Interpolation
from tagstr_runtime.templatelib import Interpolation as TemplateInterpolation
from tagstr_runtime.templatelib import Template

__all__ = ["TemplateLibraryTag", "TemplateTag", "accepts_template", "as_tag_args", "template_tag", "to_template"]

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


def to_template(*args: Decoded | Interpolation[Any]) -> Template:
    """The ``Template`` that ``t"..."`` builds for a tag string's arguments.

    Each ``getvalue()`` is called once, in source order (t-strings are
    eager); a literal part gives its cooked text (a t-string's text); an
    absent format spec is ``''``.  Conversions, the ``=`` text and nested
    spec fields arrive already as a t-string has them.
    """
    return _template_of(args)


def _template_of(args: tuple[object, ...]) -> Template:
    parts: list[str | TemplateInterpolation[Any]] = []
    for arg in args:
        if isinstance(arg, Decoded):
            parts.append(str.__str__(arg))
        elif isinstance(arg, Interpolation):
            getvalue, expr, conv, spec = arg
            parts.append(TemplateInterpolation(getvalue(), expr, conv, "" if spec is None else spec))
        else:
            _not_a_tag_argument(arg)
    return Template(*parts)


def as_tag_args(template: Template) -> tuple[Decoded | Interpolation[Any], ...]:
    """A template's parts as a tag string passes them.

    Empty strings are dropped, as a tag never receives an empty literal part.
    ``getvalue()`` returns the value the template already holds (every call
    the same object); ``.raw`` of a literal part is its text, the only one a
    template keeps (the cooked text for ``t"..."``, the source text for
    ``rt"..."``); an empty format spec is ``None``, as for a field without one.
    """
    out: list[Decoded | Interpolation[Any]] = []
    for part in template:
        if isinstance(part, str):
            out.append(Decoded(part, raw=part))
        else:
            value = part.value
            spec = part.format_spec or None
            out.append(Interpolation((_constant(value), part.expression, part.conversion, spec)))
    return tuple(out)


def _constant(value: object) -> Callable[[], object]:
    def getvalue() -> object:
        return value

    return getvalue


def _not_a_tag_argument(arg: object) -> NoReturn:
    raise TypeError(
        f"a tag takes Decoded and Interpolation arguments (or one Template), not {type(arg).__name__}"
    )


class TemplateLibraryTag(Generic[R_co]):
    """A function taking a ``Template``, usable as a tag (``template_tag``)."""

    def __init__(self, function: Callable[[Template], R_co]) -> None:
        self.__wrapped__ = function
        functools.update_wrapper(self, function)

    @overload
    def __call__(self, template: Template, /) -> R_co: ...

    @overload
    def __call__(self, *args: Decoded | Interpolation[Any]) -> R_co: ...

    def __call__(self, *args: object) -> R_co:
        if len(args) == 1 and isinstance(args[0], Template):
            return self.__wrapped__(args[0])
        return self.__wrapped__(_template_of(args))

    def __repr__(self) -> str:
        return f"template_tag({self.__wrapped__!r})"


def template_tag(function: Callable[[Template], R]) -> TemplateLibraryTag[R]:
    """Make a tag of a function that takes a 3.14 ``Template``.

    ``html = template_tag(lib.html)``: ``html"<p>{x}</p>"`` calls
    ``lib.html(t"<p>{x}</p>")``, and ``html(t"<p>{x}</p>")`` passes the
    template straight through.  Before 3.14 the template is the stand-in of
    ``tagstr_runtime.templatelib``.
    """
    return TemplateLibraryTag(function)


class TemplateTag(Generic[P, R_co]):
    """A tag that also takes one ``Template`` (``@accepts_template``)."""

    def __init__(self, tag: Callable[P, R_co]) -> None:
        self.__wrapped__ = tag
        self._tag: Callable[..., R_co] = tag  # called with a tag's *args, whatever P says
        functools.update_wrapper(self, tag)

    @overload
    def __call__(self, template: Template, /) -> R_co: ...

    @overload
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...

    def __call__(self, *args: Any, **kwargs: Any) -> R_co:
        if len(args) == 1 and not kwargs and isinstance(args[0], Template):
            return self._tag(*as_tag_args(args[0]))
        return self._tag(*args, **kwargs)

    def __repr__(self) -> str:
        return f"accepts_template({self.__wrapped__!r})"


def accepts_template(tag: Callable[P, R]) -> TemplateTag[P, R]:
    """Let a tag take a template too: ``html(t"<p>{x}</p>")`` is ``html"<p>{x}</p>"``.

    Tag strings reach the tag unchanged.  A single ``Template`` argument is
    turned into the arguments the tag string would have passed
    (``as_tag_args``), with the values the template already evaluated.
    """
    return TemplateTag(tag)
