#!/usr/bin/env python3
"""Check the distributions a release would upload: ``python tools/check_dist.py``.

1. ``python -m build`` builds the sdist, then the wheel *from the sdist*
   (what an installer building from the sdist gets);
2. ``python -m build --wheel`` builds a wheel straight from the tree;
3. the two wheels must hold the same files with the same bytes: a file the
   sdist forgets would make them differ;
4. both distributions must pass ``twine check`` (metadata, README rendering);
5. the wheel must carry what the package needs beyond its modules: the
   start-up hook file(s), ``py.typed``, the entry points, the licence;
6. the optional compiled ``tagstr_runtime._speedups`` (``hatch_build.py``): a
   wheel that carries it is tagged for its interpreter and platform and holds
   one binary of it; with ``TAGSTR_PURE_PYTHON=1`` the wheel built from the sdist
   is the pure ``py3-none-any`` one, without it.

Needs ``build`` and ``twine`` (the ``package`` tox env installs them).
Exits 0 when everything holds, 1 with the reasons otherwise.
"""

from __future__ import annotations

import os
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


def build(outdir: Path, *args: str, source: Path = REPO, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(outdir), *args, str(source)],
                   check=True, stdout=subprocess.DEVNULL, env=env)


def wheel_tags(dist_info: str, wheel: dict[str, bytes]) -> list[str]:
    lines = wheel.get(f"{dist_info}/WHEEL", b"").decode().splitlines()
    return [line.split(":", 1)[1].strip() for line in lines if line.startswith("Tag:")]


def check_speedups(wheel_path: Path, files: dict[str, bytes], pure: bool) -> list[str]:
    """What a wheel must hold of the compiled module: nothing in a pure wheel, one binary in the other."""
    names = set(files)
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    tags = wheel_tags(dist_info, files)
    binaries = [n for n in names if n.startswith("tagstr_runtime/_speedups.") and n.endswith((".so", ".pyd"))]
    problems = []
    if pure or tags == ["py3-none-any"]:
        if tags != ["py3-none-any"] or binaries:
            problems.append(f"{wheel_path.name}: a pure wheel must be py3-none-any without binaries: {tags}, "
                            f"{binaries}")
    elif len(binaries) != 1 or any(tag.startswith("py3-none") for tag in tags):
        problems.append(f"{wheel_path.name}: a wheel with the compiled module needs one binary and a platform "
                        f"tag: {tags}, {binaries}")
    for required in ("tagstr_runtime/_speedups.c", "tagstr_runtime/_speedups.pyi"):
        if required not in names:
            problems.append(f"{wheel_path.name} lacks {required}")
    return problems


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
        problems += check_speedups(wheels[0], ours, pure=False)
        pure_dir = Path(tmp, "pure")  # the pure wheel, from the sdist, where a compiler exists too
        env = {**os.environ, "TAGSTR_PURE_PYTHON": "1"}
        build(pure_dir, "--wheel", source=sdists[0], env=env)
        pure_wheels = sorted(pure_dir.glob("*.whl"))
        if len(pure_wheels) != 1:
            problems.append(f"TAGSTR_PURE_PYTHON=1 built {pure_wheels}")
        else:
            problems += check_speedups(pure_wheels[0], contents(pure_wheels[0]), pure=True)
        check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sdists + wheels)],
                               capture_output=True, text=True)
        if check.returncode != 0:
            problems.append(f"twine check failed:\n{check.stdout}{check.stderr}")
        print(f"{sdists[0].name}, {wheels[0].name}: {len(ours)} files in the wheel")
    for problem in problems:
        print(f"problem: {problem}")
    if not problems:
        print("OK: the wheel from the sdist is the wheel from the tree; the pure wheel is pure; twine check passed")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
