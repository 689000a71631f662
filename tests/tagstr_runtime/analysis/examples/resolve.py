"""What each tag name refers to (the analysis layer's TagResolver, following imports).

``# tag: <kind> <name> [template] [lazy|unproven] [raw] [tag-function] [via <steps>]``
describes the definition the tag string's name resolves to and what is known
of it (``lazy``: it may read its values later or not at all, or keeps what it
gets; ``unproven``: not shown to read each value once, in order, quietly); ``# tag: unknown [template] [tag-function] [from <dotted name>] [via
<steps>]`` when that cannot be known (a name from outside the tree).
"""
import outside as vendor
import shop
import shop.tags as tags_module
from shop import html, log
from outside.tags import fancy
from shop.tags import Message, make_sql
from tagstr_runtime import Decoded, Interpolation, accepts_template, template_tag


def shout(*args: Decoded | Interpolation) -> str:
    return "".join(str(a).upper() for a in args)


@accepts_template
def keep(*args):
    return lambda: [a.getvalue() for a in args]


class Tag:
    def __init__(self, *args: Decoded | Interpolation):
        self.args = args


class Render:
    def __call__(self, *args: Decoded | Interpolation) -> str:
        return "".join(str(a) for a in args)


def make_greet(greeting):
    def greet(*args):
        return greeting + "".join(map(str, args))
    return greet


render = Render()
greet = make_greet("hi ")
loud = shout
wrapped = accepts_template(shout)
library = template_tag(lambda template: template)
picked = tags_module.html
sql = make_sql()
message = Message
vendor_tag = vendor.tags.fancy
wrapped_fancy = accepts_template(fancy)


def views(name, local_tag):
    shout"{name}"  # tag: function shout lazy tag-function
    keep"{name}"  # tag: function keep template lazy tag-function
    Tag"{name}"  # tag: class Tag lazy raw tag-function
    render"{name}"  # tag: instance Render lazy tag-function via assignment,call
    greet"{name}"  # tag: function greet lazy raw via assignment,factory
    loud"{name}"  # tag: function shout lazy tag-function via alias
    wrapped"{name}"  # tag: function shout template lazy tag-function via assignment
    library"{name}"  # tag: library call template tag-function via assignment
    html"{name}"  # tag: function html template tag-function via import,import
    log"{name}"  # tag: function lazy_log lazy raw tag-function via import,import
    picked"{name}"  # tag: function html template tag-function via assignment,import,attribute
    sql"{name}"  # tag: function sql unproven raw tag-function via assignment,import,factory
    message"{name}"  # tag: class Message lazy via alias,import
    local_tag"{name}"  # tag: unknown
    print"{name}"  # tag: unknown
    shop"{name}"  # tag: module
    fancy"{name}"  # tag: unknown from outside.tags.fancy via import
    vendor_tag"{name}"  # tag: unknown from outside.tags.fancy via assignment,import,attribute,attribute
    wrapped_fancy"{name}"  # tag: unknown template tag-function from outside.tags.fancy via assignment,import
