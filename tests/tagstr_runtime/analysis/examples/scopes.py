"""Which binding each read refers to (the analysis layer's ScopeIndex).

``# bind: x=A`` labels the binding of ``x`` written on its line; ``# read: x=A|B``
says which bindings the first read of ``x`` on its line refers to (``builtin``:
none of this file's).  An interpolation's names resolve where the tag string
stands, as in its f-string twin.
"""
import os  # bind: os=IMPORT

table = "global"  # bind: table=G
item = None  # bind: item=ITEM


def function(rows, tag):  # bind: rows=ROWS tag=TAG
    total = 0  # bind: total=T1
    for row in rows:  # bind: row=ROW
        total = total + row  # bind: total=T2 # read: total=T1|T2
    print(len(rows))  # read: len=builtin rows=ROWS
    return tag"{total} {table} {os.sep}"  # read: total=T1|T2 table=G os=IMPORT


class Body:
    early = [table]  # read: table=G
    table = "class"  # bind: table=C
    late = [table]  # read: table=C
    hidden = [table for _ in range(2)]  # read: table=G
    lazy = lambda: table  # read: table=G  # noqa: E731

    def method(self):  # bind: self=SELF
        return table  # read: table=G


def comprehensions(rows):  # bind: rows=CROWS
    first = [x for x in rows]  # bind: first=FIRST # read: rows=CROWS
    if any((hit := y) for y in rows):  # bind: hit=HIT
        return hit  # read: hit=HIT
    return [[cell for cell in x] for x in first]  # bind: x=X # read: first=FIRST x=X


def declarations(items):  # bind: items=ITEMS
    global item
    for item in items:  # bind: item=ITEM2
        pass
    last = None  # bind: last=LAST

    def inner():
        nonlocal last
        last = 1  # bind: last=LAST2
        return item  # read: item=ITEM|ITEM2

    inner()
    return last  # read: last=LAST|LAST2


def handlers_and_patterns(value, tag):
    try:
        pass
    except ValueError as error:  # bind: error=ERR
        print(error)  # read: error=ERR
    match value:
        case {"key": found}:  # bind: found=FOUND
            return tag"{found}"  # read: found=FOUND
        case [first, *rest]:  # bind: first=PFIRST rest=REST
            return tag"{first} {rest}"  # read: first=PFIRST rest=REST
    del value


def nested_tag_strings(tag, name):  # bind: tag=NTAG name=NAME
    return tag"a {tag"b {name}"} c"  # read: name=NAME tag=NTAG
