"""Cancel scopes around tag strings."""
import trio


async def send(stream):
    await stream.send(html"<p>{stream}</p>")
    with trio.move_on_after(1):  # ASYNC100:10
        log"nothing awaited {stream}"


async def idle(stream):  # ASYNC124:1
    return html"{stream}"


async def fine(stream):
    with trio.move_on_after(1):
        await stream.send(sql"SELECT {stream}")
