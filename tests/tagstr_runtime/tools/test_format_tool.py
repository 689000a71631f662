"""``python -m tagstr_runtime --format``: black and ruff format on files with tag strings.

The reference is never written down: it is the plain tool's output on the
file's f-string twin (``tools_harness.twin``), which must equal the twin of
the wrapper's output.  So the wrapper formats everything around a tag string
exactly as the tool formats it around an f-string of the same width, and
leaves the tag string as written.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fstring_tags import converted, package_files
from tagstr_runtime.frontend import parse
from tools_harness import (
    EXAMPLES,
    RUFF,
    SRC,
    TOOLS,
    config,
    needs_black,
    needs_ruff,
    plain_format,
    refused_sources,
    run,
    runtime_error,
    twin,
    wrapper,
    write,
)

pytestmark = pytest.mark.subprocess

HEADER = "from tg import h, render, some_call, some_function_name\n"
# Formatter test-style inputs, each needing formatting; one-letter tags, so that
# the twin is the same text with `f` for `h`.
CASES = {
    "call-arguments": 'result = some_function_name(h"<p>{user.name}</p> and a long text", argument_2, arg_3)\n',
    "nested-brackets": 'data = {"key": [h"{alpha}", (h"{beta}", other_value)], "k2": some_call(h"{gamma}", x)}\n',
    "too-long-alone": (
        'def f():\n    return h"a tag string that cannot fit on a line whatever the formatter does {x}"\n'
    ),
    "binary-operators": 'message = h"<b>{first_name}</b>" + separator_value + h"<i>{last_name}</i>" + trailing\n',
    "method-chain": 'cleaned = h"  {raw_text_value}  ".strip().lower().replace("a", "b").split(",")[0].upper()\n',
    "keywords": "render(template=h\"<div class='x'>{content}</div>\", context=context_value, strict=True, x=1)\n",
    "multi-line": 'page = render(h"""<div>\n  {body}\n</div>""", context, extra_argument_that_is_long_enough)\n',
    "spacing": 'x=h"{a}"+h"{b}"\ny = [h"{c}",h"{d}" ,]\nz = {  h"{e}" :h"{f}"  }\n',
    "statements": '@some_call(h"{x}")\ndef   f( a ):\n    # comment\n    return  h"{a}"   # trailing\n',
    "magic-trailing-comma": 'items = [\n    h"{a}",\n]\nother = (h"{b}",)\n',
    "lambda-default": 'callback = lambda value=h"{default}": render(value, h"{value}", another_long_argument)\n',
    "format-spec-and-nesting": 'row = render(h"{price:>{width}.2f} {h\'{name!r}\'}", some_argument, other_arg)\n',
    "subscript-and-await": 'async def f():\n    return (await h"{x}")[0], h"{y}"[ 1 : 2 ]\n',
    # an f-string is no docstring: the tag string stays as written, the code around is formatted
    "docstring-position": 'def f( x ):\n    h"""doc {x}\n    more"""\n',
    # the twin's f-strings make black target 3.6+, which keeps the magic trailing comma after *args
    "keyword-only-parameters": (
        "def render(*, template_name_argument, context_value_argument, request_argument, extra_argument_long):\n"
        '    return h"{template_name_argument}"\n'
    ),
    "star-arguments-call": (
        'result = some_function_name(*arguments_list_value, **keyword_arguments_dict, last=h"{x}", other=2)\n'
    ),
}


def _format(tool: str, folder: Path, name: str, text: str) -> tuple[str, str]:
    """(the wrapper's result on ``text``, the plain tool's result on its twin)."""
    config(folder)
    source = write(folder / name, text)
    twin_file = write(folder / "twin" / name, twin(text))
    config(folder / "twin")
    proc = wrapper("--format", "--tool", tool, "--quiet", str(source), cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return source.read_text(encoding="utf-8"), plain_format(tool, twin_file)


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_formats_like_the_fstring_twin(tmp_path: Path, tool: str, case: str) -> None:
    text = HEADER + CASES[case]
    formatted, expected = _format(tool, tmp_path, "case.py", text)
    assert formatted != text, "the case needs no formatting: it tests nothing"
    assert twin(formatted) == expected
    tags = [text[t.span.start : t.span.end] for t in parse(text).tag_strings]
    assert [formatted[t.span.start : t.span.end] for t in parse(formatted).tag_strings] == tags


@pytest.mark.parametrize("tool", TOOLS)
def test_idempotent(tmp_path: Path, tool: str) -> None:
    config(tmp_path)
    for case, body in CASES.items():
        write(tmp_path / f"{case}.py", HEADER + body)
    first = wrapper("--format", "--tool", tool, ".", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"{len(CASES)} files reformatted." in first.stderr
    texts = {p: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.py")}
    again = wrapper("--format", "--tool", tool, "--check", ".", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"{len(CASES)} files would be left unchanged." in again.stderr
    assert {p: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.py")} == texts


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_examples(tmp_path: Path, tool: str, example: str) -> None:
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    try:
        compile(twin(text), example, "exec")
    except SyntaxError:  # pragma: no cover - every example has a twin today
        pytest.skip("the f-string twin is not valid Python here")
    formatted, expected = _format(tool, tmp_path, example, text)
    assert twin(formatted) == expected
    again = wrapper("--format", "--tool", tool, "--check", example, cwd=tmp_path)
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("tool", TOOLS)
def test_check_reports_a_wrongly_formatted_file(tmp_path: Path, tool: str) -> None:
    config(tmp_path)
    bad = write(tmp_path / "bad.py", HEADER + CASES["spacing"])
    good = write(tmp_path / "good.py", 'from tg import h\n\nx = h"{a}"\n')
    proc = wrapper("--format", "--tool", tool, "--check", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "would reformat ./bad.py" in proc.stderr.splitlines()
    assert "1 file would be reformatted, 1 file would be left unchanged." in proc.stderr
    assert bad.read_text(encoding="utf-8") == HEADER + CASES["spacing"]
    assert proc.stdout == ""
    diff = wrapper("--format", "--tool", tool, "--diff", "bad.py", "good.py", cwd=tmp_path)
    assert diff.returncode == 0, diff.stderr
    assert diff.stdout.startswith("--- bad.py\t(original)\n+++ bad.py\t(formatted)\n")
    assert '\n-x=h"{a}"+h"{b}"\n' in diff.stdout and '\n+x = h"{a}" + h"{b}"\n' in diff.stdout
    both = wrapper("--format", "--tool", tool, "--check", "--diff", "bad.py", cwd=tmp_path)
    assert both.returncode == 1 and both.stdout == diff.stdout
    assert good.read_text(encoding="utf-8") == 'from tg import h\n\nx = h"{a}"\n'


@pytest.mark.parametrize("tool", TOOLS)
def test_file_without_tag_strings_gets_the_tool_result(tmp_path: Path, tool: str) -> None:
    text = "x  =  'caf\xe9'\r\ndef f( a ):\r\n  return f'{a}'\r\n".encode()
    config(tmp_path)
    ours = tmp_path / "ours.py"
    ours.write_bytes(text)
    theirs = tmp_path / "theirs.py"
    theirs.write_bytes(text)
    proc = wrapper("--format", "--tool", tool, "ours.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    plain = run("python", "-m", "black", "-q", "theirs.py", cwd=tmp_path) if tool == "black" else (
        run(str(RUFF), "format", "theirs.py", cwd=tmp_path)
    )
    assert plain.returncode == 0, plain.stderr
    assert ours.read_bytes() == theirs.read_bytes() != text


@pytest.mark.parametrize("tool", TOOLS)
def test_keeps_newlines_and_encoding(tmp_path: Path, tool: str) -> None:
    text = "# coding: latin-1\r\nx=h'caf\xe9 {a}'\r\n"
    config(tmp_path)
    path = tmp_path / "crlf.py"
    path.write_bytes(text.encode("latin-1"))
    proc = wrapper("--format", "--tool", tool, "crlf.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # ruff reads only UTF-8, but the tag string's text is not what it reads
    assert path.read_bytes() == "# coding: latin-1\r\nx = h'caf\xe9 {a}'\r\n".encode("latin-1")


@pytest.mark.parametrize("tool", TOOLS)
def test_stdin(tmp_path: Path, tool: str) -> None:
    config(tmp_path, line_length=20)
    proc = wrapper(
        "--format", "--tool", tool, "--stdin-filename", "x.py", "-", cwd=tmp_path,
        stdin='y = call(h"{a}", h"{b} {c}")\n',
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == 'y = call(\n    h"{a}",\n    h"{b} {c}",\n)\n'  # line length 20 from the config


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param('x = h"{a"\n', "line 1, column 9: tag string: expecting '}'", id="malformed"),
        pytest.param('x = h"{a}" +\n', "cannot format", id="invalid-python"),
        pytest.param(
            'def f():\n    return h"{x\n\n}"\n', "line 3: a field of this single-quoted tag string has a line",
            id="blank-line-in-field",
        ),
    ],
)
def test_refuses_what_it_cannot_format_safely(tmp_path: Path, tool: str, text: str, message: str) -> None:
    config(tmp_path)
    path = write(tmp_path / "x.py", text)
    other = write(tmp_path / "y.py", "y  =  1\n")
    proc = wrapper("--format", "--tool", tool, "x.py", "y.py", cwd=tmp_path)
    assert proc.returncode == 123, proc.stderr
    assert "error: cannot format x.py: " in proc.stderr and message in proc.stderr, proc.stderr
    assert "1 file reformatted, 1 file failed to reformat." in proc.stderr
    assert path.read_text(encoding="utf-8") == text
    assert other.read_text(encoding="utf-8") == "y = 1\n"


@needs_ruff
def test_quotes_of_a_tag_string_are_kept_whatever_the_quote_style(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.ruff.format]\nquote-style = "single"\n')
    path = write(tmp_path / "q.py", 'x = call( h"{a}" , "b" , h"""\n{d}""")\n')
    proc = wrapper("--format", "--tool", "ruff", "q.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert path.read_text(encoding="utf-8") == "x = call(\n    h\"{a}\",\n    'b',\n    h\"\"\"\n{d}\"\"\",\n)\n"


@needs_ruff
def test_the_tools_exclusions_apply(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.ruff]\nextend-exclude = ["skipped_*.py"]\n')
    text = 'x  =  h"{a}"\n'
    path = write(tmp_path / "skipped_1.py", text)
    proc = wrapper("--format", "--tool", "ruff", "--check", "skipped_1.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert path.read_text(encoding="utf-8") == text


@needs_black
def test_black_force_exclude_applies(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.black]\nforce-exclude = "skipped_.*"\n')
    text = 'x  =  h"{a}"\n'
    write(tmp_path / "skipped_1.py", text)
    proc = wrapper("--format", "--check", "skipped_1.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("tool", ["black", "ruff"])
def test_a_missing_tool_is_named(tmp_path: Path, tool: str) -> None:
    shutil.copy(EXAMPLES / "greet.py", tmp_path)
    # -S: no site-packages, so neither tool is importable; no PATH: no ruff program.
    # The package alone on the path: where it is installed (a wheel in tox), its
    # folder is site-packages, which has the tools
    alone = tmp_path / "path"
    alone.mkdir()
    (alone / "tagstr_runtime").symlink_to(SRC / "tagstr_runtime", target_is_directory=True)
    proc = subprocess.run(
        [sys.executable, "-S", "-m", "tagstr_runtime", "--format", "--tool", tool, "greet.py"],
        cwd=tmp_path, env={"PYTHONPATH": str(alone), "PATH": ""}, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 123
    assert proc.stderr == f"error: {tool} is not installed where tagstr_runtime runs: pip install {tool}\n"


@pytest.mark.parametrize("tool", TOOLS)
def test_many_files_with_and_without_tag_strings(tmp_path: Path, tool: str) -> None:
    """ruff formats the files without tag strings in one run: each still gets its own report."""
    config(tmp_path)
    texts = {
        "a.py": "a  =  1\n", "b.py": "b = 2\n", "c.py": "c = (\n", "d.py": 'd  =  h"{x}"\n', "e.py": "e = 3\n",
    }
    for name, text in texts.items():
        write(tmp_path / name, text)
    check = wrapper("--format", "--tool", tool, "--check", "b.py", "e.py", cwd=tmp_path)
    assert check.returncode == 0 and check.stderr == "2 files would be left unchanged.\n", check.stderr
    proc = wrapper("--format", "--tool", tool, *texts, cwd=tmp_path)
    assert proc.returncode == 123
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("error: cannot format c.py: ")
    assert lines[1:] == [
        "reformatted a.py", "reformatted d.py",
        "2 files reformatted, 2 files left unchanged, 1 file failed to reformat.",
    ]
    assert {name: (tmp_path / name).read_text(encoding="utf-8") for name in texts} == {
        **texts, "a.py": "a = 1\n", "d.py": 'd = h"{x}"\n',
    }


@needs_black
def test_a_bad_black_configuration_is_an_error_per_file(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.black]\nline-length = "x"\n')
    path = write(tmp_path / "a.py", 'x  =  h"{a}"\n')
    proc = wrapper("--format", "a.py", cwd=tmp_path)
    assert proc.returncode == 123
    assert proc.stderr.splitlines() == [
        "error: cannot format a.py: Invalid value for '-l' / '--line-length': 'x' is not a valid integer.",
        "1 file failed to reformat.",
    ]
    assert path.read_text(encoding="utf-8") == 'x  =  h"{a}"\n'


@pytest.mark.parametrize("tool", TOOLS)
def test_configuration_of_a_parent_folder_from_a_sub_folder(tmp_path: Path, tool: str) -> None:
    """Run from a sub-folder on a relative path, the tool's configuration is found as the
    plain tool finds it there for the file: the parent folder's line length."""
    config(tmp_path, line_length=40)
    text = 'from tg import h\n\nx = h"{a}"\nfoo(aaaaaaaaaaaaaa, bbbbbbbbbbbbbb, cccccccccc)\n'
    path = write(tmp_path / "sub" / "m.py", text)
    twin_file = write(tmp_path / "twin" / "sub" / "m.py", twin(text))
    shutil.copy(tmp_path / "pyproject.toml", tmp_path / "twin")
    check = wrapper("--format", "--tool", tool, "--check", "m.py", cwd=path.parent)
    assert check.returncode == 1 and "would reformat m.py" in check.stderr, check.stderr
    proc = wrapper("--format", "--tool", tool, "-q", "m.py", cwd=path.parent)
    assert proc.returncode == 0, proc.stderr
    plain = ["python", "-m", "black", "-q", "m.py"] if tool == "black" else [str(RUFF), "format", "m.py"]
    assert run(*plain, cwd=twin_file.parent).returncode == 0
    assert twin(path.read_text(encoding="utf-8")) == twin_file.read_text(encoding="utf-8") != twin(text)


