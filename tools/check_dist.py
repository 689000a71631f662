#!/usr/bin/env python3
"""Check the distributions a release would upload: ``python tools/check_dist.py``.

1. ``python -m build`` builds the sdist, then the wheel *from the sdist*
   (what an installer building from the sdist gets);
2. ``python -m build --wheel`` builds a wheel straight from the tree;
3. the two wheels must hold the same files with the same bytes: a file the
   sdist forgets would make them differ;
4. both distributions must pass ``twine check`` (metadata, README rendering);
5. the wheel must carry what the package needs beyond its modules: the
   start-up hook file(s), ``py.typed``, the entry points, the licence.

Needs ``build`` and ``twine`` (the ``package`` tox env installs them).
Exits 0 when everything holds, 1 with the reasons otherwise.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Files the wheel must contain beyond the packages' modules.
REQUIRED_IN_WHEEL = (
    "tagstr_autoload.pth",
    "tagstr_runtime/py.typed",
    # PyInstaller finds it by file name (the pyinstaller40 entry point names its folder)
    "tagstr_runtime/shipping/pyinstaller/hook-tagstr_runtime.py",
)
REQUIRED_ENTRY_POINTS = ("[pytest11]", "[flake8.extension]", "[hatch]", "[pyinstaller40]")


def build(outdir: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(outdir), *args, str(REPO)],
                   check=True, stdout=subprocess.DEVNULL)


def contents(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def main() -> int:
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="tagstr-dist-") as tmp:
        via_sdist, from_tree = Path(tmp, "via-sdist"), Path(tmp, "from-tree")
        build(via_sdist)
        build(from_tree, "--wheel")
        sdists = sorted(via_sdist.glob("*.tar.gz"))
        wheels = sorted(via_sdist.glob("*.whl"))
        tree_wheels = sorted(from_tree.glob("*.whl"))
        if len(sdists) != 1 or len(wheels) != 1 or len(tree_wheels) != 1:
            print(f"expected one sdist and two wheels, got {sdists + wheels + tree_wheels}")
            return 1
        ours, theirs = contents(wheels[0]), contents(tree_wheels[0])
        for name in sorted(set(ours) | set(theirs)):
            if name not in ours:
                problems.append(f"{name}: in the wheel built from the tree, not in the one from the sdist")
            elif name not in theirs:
                problems.append(f"{name}: in the wheel built from the sdist, not in the one from the tree")
            elif ours[name] != theirs[name]:
                problems.append(f"{name}: differs between the wheel from the sdist and from the tree")
        names = set(ours)
        for required in REQUIRED_IN_WHEEL:
            if required not in names:
                problems.append(f"the wheel lacks {required}")
        dist_info = next((n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA")), None)
        entry_points = ours.get(f"{dist_info}/entry_points.txt", b"").decode()
        for section in REQUIRED_ENTRY_POINTS:
            if section not in entry_points:
                problems.append(f"the wheel's entry points lack {section}")
        if not any(n.startswith(f"{dist_info}/licenses/") for n in names):
            problems.append("the wheel carries no licence file")
        check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sdists + wheels)],
                               capture_output=True, text=True)
        if check.returncode != 0:
            problems.append(f"twine check failed:\n{check.stdout}{check.stderr}")
        print(f"{sdists[0].name}, {wheels[0].name}: {len(ours)} files in the wheel")
    for problem in problems:
        print(f"problem: {problem}")
    if not problems:
        print("OK: the wheel from the sdist is the wheel from the tree; twine check passed")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
