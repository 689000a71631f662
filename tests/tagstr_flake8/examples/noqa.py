"""# noqa on the original lines, also for tag strings spanning lines."""
from tags import html

a = html"{missing}"  # noqa: F821
b = html"{missing}"  # noqa
# @+1 F821:11 F821:21
c = html"{missing} {other}"  # noqa: E501
d = html"{missing +
          other}"  # noqa: F821
e = html"{missing +
          other}"
# @-2 F821:11
# @-2 F821:11