@pytest.mark.parametrize("tool", TOOLS)
def test_what_the_runtime_refuses_is_not_formatted(tmp_path: Path, tool: str) -> None:
    """Every source the runtime refuses exits 123 with the runtime's message and position,
    ``--check`` included (a malformed field is no tag string a formatter may keep)."""
    config(tmp_path)
    expected = []
    names = []
    for index, source in enumerate(refused_sources()):
        name = f"err_{index}.py"
        write(tmp_path / name, source)
        names.append(name)
        exc = runtime_error(source, name)
        expected.append(f"error: cannot format {name}: line {exc.lineno}, column {exc.offset}: {exc.msg}")
    proc = wrapper("--format", "--tool", tool, "--check", *names, cwd=tmp_path)
    assert proc.returncode == 123, proc.stderr
    assert proc.stderr.splitlines() == [*expected, f"{len(names)} files would fail to reformat."]


@needs_black
@pytest.mark.parametrize("relative", ["rich/repr.py", "click/formatting.py"])
def test_real_code_like_the_originals(tmp_path: Path, relative: str) -> None:
    """The f-strings of a real module turned into ``h`` tag strings (the original is the
    twin): black at line length 60 formats it as it formats the original.  (In rich's
    ``repr.py`` f-strings are the only feature of 3.6+: black inferred older targets
    from plain-string stand-ins and dropped a magic trailing comma.)"""
    package, _, name = relative.partition("/")
    pytest.importorskip(package, reason=f"{package} is not installed (dependency group 'tests')")
    original = next(p for p in package_files(package) if p.name == name and p.parent.name == package)
    text = original.read_text(encoding="utf-8")
    tagged, count = converted(text)
    assert count > 3 and twin(tagged) == text
    config(tmp_path, line_length=60)
    source = write(tmp_path / name, tagged)
    proc = wrapper("--format", "--tool", "black", "--quiet", name, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    formatted = source.read_text(encoding="utf-8")
    assert formatted != tagged
    expected = run("python", "-m", "black", "--quiet", "--line-length", "60", "-", cwd=tmp_path, stdin=text)
    assert twin(formatted) == expected.stdout
