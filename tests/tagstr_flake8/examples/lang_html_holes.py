# OPTIONS: --max-line-length=120
# REQUIRES: html5lib
"""HTML tags: each interpolation judged by where it stands."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def html(*args: Annotated[Decoded | Interpolation, "html"]) -> str:
    return "".join(str(a) for a in args)


x = "value"
attrs = {"id": "main"}

# fine: text, quoted attribute values, an attribute spread, <title>
ok1 = html"<p title='{x}' class=\"c {x}\">{x}</p>"
ok2 = html"<div {attrs}>{x}</div><title>{x}</title>"
ok3 = html"<a href=\"/users/{x}?q={x}\">{x}</a>"

bad1 = html"<input value={x}>"  # TAG110:26
bad2 = html"<{x}>text</{x}>"  # TAG111:14 TAG111:24
bad3 = html"<p data-{x}=\"1\" {x}=\"2\">text</p>"  # TAG111:21 TAG111:31
bad4 = html"<script>var user = {x};</script>"  # TAG112:32
bad5 = html"<style>p {{ color: {x} }}</style>"  # TAG112:32
bad6 = html"<!-- user {x} -->"  # TAG113:23
bad7 = html"<button onclick=\"go({x})\">go</button>"  # TAG114:34
bad8 = html"<a href=\"javascript:show({x})\">show</a>"  # TAG115:39
bad9 = html"<a href=' JavaScript:{x}'>show</a>"  # TAG115:34
