"""TAG004: a builtin that is not a tag function used as a tag."""
from tags import html

a = repr"hello {html}"  # TAG004:5
b = str"x"  # TAG004:5
c = html"{len"nested"}"  # TAG004:11
d = 𝔰𝔱𝔯"x"  # TAG004:5
