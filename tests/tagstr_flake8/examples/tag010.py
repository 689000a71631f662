# OPTIONS: --extend-select TAG010
"""TAG010: an interpolation in a with block holding a lock (off by default)."""
from tags import lazy


class Store:
    def snapshot(self, log):
        with self._lock:
            log.append(lazy"{self._items} constant {1 + 1}")  # TAG010:30
        with open("x") as f:
            log.append(lazy"{f}")
        with self._mutex, other_cm():  # F821:27
            return lazy"{len(self._items)}"  # TAG010:26
