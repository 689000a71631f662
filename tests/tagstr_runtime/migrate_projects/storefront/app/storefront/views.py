"""Tags imported every way: relative, absolute with 'as', through __init__, aliased."""

import storefront.tags as T
from storefront import lazy  # re-exported through __init__

from . import lazylog as log
from .tags import html, regex, shout

page = T.html  # an alias through a module attribute
h = html  # an alias


def run(user):
    print(html"<p>{user}</p>")
    print(h"<i>{user!r}</i>")
    print(page"<b>{user:>12}</b>")
    print(shout"hi {user}")  # expect: MIG009
    print(regex"\d+\t{user}")  # expect: MIG002 MIG016
    print(regex"plain {user}")
    log.debug(lazy"state: {log.expensive()}")  # expect: MIG001
    log.info(lazy"count now {log.state.count}")  # expect: MIG001
