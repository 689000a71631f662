# OPTIONS: --extend-select TAG010
"""TAG010: an interpolation in a with block holding a lock (off by default)."""
import threading

from tags import lazy

registry = {}
_registry_lock = threading.Lock()


class Store:
    def snapshot(self, log):
        with self._lock:
            log.append(lazy"{self._items} constant {1 + 1}")  # TAG010:30
        with open("x") as f:
            log.append(lazy"{f}")
        with self._mutex, other_cm():  # F821:27
            return lazy"{len(self._items)}"  # TAG010:26

    def not_locks(self, second, clock, items):
        with self.code_block():
            log = lazy"{self.items}"
        with clock():
            log = lazy"{self.items}"
        with second:
            log = lazy"{self.items}"
        with self.blocks, self.semantic:
            log = lazy"{self.items}"
        return log

    def unshared(self, key, items):
        with threading.RLock():
            total = len(items)
            return lazy"{key} {total} {key.upper()}"

    def shared(self, key):
        with self._state_lock, self.writeSemaphore:
            return lazy"{registry[key]} {self.cond}"  # TAG010:26 TAG010:42


def module_level(key):
    with _registry_lock:
        return lazy"{registry[key]}"  # TAG010:22
