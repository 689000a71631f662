"""Assignment expressions and super() in fields; comprehensions and closures around tag strings."""

from scopes.common import v


def walrus():
    text = v"{(n := 10) + 1}"  # expect: MIG005
    try:
        return text, n
    except NameError as error:
        return text, f"NameError: {error}"


class Base:
    def name(self):
        return "base"


class Child(Base):
    def name(self):
        try:
            return v"{super().name()}"  # expect: MIG006
        except RuntimeError as error:
            return f"RuntimeError: {error}"

    def explicit(self):
        return v"{super(Child, self).name()}"


def nested():
    def inner(x):
        return v"{x} {[y * 2 for y in range(x)]}"

    return [inner(i) for i in range(3)]


def closures():
    makers = [lambda i=i: v"{i}" for i in range(3)]
    return [m() for m in makers]


def generators():
    return v"{list(x for x in 'ab')} {sum(i for i in range(4))}"


counter = 0


def bump():
    global counter
    counter += 1
    return v"{counter}"


print(walrus(), Child().name(), Child().explicit(), nested(), closures(), generators(), bump(), bump())
