"""TAG003 through the tag resolver: what factories and wrappers make."""
from some_library import render

from tagstr_runtime import accepts_template
from tagstr_runtime import Decoded, Interpolation, template_tag


def make_tag():
    def tag(*args: Decoded | Interpolation) -> str:
        return "".join(str(a) for a in args)
    return tag


rb = make_tag()  # TAG003:1
f = template_tag(lambda template: str(template))  # TAG003:1
u = accepts_template(render)  # TAG003:1
page = make_tag()
