"""A filtered debug message never runs its fields; an info message does."""

from logkit import tags
from logkit.tags import Message, debug, info, record

config: dict[str, str] = {}
calls = []


def expensive(name: str) -> str:
    calls.append(name)
    return config[name]  # KeyError if it runs


print(debug"state: {expensive('missing')}")  # expect: MIG013
config["user"] = "ann"
print(info"user: {expensive('user')}")  # expect: MIG013
print(calls, tags.records)
message = Message"hello {expensive('user')}"  # expect: MIG001 MIG009
print(calls)
print(str(message), str(message), calls)
print(record"{config['user']!r} logged in {len(calls)} times")
