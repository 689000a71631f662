"""The storefront program: every module's tags, every kind of import."""

from extlib import upper

import storefront.views as views
from storefront import html, lazylog, pages, prefixed, widgets

name = "<Ann & Bob>"
print(html"<h1>{name}</h1>")  # re-exported through __init__
print(upper"vendor: {name}")  # expect: MIG011
views.run(name)
pages.run(name)
widgets.run(name)
prefixed.run(name)
print(f"expensive calls: {lazylog.state.count}")
