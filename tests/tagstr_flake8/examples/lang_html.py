# OPTIONS: --max-line-length=120
# REQUIRES: html5lib
"""HTML tags: faults reported at their token, correct HTML5 left alone."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def html(*args: Annotated[Decoded | Interpolation, "html"]) -> str:
    return "".join(str(a) for a in args)


name = "World"
url = "https://example.com"

# correct HTML5: void elements, optional end tags, names in any
# case, holes in text and in quoted attribute values
ok1 = html"<p>Hi {name}!<br>Hey.</p><img src='{url}' alt=\"\">"
ok2 = html"<ul><li>{name}<li>two</ul><DIV class=\"a\"></div>"
ok3 = html"<table><tr><td>{name}<td>2</table><input type=checkbox checked>"
ok4 = html"<p>a &amp; b &lt; c &#x41; &copy;</p><textarea>{name}</textarea>"

# mismatched, stray and unclosed tags
bad1 = html"<div><span>{name}</div>"  # TAG101:30
bad2 = html"<p>{name}</p></span>"  # TAG101:26
bad3 = html"<section><h1>{name}</h1>"  # TAG102:13
bad4 = html"<b><i>{name}</b></i>"  # TAG101:25 TAG101:29

# attributes: duplicate, unterminated value, invalid name
bad5 = html"<p class=\"a\" id=x class=\"b\">{name}</p>"  # TAG103:33
bad6 = html"<a href=\"{url}>link</a>"  # TAG104:37
bad7 = html"<p a<b=\"1\">{name}</p>"  # TAG104:17

# character references
bad8 = html"<p>Fish &chips; and &#xZZ; and &copy</p>"  # TAG105:21 TAG105:33 TAG105:44

# a fault on the third line of a multi-line literal
bad9 = html"""<ul>
  <li>{name}
  <li>{name}</i>
</ul>"""  # @-1 TAG101:13
