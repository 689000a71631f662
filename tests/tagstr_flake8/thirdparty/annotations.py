"""Functions with and without annotations, tag strings around them."""
HEADER = html"<h1>{'title'}</h1>"


# @+1 ANN001:11 ANN201:28
def greet(name, count: int):
    return html"<p>{name}</p>" * count


# @+1 ANN001:17
async def fetch(client) -> str:
    return sql"SELECT {client}"


# @+1 ANN002:20
def typed(x: int, *args) -> str:
    return html"{x:>{x}} {args}"


def row(item: str) -> str: return html"<td>{item}</td>"


# @+1 ANN001:11 ANN001:17 ANN201:23
def later(self, value):
    return html"""
        <p>{value}</p>
    """
