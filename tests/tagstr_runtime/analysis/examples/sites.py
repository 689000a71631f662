"""What each tag receives (the desugarer's sites), and where its characters come from.

``# args <tag>: ...`` lists the first site of that tag on the line: each
literal run as the ``repr`` of its cooked text, each interpolation as
``{text!conv:spec}`` with its format spec's own runs and interpolations;
``# at <tag> <run> <index>: <line>:<col_char>:<col_byte>`` says where
character ``index`` of run ``run`` was written (a run of several lines
counts them from its tag string's line).
"""

html"Hi, {name!r}!"  # args html: 'Hi, ' {name!r} '!'
html"{a}{b}"  # args html: {a} {b}
html""  # args html:
html"{{literal}} \x41\N{{BULLET}}\d"  # args html: '{literal} A•\\d' # at html 0 10: 14:17:17
é = html"café {x=} {y!s:>{w}.{p}}"  # args html: 'café x=' {x!r} ' ' {y!s:'>' {w} '.' {p}} # at html 0 5: 15:15:17
html"{outer"in {x}"} and {f'{nested"{y}"}'}"  # args outer: 'in ' {x} # args html: {outer"in {x}"} ' and ' {f'{nested"{y}"}'}
html"""first
second \
third {value = }
"""  # args html: 'first\nsecond third value = ' {value!r} '\n' # at html 0 13: 19:0:0 # at html 1 0: 19:16:16
