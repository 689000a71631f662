"""A file without tag strings that a plugin cannot read."""


def page(name):
    return f"<p>{name}</p>"  # explode
