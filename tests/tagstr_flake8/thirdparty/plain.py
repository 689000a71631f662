import trio


def undocumented(a, b):
    return f"{a}" + 'b'


def id(x):
    return x


async def waits():
    with trio.move_on_after(1):
        pass
