"""Shell commands without injection: ``sh"ls -l {path}"``.

The literal parts of the tag string are shell code, kept as written.  Every
interpolated value is one shell *word*, quoted with ``shlex.quote``, so
spaces, ``;``, ``$(...)``, quotes and globs in a value stay data:

* a ``Command`` (what ``sh"..."`` returns) interpolated into another is shell
  code already and is inserted as is (``sh"{cmd} | wc -l"``);
* a list or tuple becomes several words, each quoted (``sh"rm -- {files}"``);
* ``os.PathLike`` values are quoted as their path;
* conversions and format specs work as in an f-string and quote the result.

``Command.argv`` splits the command into the argument list the shell would
pass (for ``subprocess.run`` without a shell), and ``run`` runs it with
``/bin/sh -c``.  POSIX shells only.

Run it with ``python -m tagstr_runtime examples/sh.py``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile

from tagstr_runtime import Decoded, Interpolation, accepts_template, format_value

__all__ = ["Command", "run", "sh"]


class Command(str):
    """A POSIX shell command line in which every interpolated value is quoted."""

    __slots__ = ()

    @property
    def argv(self) -> list[str]:
        """The words of the command, as ``/bin/sh`` would split them."""
        return shlex.split(self)

    def __repr__(self) -> str:
        return f"Command({str.__repr__(self)})"


def _words(value: object, conv: str | None, format_spec: str | None) -> str:
    if conv is None and not format_spec:
        if isinstance(value, Command):
            return str(value)
        if isinstance(value, (list, tuple)):
            return " ".join(_words(item, None, None) for item in value)
        if isinstance(value, os.PathLike):
            return shlex.quote(os.fsdecode(value))
    return shlex.quote(format_value(value, conv, format_spec))


@accepts_template
def sh(*args: Decoded | Interpolation[object]) -> Command:
    """The tag: literal text is shell code, each value is quoted."""
    out: list[str] = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                out.append(decoded)
            case Interpolation(getvalue, _, conv, format_spec):
                out.append(_words(getvalue(), conv, format_spec))
    return Command("".join(out))


def run(command: Command, *, cwd: str | None = None) -> str:
    """Run ``command`` with ``/bin/sh -c``; return its standard output."""
    done = subprocess.run(
        ["/bin/sh", "-c", command], cwd=cwd, capture_output=True, text=True, check=True
    )
    return done.stdout


#: A file name that runs three commands if pasted into a command line unquoted.
EVIL = "my notes; touch PWNED; echo $(whoami) `whoami`.txt"


def demo() -> list[str]:
    """Work with a file whose name is an injection attempt; return what the shell printed."""
    outputs: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        name = EVIL
        message = "it's * $HOME"
        run(sh"printf '%s\n' {message} > {name}", cwd=tmp)
        outputs.append(run(sh"cat -- {name}", cwd=tmp))
        listing = sh"ls -1"
        outputs.append(run(sh"{listing} | wc -l", cwd=tmp).strip())
        words = ["a b", "c;d", "$e"]
        outputs.append(run(sh"printf '[%s]' {words}", cwd=tmp))
        echo = sh"echo {name}"
        done = subprocess.run(echo.argv, cwd=tmp, capture_output=True, text=True, check=True)
        outputs.append(done.stdout)
        outputs.append(" ".join(sorted(os.listdir(tmp))))
    return outputs


def main() -> None:
    name = EVIL
    print("command:", sh"cat -- {name}")
    for output in demo():
        print("output: ", output.rstrip("\n"))


if __name__ == "__main__":
    main()
