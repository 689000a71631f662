"""Run the demo of every example, in order: the README's quick start.

Each example runs exactly as a user runs it, ``python -m tagstr_runtime
examples/<name>.py``, in its own interpreter.  Exit status: the first
failing example's, else 0.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = ("greet", "html", "sql", "sh", "lazylog", "decimal_literal", "delayed")


def main() -> int:
    for index, name in enumerate(EXAMPLES):
        if index:
            print()
        print(f"=== python -m tagstr_runtime examples/{name}.py ===", flush=True)
        done = subprocess.run([sys.executable, "-m", "tagstr_runtime", str(HERE / f"{name}.py")])
        if done.returncode:
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
