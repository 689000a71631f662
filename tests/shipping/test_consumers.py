"""A library built with the hook, as its consumers use it: they never asked for tag strings.

In a fresh venv with only tagstr-toolkit, the hatchling-built ``shiplib`` and
the consumer's own tools (``conftest.CONSUMER_TOOLS``), each driven as a
consumer drives it: plain ``mypy`` (no plugin) through ``py.typed``, ``python
-m compileall``, a ``pip install --target`` bundle and a zipapp run by a
Python without our start-up hook, typeguard's ``--typeguard-packages``,
``beartype.claw``, and PyInstaller (one one-folder build, which also freezes
an application's own tag-string modules through ``--ship``).
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from shipkit import BOOM_LINE, clean_env, pip_env, run, site_packages

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

EXPECTED = "<b>shiplib 1.2.0</b> <p>         &#x27;x&#x27;</p> [2, 3] <table><td>  3</td></table>"


def test_the_console_script_and_tracebacks(consumer: Path) -> None:
    script = consumer.parent / "shiplib"
    assert run(script, "x").stdout.strip() == EXPECTED
    done = run(consumer, "-c", "import shiplib.views as v; v.boom('x')", check=False)
    assert f'shiplib/views.py", line {BOOM_LINE}, in boom' in done.stderr
    assert "return html(" in done.stderr  # the shipped line is shown...
    assert "ZeroDivisionError" in done.stderr
    # ...and no start-up hook is needed at all
    assert run(script, "x", env=clean_env(TAGSTR_AUTOLOAD="0")).stdout.strip() == EXPECTED


def test_plain_mypy_through_py_typed(consumer: Path, tmp_path: Path) -> None:
    (tmp_path / "use.py").write_text(textwrap.dedent("""\
        import shiplib
        from shiplib.views import numbers, page

        reveal_type(shiplib.BANNER)
        reveal_type(numbers(1))
        x: int = page("a")
    """), encoding="utf-8")
    done = run(consumer, "-m", "mypy", "--strict", "--cache-dir", tmp_path / "c", "use.py", cwd=tmp_path, check=False)
    assert done.stdout.splitlines() == [
        'use.py:4: note: Revealed type is "str"',
        'use.py:5: note: Revealed type is "list[int]"',
        'use.py:6: error: Incompatible types in assignment (expression has type "str", variable has type "int")'
        "  [assignment]",
        "Found 1 error in 1 file (checked 1 source file)",
    ], done.stdout + done.stderr
    # the shipped modules themselves pass --strict (mypy silences errors in site-packages: checked aside)
    shutil.copytree(site_packages(consumer) / "shiplib", tmp_path / "copy" / "shiplib")
    done = run(consumer, "-m", "mypy", "--strict", "--cache-dir", tmp_path / "c", "-p", "shiplib",
               cwd=tmp_path / "copy", check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_compileall(consumer: Path) -> None:
    run(consumer, "-m", "compileall", "-q", "-f", site_packages(consumer) / "shiplib")


def test_target_bundle_and_zipapp(consumer: Path, toolkit_wheel: Path, wheels: dict[str, Path], tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    run(consumer, "-m", "pip", "install", "-q", "--no-deps", "--target", bundle, toolkit_wheel, wheels["hatchling"],
        env=pip_env())
    run(consumer, "-m", "compileall", "-q", bundle / "shiplib")
    # -S: a Python that never ran our start-up hook (a --target folder's .pth is not read anyway)
    code = "import sys; sys.argv[1:] = ['x']; import shiplib.cli; shiplib.cli.main()"
    done = run(consumer, "-S", "-c", code, env=clean_env(PYTHONPATH=str(bundle)))
    assert done.stdout.strip() == EXPECTED
    app = tmp_path / "app.pyz"
    run(consumer, "-m", "zipapp", bundle, "-m", "shiplib.cli:main", "-o", app)
    assert run(consumer, "-S", app, "x").stdout.strip() == EXPECTED


def test_typeguard_packages(consumer: Path, tmp_path: Path) -> None:
    (tmp_path / "test_use.py").write_text(textwrap.dedent("""\
        import pytest
        from typeguard import TypeCheckError

        from shiplib.views import check, page


        def test_checked() -> None:
            assert page("a") == "<p>         &#x27;a&#x27;</p>"
            assert check(7) == "<i>007</i>"
            with pytest.raises(TypeCheckError):
                check("7")  # type: ignore[arg-type]
    """), encoding="utf-8")
    done = run(consumer, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--typeguard-packages=shiplib",
               "test_use.py", cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_beartype_claw(consumer: Path) -> None:
    code = textwrap.dedent("""\
        from beartype.claw import beartype_package
        beartype_package("shiplib")
        from beartype.roar import BeartypeCallHintParamViolation
        from shiplib.views import check, page
        print(page("a"), check(7))
        try:
            check("7")
        except BeartypeCallHintParamViolation:
            print("checked")
    """)
    assert run(consumer, "-c", code).stdout.split() == ["<p>", "&#x27;a&#x27;</p>", "<i>007</i>", "checked"]


APP = {
    "app.py": '''\
        """An application whose own modules have tag strings, using the shipped library."""
        from appviews import title
        from shiplib.cli import main

        print(title("frozen"))
        main()
    ''',
    "appviews.py": '''\
        from shiplib.tags import html


        def title(text: str) -> str:
            return html"<h1>{text!r}</h1>"
    ''',
}


def test_pyinstaller_one_folder(consumer: Path, tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name, text in APP.items():
        (source / name).write_text(textwrap.dedent(text), encoding="utf-8")
    # PyInstaller reads modules as stock Python: a tag-string one stops the build, with the fix
    done = run(consumer, "-m", "PyInstaller", "--noconfirm", "--onedir", "--workpath", tmp_path / "work0",
               "--distpath", tmp_path / "dist0", "--specpath", tmp_path, "--paths", source, source / "app.py",
               cwd=tmp_path, check=False)
    assert done.returncode != 0 and "python -m tagstr_runtime --ship" in done.stdout + done.stderr
    # the recipe: freeze the shipped tree
    run(consumer, "-m", "tagstr_runtime", "--ship", "--out", tmp_path / "shipped", source / "app.py",
        source / "appviews.py", cwd=tmp_path)
    shipped = tmp_path / "shipped"
    run(consumer, "-m", "PyInstaller", "--noconfirm", "--onedir", "--workpath", tmp_path / "work",
        "--distpath", tmp_path / "dist", "--specpath", tmp_path, "--paths", shipped, shipped / "app.py",
        cwd=tmp_path, timeout=900)
    binary = tmp_path / "dist" / "app" / ("app.exe" if sys.platform == "win32" else "app")
    assert run(binary).stdout.splitlines() == [
        "<h1>&#x27;frozen&#x27;</h1>",
        "<b>shiplib 1.2.0</b> <p>   &#x27;&lt;world&gt;&#x27;</p> [2, 3] <table><td>  3</td></table>",
    ]
