"""HTML with automatic escaping: ``html"<p>{user.name}</p>"``.

The literal parts of the tag string are the template: they are trusted and
kept as written.  Every interpolated value is text from the outside world and
is escaped exactly as ``html.escape(text, quote=True)`` does (quotes
included, so values are also safe inside attribute values), with three
exceptions that make templates compose:

* an ``HTML`` value (what ``html"..."`` returns) is already markup and is
  inserted as is, so nesting ``html"..."`` never escapes twice;
* any object with an ``__html__()`` method (the convention shared by
  MarkupSafe, Jinja2 and Django) is inserted as what that method returns;
* a list or tuple is inserted item by item, each item following these rules,
  so ``{[html"<li>{x}</li>" for x in items]}`` builds a list.

Conversions and format specs work as in an f-string and produce *text*:
``{value!r}`` escapes the ``repr`` and ``{price:>8.2f}`` escapes the formatted
number.  ``{fragment:>30}`` pads the markup of an ``HTML`` value without
escaping it (use ``!s`` to show markup as text).

Run it with ``python -m tagstr_runtime examples/html.py``.  (When a script
named ``html.py`` runs, its folder comes first on ``sys.path`` and hides the
standard library's ``html`` package, so this file does its own escaping
instead of importing ``html.escape``.)
"""

from __future__ import annotations

from tagstr_runtime import Decoded, Interpolation, accepts_template, format_value

__all__ = ["HTML", "escape", "html"]


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    """``html.escape(text, quote=True)``."""
    return text.translate(_ESCAPES)


class HTML(str):
    """A string of markup that is safe to insert as is."""

    __slots__ = ()

    def __html__(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"HTML({str.__repr__(self)})"


def _markup(value: object) -> str | None:
    """The markup of a value that declares itself safe, else ``None``."""
    if isinstance(value, HTML):
        return str(value)
    dunder = getattr(type(value), "__html__", None)
    if dunder is not None:
        return str(dunder(value))
    return None


def _insert(value: object, conv: str | None, format_spec: str | None) -> str:
    if conv is None:
        markup = _markup(value)
        if markup is not None:
            return format(markup, format_spec) if format_spec else markup
        if isinstance(value, (list, tuple)) and not format_spec:
            return "".join(_insert(item, None, None) for item in value)
    text = format_value(value, conv, format_spec)
    return escape(text)


@accepts_template
def html(*args: Decoded | Interpolation[object]) -> HTML:
    """The tag: literal parts verbatim, interpolated values escaped."""
    out: list[str] = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                out.append(decoded)
            case Interpolation(getvalue, _, conv, format_spec):
                out.append(_insert(getvalue(), conv, format_spec))
            case _:  # never dropped silently (a template of a class the bridge does not know, say)
                kind = f"{type(arg).__module__}.{type(arg).__qualname__}"
                raise TypeError(f"html takes a tag string's arguments or one template, not {kind}")
    return HTML("".join(out))


def user_card(name: str, homepage: str, karma: float) -> HTML:
    """A small component: safe to call with anything a user typed."""
    return html"""<div class="card">
  <a href="{homepage}">{name}</a>
  <span class="karma">{karma:.1f}</span>
</div>"""


def user_list(names: list[str]) -> HTML:
    """Nested tag strings and lists: each item escaped exactly once."""
    items = [html"<li>{name}</li>" for name in names]
    return html"<ul>{items}</ul>"


def demo() -> list[HTML]:
    name = "<script>alert('pwned')</script>"
    shown = [
        html"<p>Hello {name}!</p>",
        user_card("Tom & Jerry", 'https://example.com/?a=1&b="2"', 4.75),
        user_list(["a < b", "O'Henry", "<b>bold?</b>"]),
        html"<pre>{name!r}</pre>",
        html"<td>{3.14159:>8.2f}</td>",
        html"<div>{html'<i>{name}</i>'}</div>",
    ]
    return shown


def main() -> None:
    for fragment in demo():
        print(fragment)


if __name__ == "__main__":
    main()
