"""Scoped strings nested in each other's fields, and a safe tag catching a failing field."""

from logkit.tags import keep, later, lines, remote, safe, scoped

print(scoped"a {scoped'b {scoped"c"}'} d")  # expect: MIG014
print(safe"x={1} y={1 / 0} z={3}")  # expect: MIG014
print([type(a).__name__ for a in keep"{1}{2}"])  # expect: MIG001
produced = lines"one {print('running') or 1} two"  # expect: MIG001
print("before iterating")
print(list(produced))
coroutine = remote"r {print('awaited') or 2}"  # expect: MIG001
print("before awaiting")
try:
    coroutine.send(None)
except StopIteration as done:
    print(done.value)
thunk = later"late {print('called') or 3}"  # expect: MIG001
print("before calling")
print(thunk())
