"""A program whose tag is named t: on 3.14 t"..." is a t-string, not a call of the tag."""

from tnamed import report
from tnamed.tags import t

print(t"main: {1 + 1}")  # expect: MIG012
print(report.run("World"))
