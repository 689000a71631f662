"""``python -m tagstr_runtime.migrate`` as a command: diffs that apply, any terminal, names, walks, status.

The diff of a CRLF file and of a latin-1 file is applied with the real
``patch`` and ``git apply`` and must give what the in-place run writes; a
standard output that cannot encode a reason still gets it (escaped) and the
status stays the status; modules in folders without ``__init__.py`` are named
from the folder given; a folder walk leaves virtual environments and build
output alone; a module refused whole (a tag named ``t``) fails ``--check``.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tagstr_runtime.migrate import main

TAG = (
    "from tagstr_runtime import accepts_template\n"
    "@accepts_template\n"
    "def tag(*args):\n"
    "    return ''.join(a if isinstance(a, str) else str(a.getvalue()) for a in args)\n"
)


def _tree(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


ODD_FILES = {
    "crlf.py": (TAG + 'x = tag"caf\\u00e9 {1}"\ny = 2\n').replace("\n", "\r\n").encode(),
    "latin.py": ("# coding: latin-1\n" + TAG + "x = tag'é{1}'  # né\n").encode("latin-1"),
    "noeol.py": (TAG + 'x = tag"{1}"').encode(),
}


@pytest.mark.subprocess
@pytest.mark.parametrize("tool", ["patch", "git"])
def test_the_diff_applies_to_crlf_latin_1_and_unterminated_files(tool: str, tmp_path: Path) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    diffed, written = tmp_path / "diffed", tmp_path / "written"
    _tree(diffed, ODD_FILES)
    _tree(written, ODD_FILES)
    assert main([str(written)]) == 0
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    saved = sys.stdout
    sys.stdout = out
    try:
        assert main(["--diff", str(diffed)]) == 1
    finally:
        sys.stdout = saved
    out.flush()
    patch = out.buffer.getvalue().replace(str(diffed).encode() + b"/", b"")  # type: ignore[attr-defined]
    assert patch.count(b"--- a/") == len(ODD_FILES)
    if tool == "patch":
        command = ["patch", "-p1", "--binary", "--no-backup-if-mismatch"]
    else:
        command = ["git", "apply", "-p1", "--whitespace=nowarn", "--unsafe-paths", "-"]
    done = subprocess.run(command, input=patch, cwd=diffed, capture_output=True)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ODD_FILES:
        assert (diffed / name).read_bytes() == (written / name).read_bytes(), name
    assert b"\r\n" in (written / "crlf.py").read_bytes() and b"tag(t'\xe9{1}')" in (written / "latin.py").read_bytes()


def test_a_terminal_that_cannot_encode_a_reason_gets_it_escaped(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def tagé(*args):\n    return args\nx = tagé'{1}'\n", encoding="utf-8")
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii")  # errors="strict", as a C locale's stdout
    saved = sys.stdout
    sys.stdout = ascii_out
    try:
        status = main(["--check", str(tmp_path)])
    finally:
        sys.stdout = saved
    ascii_out.flush()
    said = raw.getvalue().decode("ascii")
    assert status == 1  # a kept tag string: not a crash's exit status
    assert "MIG009 tag 'tag\\xe9'" in said and said.endswith("(MIG001 x1, MIG009 x1)\n")


@pytest.mark.subprocess
def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """``migrate --check src | head -1``: no traceback when the pipe closes, nothing written,
    and the status of a file that could not be migrated."""
    source = "def tag(*args):\n    return args\n" + "x = tag'{1}'\n" * 5000
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    run = subprocess.Popen([sys.executable, "-m", "tagstr_runtime.migrate", str(tmp_path)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert run.stdout is not None and run.stderr is not None
    assert b": MIG0" in run.stdout.readline()
    run.stdout.close()  # as head does after its line
    status = run.wait(timeout=120)
    assert run.stderr.read() == b""
    assert status == 2
    assert (tmp_path / "m.py").read_text(encoding="utf-8") == source


def test_modules_in_folders_without_init_are_named_from_the_folder_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _tree(tmp_path, {
        "shop/tags.py": b"def plain(*args):\n    return [a if isinstance(a, str) else a.getvalue() for a in args]\n",
        "shop/views.py": b"from shop.tags import plain\nx = plain'{1}'\n",
        "src/pkg/__init__.py": b"",
        "src/pkg/mod.py": b"def other(*args):\n    return args\ny = other'{2}'\n",
    })
    assert main(["--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "--template-tag" not in out  # an undecorated function: the remedy is to decorate it
    assert "(shop.tags, line 1)" in out  # the module, as `python -m shop.views` run from there imports it
    assert "--eager-tag pkg.mod.other" in out  # a package keeps its own name (src/ is a path entry)
    # both spellings name the tag: from the folder given, and from the module's own folder
    for name in ("shop.tags.plain", "tags.plain"):
        main(["--check", "--template-tag", name, str(tmp_path)])
        out = capsys.readouterr().out
        assert "views.py" not in out and "no tag string in these files calls" not in out, out


def test_a_folder_walk_leaves_environments_and_build_output_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = b"x = tag'{1}'\ny = tag'{}'\n"  # a malformed tag string: an error if it were read
    _tree(tmp_path, {
        "app.py": TAG.encode() + b"x = tag'{1}'\n",
        ".venv/lib/site.py": bad, ".tox/py311/m.py": bad, "build/lib/m.py": bad, "dist/m.py": bad,
        "node_modules/x/m.py": bad, ".git/hooks/m.py": bad, "env/pyvenv.cfg": b"home = /usr\n",
        "env/lib/m.py": bad,
    })
    assert main(["--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "error" not in out and out.endswith("would migrate 1 tag string in 1 file; kept none\n")
    # a folder named on the command line is read, whatever its name
    assert main(["--check", str(tmp_path / "build")]) == 2


def test_check_fails_on_a_module_refused_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "m.py").write_text(
        "from tagstr_runtime import template_tag\nt = template_tag(repr)\nx = t'{1}'\n", encoding="utf-8"
    )
    assert main(["--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "MIG012" in out and "kept none" not in out and "kept 1 tag string in 1 file (MIG012 x" in out
    assert main([str(tmp_path)]) == 0  # in place: nothing it could do, nothing it did wrong


def test_the_help_says_that_eager_tag_is_the_user_vouching(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "--eager-tag MODULE.NAME you vouch that the tag reads each value exactly once, in order" in said


def test_a_module_read_for_an_import_is_not_kept_while_it_is_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``a.py`` imports its tag from ``b.py``: the tag resolver reads ``b.py`` for the import;
    when ``b.py``'s own turn comes, that reading is dropped (a large module's tree is not kept
    twice), and what both files are told is the same."""
    import gc
    import weakref

    import tagstr_runtime.migrate as command
    from tagstr_runtime.analysis.imports import ModuleFinder

    _tree(tmp_path, {"a.py": b"from b import tag\nx = 1\ny = tag'{x}'\n", "b.py": (TAG + "z = tag'{2}'\n").encode()})
    assert main(["--check", str(tmp_path)]) == 1
    expected = capsys.readouterr().out
    read_for_imports: list[weakref.ref[object]] = []
    finder_read = ModuleFinder.read

    def read(self: ModuleFinder, path: Path) -> object:
        found = finder_read(self, path)
        read_for_imports.append(weakref.ref(found))
        return found

    alive: list[int] = []
    migrate_bytes = command._migrate_bytes

    def migrate(source: bytes, filename: str, *args: object) -> object:
        if filename.endswith("b.py"):
            gc.collect()
            alive.append(sum(ref() is not None for ref in read_for_imports))
        return migrate_bytes(source, filename, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ModuleFinder, "read", read)
    monkeypatch.setattr(command, "_migrate_bytes", migrate)
    assert main(["--check", str(tmp_path)]) == 1
    assert capsys.readouterr().out == expected
    assert "would migrate 2 tag strings in 2 files" in expected
    assert len(read_for_imports) == 1 and alive == [0]
