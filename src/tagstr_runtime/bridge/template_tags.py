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
Before 3.14 libraries check for a backport's class: ``bridge._kinds`` builds
and reads each.
"""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Generic, NoReturn, ParamSpec, TypeVar, overload

from tagstr_runtime._types import Decoded, Interpolation, RawSpec
from tagstr_runtime.bridge.kinds import KNOWN, Builder, kind_of_class, qualified_name, read_template
from tagstr_runtime.bridge.site_templates import Sites
from tagstr_runtime.templatelib import Template

__all__ = ["TemplateLibraryTag", "TemplateTag", "accepts_template", "as_tag_args", "template_tag", "to_template"]

#: ``Template`` is 3.14's own, built by the interpreter's ``t"..."`` instructions
_NATIVE_TEMPLATES = sys.version_info >= (3, 14)

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
TT = TypeVar("TT")


@overload
def to_template(*args: Decoded | Interpolation[Any], raw: bool = ...) -> Template: ...


@overload
def to_template(*args: Decoded | Interpolation[Any], template_type: type[TT], raw: bool = ...) -> TT: ...


def to_template(*args: Decoded | Interpolation[Any], template_type: type[Any] = Template, raw: bool = False) -> Any:
    """The ``Template`` that ``t"..."`` builds for a tag string's arguments (``rt"..."`` with ``raw``).

    Each ``getvalue()`` is called once, in source order (t-strings are
    eager).  A literal part gives its cooked text (``.raw`` with ``raw``); a
    format spec its text with escapes processed, as in ``t"..."`` (as written
    with ``raw``); an absent spec is ``''``.  Conversions, the ``=`` text and
    nested spec fields arrive already as a t-string has them.
    ``template_type``: the class to build (3.14's, or a backport a library
    checks for: see docs/python314.md); by default ``tagstr_runtime.templatelib.Template``.
    """
    if _TO_TEMPLATE_SITES is not None and template_type is Template and not raw:
        template = _TO_TEMPLATE_SITES.template(args)
        if template is not None:
            return template
    return _template_of(args, _builder(template_type), raw)


#: the sites ``to_template`` met (3.14's own Template: see ``bridge.site_templates``)
_TO_TEMPLATE_SITES = Sites() if _NATIVE_TEMPLATES else None


def _builder(template_type: type[Any]) -> Builder:
    kind = kind_of_class(template_type) if isinstance(template_type, type) else None
    if kind is None:
        known = ", ".join(f"{module}.{name}" for module, name in KNOWN)
        given = qualified_name(template_type) if isinstance(template_type, type) else repr(template_type)
        raise TypeError(f"template_type: the bridge builds {known}; not {given}")
    return kind.builder(template_type)


def _template_of(args: tuple[object, ...], builder: Builder, raw: bool) -> object:
    interpolation = builder.interpolation
    items: list[object] = []
    for arg in args:
        if isinstance(arg, Decoded):
            items.append(arg.raw if raw else str.__str__(arg))
        elif isinstance(arg, Interpolation):
            getvalue, expr, conv, spec = arg
            if spec is None:
                spec = ""
            elif type(spec) is RawSpec:
                spec = str.__str__(spec) if raw else _t_string_spec(spec, expr)
            items.append(interpolation(getvalue(), expr, conv, spec))
        else:
            _not_a_tag_argument(arg)
    return builder.finish(*items)


def _t_string_spec(spec: RawSpec, expr: str) -> str:
    try:
        return spec.t_string_text()
    except ValueError as error:
        raise ValueError(f"{{{expr}}}: {error}") from None


def as_tag_args(template: object) -> tuple[Decoded | Interpolation[Any], ...]:
    """A template's parts as a tag string passes them.

    ``template``: 3.14's ``Template``, the stand-in, or a backport's (see
    ``template_tag``).  Empty strings are dropped, as a tag never receives an
    empty literal part.  ``getvalue()`` returns the value the template already
    holds (every call the same object); ``.raw`` of a literal part is its text,
    the only one a template keeps (the cooked text for ``t"..."``, the source
    text for ``rt"..."``); an empty format spec is ``None``, as for a field without one.
    """
    args = _tag_args(template)
    if args is None:
        raise TypeError(f"as_tag_args() takes a template, not {qualified_name(type(template))}")
    return args


def _tag_args(template: object) -> tuple[Decoded | Interpolation[Any], ...] | None:
    out: list[Decoded | Interpolation[Any]] = []
    if type(template) is Template:  # the common case, read directly
        for part in template:
            if isinstance(part, str):
                out.append(Decoded(part, raw=part))
            else:
                out.append(Interpolation((_constant(part.value), part.expression, part.conversion,
                                          part.format_spec or None)))
        return tuple(out)
    parts = read_template(template)
    if parts is None:
        return None
    for text, (value, expression, conversion, spec) in zip(parts.strings, parts.interpolations):
        if text:
            out.append(Decoded(text, raw=text))
        out.append(Interpolation((_constant(value), expression, conversion, spec or None)))
    if parts.strings[-1]:
        out.append(Decoded(parts.strings[-1], raw=parts.strings[-1]))
    return tuple(out)


#: What a tag string passes: ``Decoded`` is a ``str``, ``Interpolation`` a ``tuple``.
_TAG_ARGUMENTS = (str, tuple)


def _constant(value: object) -> Callable[[], object]:
    def getvalue() -> object:
        return value

    return getvalue


def _not_a_tag_argument(arg: object) -> NoReturn:
    raise TypeError(
        "a tag takes Decoded and Interpolation arguments (or one template), "
        f"not {qualified_name(type(arg))}"
    )


class TemplateLibraryTag(Generic[R_co]):
    """A function taking a ``Template``, usable as a tag (``template_tag``)."""

    def __init__(self, function: Callable[[Any], R_co], template_type: type[Any] = Template, raw: bool = False):
        self._builder = _builder(template_type)
        self.template_type = template_type
        self.raw = raw
        self.__wrapped__ = function
        functools.update_wrapper(self, function)
        # 3.14's own Template: each site's built as its t-string builds it (bridge.site_templates)
        self._sites = Sites() if _NATIVE_TEMPLATES and template_type is Template and not raw else None

    @overload
    def __call__(self, template: Template, /) -> R_co: ...

    @overload
    def __call__(self, *args: Decoded | Interpolation[Any]) -> R_co: ...

    def __call__(self, *args: object) -> R_co:
        sites = self._sites
        if sites is not None:
            template = sites.template(args)
            if template is not None:
                return self.__wrapped__(template)
        if len(args) == 1 and not isinstance(args[0], (Decoded, Interpolation)):
            given = args[0]
            if type(given) is self.template_type:
                return self.__wrapped__(given)
            parts = read_template(given)
            if parts is not None:  # another class of template: the same parts, in the class asked for
                return self.__wrapped__(self._builder.from_parts(parts))
        return self.__wrapped__(_template_of(args, self._builder, self.raw))

    def __repr__(self) -> str:
        options = "" if self.template_type is Template else f", template_type={qualified_name(self.template_type)}"
        return f"template_tag({self.__wrapped__!r}{options}{', raw=True' if self.raw else ''})"


@overload
def template_tag(function: Callable[[Template], R], /, *, raw: bool = ...) -> TemplateLibraryTag[R]: ...


@overload
def template_tag(
    function: Callable[[TT], R], /, *, template_type: type[TT], raw: bool = ...
) -> TemplateLibraryTag[R]: ...


def template_tag(function: Callable[[Any], R], /, *, template_type: type[Any] = Template, raw: bool = False
                 ) -> TemplateLibraryTag[R]:
    """Make a tag of a function that takes a template.

    ``html = template_tag(lib.html)``: ``html"<p>{x}</p>"`` calls
    ``lib.html(t"<p>{x}</p>")`` (``rt"..."`` with ``raw=True``; see
    ``to_template``).  A template passes straight through (converted first
    when it is of another class).  ``template_type`` is the class the function
    takes: ``tagstr_runtime.templatelib.Template`` by default (3.14's own, or
    before 3.14 a stand-in that libraries do not know), else a backport
    (``tstrings.Template``, ``tstr.Template``, ``sql_tstring.t.Template``).
    """
    return TemplateLibraryTag(function, template_type, raw)


class TemplateTag(Generic[P, R_co]):
    """A tag that also takes one template (``@accepts_template``)."""

    def __init__(self, tag: Callable[P, R_co]) -> None:
        self.__wrapped__ = tag
        self._tag: Callable[..., R_co] = tag  # called with a tag's *args, whatever P says
        functools.update_wrapper(self, tag)

    @overload
    def __call__(self, template: Template, /) -> R_co: ...

    @overload
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...

    def __call__(self, *args: Any, **kwargs: Any) -> R_co:
        if len(args) == 1 and not kwargs and not isinstance(args[0], _TAG_ARGUMENTS):
            tag_args = _tag_args(args[0])
            if tag_args is not None:
                return self._tag(*tag_args)
        return self._tag(*args, **kwargs)

    def __repr__(self) -> str:
        return f"accepts_template({self.__wrapped__!r})"


def accepts_template(tag: Callable[P, R]) -> TemplateTag[P, R]:
    """Let a tag take a template too: ``html(t"<p>{x}</p>")`` is ``html"<p>{x}</p>"``.

    Tag strings reach the tag unchanged.  A single template argument (3.14's,
    the stand-in, or a backport's: see ``template_tag``) is turned into the
    arguments the tag string would have passed (``as_tag_args``), with the
    values the template already evaluated.
    """
    return TemplateTag(tag)
