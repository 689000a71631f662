"""TAG011: super() without arguments in an interpolation."""
from tags import html


class Base:
    def render(self):
        return "base"


class Page(Base):
    def render(self):
        return html"<p>{super().render()}</p>"  # TAG011:25

    def explicit(self):
        parent = super()
        width = 3
        return html"{super(Page, self).render()} {parent.render()} {0:{width}}"

    def in_lambda(self):
        return html"{(lambda s: s)(1)}"
