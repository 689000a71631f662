"""A streaming tag writes its first part before a later field fails."""

from logkit.tags import stream

counter = {"n": 0}


def tick() -> int:
    counter["n"] += 1
    print(f"(tick {counter['n']})")
    return counter["n"]


stream"first {tick()} then {tick()}"  # expect: MIG014
stream"ok {tick()} then {1 / 0}"  # expect: MIG014
