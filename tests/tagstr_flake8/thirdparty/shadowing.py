"""Names that shadow builtins, tag strings around them."""


def list(x):  # A001:1
    return html'{x}'


id = sql"SELECT {list}"  # A001:1


def show(input):  # A002:10
    print(html"{input}")
