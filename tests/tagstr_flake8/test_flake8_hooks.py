"""When the flake8 hooks are installed, and the ``TAGSTR_STRICT`` switch on their fallback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tagstr_flake8.lint import tag_file as _analysis

TAGGED = 'x = 1\ny = html"<b>{x}</b>"\n'


def test_import_alone_patches_nothing() -> None:
    code = (
        "import tagstr_flake8\n"
        "from flake8.processor import FileProcessor\n"
        "assert not hasattr(FileProcessor.build_ast, '_tagstr_wrapped')\n"
        "tagstr_flake8.TagstrChecker.add_options(type('M', (), {'extend_default_ignore': lambda s, c: None})())\n"
        "assert FileProcessor.build_ast._tagstr_wrapped\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_internal_error_falls_back_unless_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flake8.api import legacy

    (tmp_path / "tagged.py").write_text(TAGGED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def broken(*args: object) -> object:
        raise RuntimeError("forced bug in the desugarer")

    monkeypatch.setattr(_analysis, "analyse", broken)  # the hook imports it when a file needs it
    guide = legacy.get_style_guide(select=["E999", "F"])  # activates the plugin in this process

    monkeypatch.delenv("TAGSTR_STRICT", raising=False)
    report = guide.check_files(["tagged.py"])
    assert report.get_statistics("E999")  # what stock flake8 reports: CPython's error

    monkeypatch.setenv("TAGSTR_STRICT", "1")
    with pytest.raises(RuntimeError, match="forced bug"):
        guide.check_files(["tagged.py"])
