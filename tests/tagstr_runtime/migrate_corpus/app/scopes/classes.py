"""Class bodies: a tag string's closure cannot see the class's names; a t-string can."""

import sys

from scopes.common import v

color = "global color"
size = "global size"


class Plain:
    color = "class color"
    here = v"{color}"  # expect: MIG004
    later = v"{size}"  # a global: the class binds size further down
    size = "class size"
    both = v"{len(color)} {sys.version_info[0]}"  # expect: MIG004


class Handlers:
    try:
        raise ValueError("boom")
    except ValueError as caught:
        try:
            text = v"{caught}"  # expect: MIG004
        except NameError as error:
            text = f"NameError: {error}"


class Matched:
    match (1, 2):
        case (first, _):
            try:
                pair = v"{first}"  # expect: MIG004
            except NameError as error:
                pair = f"NameError: {error}"


class Names:
    try:
        mine = v"{__qualname__}"  # expect: MIG004
    except NameError as error:
        mine = f"NameError: {error}"
    try:
        module = v"{__module__}"  # expect: MIG004
    except NameError as error:
        module = f"NameError: {error}"


class Methods:
    factor = 3

    def scaled(self, n):
        return v"{n * self.factor}"

    def comprehension(self):
        return [v"{i}" for i in range(self.factor)]


for cls in (Plain, Handlers, Matched, Names):
    print(cls.__name__, {k: val for k, val in vars(cls).items() if not k.startswith("__")})
print(Methods().scaled(2), Methods().comprehension())
