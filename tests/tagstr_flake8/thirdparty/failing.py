"""A file two plugins cannot read."""
HEADER = html"<h1>{'title'}</h1>"


def page(name):
    return html"<p>{name}</p>"  # explode
