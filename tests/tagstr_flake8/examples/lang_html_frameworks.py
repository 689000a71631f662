# OPTIONS: --max-line-length=120 --extend-select TAG116,TAG117
# REQUIRES: html5lib
"""Opt-in: holes that htmx, Alpine.js or Vue run as JavaScript (TAG116), whole-URL holes (TAG117)."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def html(*args: Annotated[Decoded | Interpolation, "html"]) -> str:
    return "".join(str(a) for a in args)


x = "value"
url = "/home"

# fine: values in attributes no framework evaluates, a URL with a fixed start
ok1 = html"<div hx-get=\"/items/{x}\" hx-target=\"#list\" x-cloak data-id=\"{x}\">{x}</div>"
ok2 = html"<a href=\"/users/{x}\">{x}</a><div hx-vals='{{\"id\": \"{x}\"}}'></div>"

bad1 = html"<button hx-on:click=\"go({x})\">go</button>"  # TAG116:38
bad2 = html"<div x-data=\"{{open: {x}}}\"></div>"  # TAG116:35
bad3 = html"<button @click=\"select({x})\" :class=\"{x}\">go</button>"  # TAG116:37 TAG116:53
bad4 = html"<p v-if=\"{x}\">x</p>"  # TAG116:23
bad5 = html"<div hx-vals='js:{{id: {x}}}'></div>"  # TAG116:36
bad6 = html"<a href=\"{url}\">home</a>"  # TAG117:23
bad7 = html"<img src='{url}' alt=\"\">"  # TAG117:23
