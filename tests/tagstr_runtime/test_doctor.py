"""``python -m tagstr_runtime doctor`` in real environments, one problem each.

Every environment is made for real: a fresh venv without the project
(``venv --without-pip``, the packages on ``PYTHONPATH`` or behind an editable
install's ``.pth``), interpreter flags (``-S``, ``-s``), environment variables,
a read-only folder (under ``unshare --user`` when the tests run as root, who
writes anywhere otherwise), tool configurations in a throw-away repository,
and a tool's version faked by a stub distribution's metadata first on
``sys.path``.  ``HOME`` is a temporary folder, so the user's own mypy or
IPython configuration never counts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import tagstr_runtime
from tagstr_runtime.doctor import checkers as _checkers
from tagstr_runtime.doctor import interpreter as _environment
from tagstr_runtime.doctor import integrations as _integrations
from clean_python import clean_env, run_python

REPO = Path(__file__).resolve().parents[2]
SRC = Path(tagstr_runtime.__file__).resolve().parents[1]
PACKAGES = ("tagstr_runtime", "tagstr_mypy", "tagstr_flake8")
#: what a test environment must not inherit: it would change the findings
INHERITED = ("PYTHON", "TAGSTR_", "COVERAGE_", "PYTEST_", "MYPY_", "IPYTHONDIR", "XDG_CONFIG_HOME", "VIRTUAL_ENV")


class Report(NamedTuple):
    returncode: int
    document: dict[str, Any]

    def finding(self, check: str) -> dict[str, Any]:
        found = [f for f in self.document["findings"] if f["check"] == check]
        assert len(found) == 1, (check, self.document["findings"])
        return found[0]

    def checks(self) -> set[str]:
        return {f["check"] for f in self.document["findings"]}


class Place(NamedTuple):
    """A repository to run the doctor in, and the home folder it runs with."""

    project: Path
    home: Path

    def write(self, name: str, text: str) -> Path:
        path = self.project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path


@pytest.fixture
def place(tmp_path: Path) -> Place:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)  # where mypy stops looking for a configuration
    home.mkdir()
    return Place(project, home)


def run_doctor(
    place: Place, *args: str, python: str = sys.executable, flags: tuple[str, ...] = (),
    prefix: tuple[str, ...] = (), cwd: Path | None = None, text: bool = False, **env_vars: str,
) -> subprocess.CompletedProcess[str]:
    env = clean_env(*INHERITED, HOME=str(place.home), **env_vars)
    command = [*prefix, python, *flags, "-m", "tagstr_runtime", "doctor", *([] if text else ["--json"]), *args]
    return subprocess.run(command, cwd=cwd or place.project, env=env, capture_output=True, text=True, timeout=60)


def doctor(place: Place, *args: str, **options: Any) -> Report:
    done = run_doctor(place, *args, **options)
    assert done.stderr == "", done.stderr
    return Report(done.returncode, json.loads(done.stdout))


@pytest.fixture
def bare_python(tmp_path: Path) -> Path:
    """A fresh virtual environment with nothing installed (not even pip)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    return venv / "bin" / "python"


def site_packages(python: Path) -> Path:
    out = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def copy_packages(folder: Path, *, pth: bool) -> Path:
    """The project's packages in ``folder``, as a --target install or a source tree lays them out."""
    for package in PACKAGES:
        shutil.copytree(SRC / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    if pth:
        (folder / "tagstr_autoload.pth").write_text("import tagstr_runtime._autohook\n", encoding="utf-8")
    return folder


def stub_distribution(folder: Path, name: str, version: str, **files: str) -> Path:
    """The metadata of an installed distribution, without its code."""
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    for file, text in files.items():
        (info / file.replace("_json", ".json")).write_text(text, encoding="utf-8")
    return folder


def installed(*names: str) -> bool:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return all(version(name) for name in names)
    except PackageNotFoundError:
        return False


# -- a healthy environment ----------------------------------------------------------


HEALTHY_SETUP_CFG = """\
    [mypy]
    plugins = tagstr_mypy

    [flake8]
    max-line-length = 120
    extend-ignore = E203
"""


@pytest.mark.skipif(not installed("mypy", "flake8", "pytest"),
                    reason="the healthy environment has mypy, flake8 and pytest")
@pytest.mark.subprocess
def test_healthy_environment(place: Place) -> None:
    place.write("setup.cfg", HEALTHY_SETUP_CFG)
    with_coverage = installed("coverage")
    if with_coverage:
        place.write(".coveragerc", "[run]\nplugins = tagstr_runtime.coverage_plugin\n")
    report = doctor(place)
    assert report.returncode == 0
    assert (report.document["errors"], report.document["warnings"]) == (0, 0), report.document["findings"]
    for check in ("python", "startup-hook", "loaders", "main-script", "debuggers", "bytecode-cache", "mypy",
                  "mypy-plugin", "flake8",
                  "flake8-plugin", "pytest", *(["coverage"] if with_coverage else [])):
        assert report.finding(check)["status"] == "ok", report.finding(check)
    assert "./setup.cfg" in report.finding("mypy-plugin")["message"]
    text = run_doctor(place, text=True)
    assert (text.returncode, text.stderr) == (0, "")
    assert text.stdout.startswith(f"tagstr-toolkit {tagstr_runtime.__version__} (")
    assert text.stdout.endswith("\nNo problem found.\n")
    assert "\nok       startup-hook    active: modules with tag strings import" in text.stdout


# -- the start-up hook ---------------------------------------------------------------


@pytest.mark.subprocess
def test_hook_off_by_the_environment_variable(place: Place) -> None:
    report = doctor(place, TAGSTR_AUTOLOAD="0")
    hook = report.finding("startup-hook")
    assert hook["status"] == "warning"
    assert hook["message"].startswith("off: TAGSTR_AUTOLOAD=0")
    assert "unset TAGSTR_AUTOLOAD" in hook["fix"]
    main_script = report.finding("main-script")  # said once: a note beside the hook's warning
    assert main_script["status"] == "note" and main_script["message"].startswith("off with the start-up hook")


@pytest.mark.subprocess
def test_main_script_path_tried_for_real(place: Place) -> None:
    """``python script.py`` on a tag-string script, in a fresh interpreter of the environment (issue 29)."""
    found = doctor(place).finding("main-script")
    assert (found["status"], found["message"]) == ("ok", "on: `python script.py` runs a script with tag strings")


@pytest.mark.subprocess
def test_under_python_dash_I_script_runs_are_off(place: Place) -> None:
    """Issue 36: ``python -I`` leaves script runs stock (the import hook stays): the doctor,
    run with -I, tries them with -I and says so."""
    report = doctor(place, flags=("-I",))
    assert report.finding("startup-hook")["status"] == "ok"
    main = report.finding("main-script")
    assert main["status"] == "warning" and main["message"].startswith("off under -I: "), main
    assert main["fix"] == "run scripts with python -I -m tagstr_runtime script.py"
    debuggers = report.finding("debuggers")
    assert debuggers["status"] == "warning" and debuggers["message"].startswith("off under -I: "), debuggers


@pytest.mark.subprocess
def test_debuggers_tried_as_vs_codes_launcher_starts_them(place: Place) -> None:
    found = doctor(place).finding("debuggers")
    assert found["status"] == "ok" and found["message"].startswith("debugpy (VS Code's Run and Debug)"), found
    off = doctor(place, TAGSTR_AUTOLOAD="0").finding("debuggers")
    assert off["status"] == "note" and off["message"].startswith("off with the start-up hook"), off
    assert '"module": "tagstr_runtime"' in off["fix"]


@pytest.mark.subprocess
def test_loader_types_changed_by_a_start_up_hook_are_an_error(place: Place, tmp_path: Path) -> None:
    """Issue 36: a start-up hook giving plain modules a loader of its own type breaks pip
    (distlib's finder registry); the doctor imports a plain package and pip's distlib for real."""
    assert doctor(place).finding("loaders")["status"] == "ok"
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "sitecustomize.py").write_text(textwrap.dedent('''
        import importlib.machinery as m, sys
        class OtherLoader(m.SourceFileLoader):
            pass
        class OtherFinder(m.FileFinder):
            pass
        details = [(m.ExtensionFileLoader, m.EXTENSION_SUFFIXES), (OtherLoader, m.SOURCE_SUFFIXES),
                   (m.SourcelessFileLoader, m.BYTECODE_SUFFIXES)]
        sys.path_hooks.insert(0, OtherFinder.path_hook(*details))  # as tagstr-toolkit 0.1.0 did
        sys.path_importer_cache.clear()
    '''), encoding="utf-8")
    found = doctor(place, PYTHONPATH=f"{SRC}{os.pathsep}{custom}").finding("loaders")
    assert found["status"] == "error", found
    assert found["message"].startswith(
        "pip._vendor.distlib.resources.finder('pip._vendor.distlib') fails: "
        "DistlibException: Unable to locate finder for 'pip._vendor.distlib' (and "
    ), found
    assert found["message"].endswith("code that looks loaders up by type fails (pip install, distlib)")
    assert found["fix"].startswith("find the start-up hook (sitecustomize)")


@pytest.mark.subprocess
def test_hook_off_under_python_dash_S(place: Place) -> None:
    hook = doctor(place, flags=("-S",)).finding("startup-hook")
    assert hook["status"] == "warning"
    assert "python -S does not run site" in hook["message"]
    assert hook["fix"].startswith("run python without -S")


@pytest.mark.parametrize("layout", ["source-tree", "target"])
@pytest.mark.subprocess
def test_hook_off_when_the_pth_is_not_in_a_site_directory(
    place: Place, bare_python: Path, tmp_path: Path, layout: str
) -> None:
    folder = copy_packages(tmp_path / "pkgs", pth=True)
    if layout == "target":  # what pip install --target leaves beside the packages
        stub_distribution(folder, "tagstr-toolkit", tagstr_runtime.__version__)
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(folder))
    hook = report.finding("startup-hook")
    assert hook["status"] == "warning"
    kind = "a --target install" if layout == "target" else "a source tree"
    assert f"tagstr_runtime comes from {folder} ({kind} on PYTHONPATH)" in hook["message"]
    assert f"site.addsitedir({str(folder)!r})" in hook["fix"]
    assert report.returncode == 0  # a warning: imports fail, but nothing configured is broken


@pytest.mark.subprocess
def test_hook_off_after_an_editable_install_without_the_pth(
    place: Place, bare_python: Path, tmp_path: Path
) -> None:
    source = copy_packages(tmp_path / "checkout" / "src", pth=True)
    site = site_packages(bare_python)
    (site / "_editable_tagstr_toolkit.pth").write_text(f"{source}\n", encoding="utf-8")
    direct_url = json.dumps({"url": f"file://{source.parent}", "dir_info": {"editable": True}})
    stub_distribution(site, "tagstr-toolkit", tagstr_runtime.__version__, direct_url_json=direct_url)
    hook = doctor(place, python=str(bare_python), PYTHONPATH="").finding("startup-hook")
    assert hook["status"] == "warning"
    assert "an editable install left tagstr_autoload.pth out of site-packages" in hook["message"]
    assert hook["fix"] == (f"copy {source / 'tagstr_autoload.pth'} into {site}, "
                           f"or reinstall: pip install -e {source.parent}")


@pytest.mark.subprocess
def test_hook_off_when_the_pth_is_in_a_user_site_left_out(
    place: Place, bare_python: Path, tmp_path: Path
) -> None:
    user_base = tmp_path / "userbase"
    env = {"PYTHONUSERBASE": str(user_base), "PYTHONPATH": str(copy_packages(tmp_path / "pkgs", pth=False))}
    user_site = subprocess.run([str(bare_python), "-c", "import site; print(site.getusersitepackages())"],
                               env={**os.environ, **env}, capture_output=True, text=True, check=True).stdout.strip()
    Path(user_site).mkdir(parents=True)
    (Path(user_site) / "tagstr_autoload.pth").write_text("import tagstr_runtime._autohook\n", encoding="utf-8")
    hook = doctor(place, python=str(bare_python), flags=("-s",), **env).finding("startup-hook")
    assert hook["status"] == "warning"
    assert f"tagstr_autoload.pth is in the user site-packages {user_site}, which -s or PYTHONNOUSERSITE" in (
        hook["message"]
    )


# -- the bytecode cache --------------------------------------------------------------


def _as_an_ordinary_user() -> tuple[str, ...]:
    """A command prefix under which permission bits bind (root ignores them)."""
    if os.geteuid() != 0:
        return ()
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "--user", "true"], capture_output=True).returncode:
        pytest.skip("running as root, and no unshare --user to drop the privilege")
    return (unshare, "--user")


@pytest.fixture
def read_only(place: Place) -> Iterator[Path]:
    code = place.project / "app"
    code.mkdir()
    (code / "views.py").write_text('page = html"<p>{user}</p>"\n', encoding="utf-8")
    code.chmod(0o555)
    try:
        yield code
    finally:
        code.chmod(0o755)


@pytest.mark.subprocess
def test_read_only_cache_location(place: Place, read_only: Path) -> None:
    report = doctor(place, "app", prefix=_as_an_ordinary_user())
    cache = report.finding("bytecode-cache")
    assert cache["status"] == "warning"
    assert cache["message"].startswith(f"cannot write {read_only / '__pycache__'}: Permission denied")
    assert cache["fix"].startswith("pre-build it: python -m tagstr_runtime --compile app")
    assert not (read_only / "__pycache__").exists()
    assert report.returncode == 0  # a warning: imports still work, only slower


@pytest.mark.subprocess
def test_writable_cache_location_is_left_as_it_was(place: Place) -> None:
    code = place.project / "app"
    (code / "__pycache__").mkdir(parents=True)
    cache = doctor(place, "app").finding("bytecode-cache")
    assert cache == {"check": "bytecode-cache", "status": "ok", "message": f"writable: {code / '__pycache__'}",
                     "fix": None}
    assert list((code / "__pycache__").iterdir()) == []


@pytest.mark.subprocess
def test_cache_not_written_under_dont_write_bytecode(place: Place) -> None:
    cache = doctor(place, PYTHONDONTWRITEBYTECODE="1").finding("bytecode-cache")
    assert cache["status"] == "warning"
    assert "PYTHONDONTWRITEBYTECODE" in cache["message"]


# -- mypy ------------------------------------------------------------------------------


@pytest.mark.subprocess
def test_mypy_missing_where_the_configuration_names_the_plugin(
    place: Place, bare_python: Path, tmp_path: Path
) -> None:
    place.write("setup.cfg", "[mypy]\nplugins = tagstr_mypy\n")
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)))
    mypy = report.finding("mypy")
    assert mypy == {"check": "mypy", "status": "error",
                    "message": "./setup.cfg names tagstr_mypy, but mypy is not installed in this environment "
                    "(it must run where tagstr-toolkit is installed)",
                    "fix": "pip install 'tagstr-toolkit[mypy]'"}
    assert report.returncode == 1
    assert "mypy-plugin" not in report.checks()


@pytest.mark.subprocess
def test_mypy_missing_and_not_configured_is_a_note(place: Place, bare_python: Path, tmp_path: Path) -> None:
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)))
    assert report.finding("mypy")["status"] == "note"
    assert report.returncode == 0


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("direct_url", "fix"),
    [
        pytest.param({"url": "file:///src/tagstr", "dir_info": {}}, "pip install '/src/tagstr[mypy]'", id="checkout"),
        pytest.param({"url": "file:///src/tagstr", "dir_info": {"editable": True}},
                     "pip install -e '/src/tagstr[mypy]'", id="editable"),
        pytest.param({"url": "https://example.org/tagstr.git", "vcs_info": {"vcs": "git", "commit_id": "ab12",
                                                                            "requested_revision": "v0.1.0"}},
                     "pip install 'tagstr-toolkit[mypy] @ git+https://example.org/tagstr.git@v0.1.0'", id="vcs"),
        pytest.param({"url": "file:///w/tagstr_toolkit-0.1.0-py3-none-any.whl", "archive_info": {}},
                     "pip install '/w/tagstr_toolkit-0.1.0-py3-none-any.whl[mypy]'", id="wheel"),
        pytest.param(None, "pip install '{checkout}[mypy]'", id="source-tree-on-pythonpath"),
    ],
)
def test_fixes_install_from_where_the_project_came_from(place: Place, bare_python: Path, tmp_path: Path,
                                                        direct_url: dict[str, Any] | None, fix: str) -> None:
    """Not on a package index yet: a fix that says ``pip install tagstr-toolkit`` would fail."""
    place.write("setup.cfg", "[mypy]\nplugins = tagstr_mypy\n")
    checkout = tmp_path / "checkout"
    packages = copy_packages(checkout / "src", pth=False)
    if direct_url is None:
        (checkout / "pyproject.toml").write_text('[project]\nname = "tagstr-toolkit"\n', encoding="utf-8")
    else:
        stub_distribution(site_packages(bare_python), "tagstr-toolkit", tagstr_runtime.__version__,
                          direct_url_json=json.dumps(direct_url))
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(packages))
    assert report.finding("mypy")["fix"] == fix.format(checkout=checkout)


@pytest.mark.skipif(not installed("mypy"), reason="needs mypy")
@pytest.mark.parametrize(
    ("name", "text", "fix"),
    [
        pytest.param("mypy.ini", "[mypy]\nstrict = True\n", "add plugins = tagstr_mypy to [mypy] in ./mypy.ini",
                     id="mypy.ini"),
        pytest.param("pyproject.toml", "[tool.mypy]\nstrict = true\n",
                     'add plugins = ["tagstr_mypy"] to [tool.mypy] in ./pyproject.toml', id="pyproject"),
        pytest.param("setup.cfg", "[mypy]\nplugins = other_plugin\n",
                     "add plugins = tagstr_mypy to [mypy] in ./setup.cfg", id="another-plugin"),
    ],
)
@pytest.mark.subprocess
def test_mypy_plugin_not_configured(place: Place, name: str, text: str, fix: str) -> None:
    place.write(name, text)
    report = doctor(place)
    plugin = report.finding("mypy-plugin")
    assert plugin["status"] == "warning"
    assert plugin["message"] == f"./{name} does not name tagstr_mypy: mypy reports every tag string as a syntax error"
    assert plugin["fix"] == fix
    assert report.returncode == 0


@pytest.mark.skipif(not installed("mypy"), reason="needs mypy")
@pytest.mark.subprocess
def test_mypy_without_any_configuration(place: Place) -> None:
    plugin = doctor(place).finding("mypy-plugin")
    assert plugin["status"] == "warning"
    assert plugin["message"].startswith("no mypy configuration found here")
    assert plugin["fix"] == "create mypy.ini with [mypy] and plugins = tagstr_mypy"


@pytest.mark.parametrize(
    ("fake", "status", "returncode"),
    [
        pytest.param("1.15.0", "error", 1, id="older"),
        pytest.param("2.5.0", "warning", 0, id="newer-than-tested"),
    ],
)
@pytest.mark.subprocess
def test_unsupported_mypy_version(place: Place, tmp_path: Path, fake: str, status: str, returncode: int) -> None:
    place.write("mypy.ini", "[mypy]\nplugins = tagstr_mypy:plugin\n")
    stubs = stub_distribution(tmp_path / "stubs", "mypy", fake)
    report = doctor(place, PYTHONPATH=os.pathsep.join([str(stubs), str(SRC)]))
    mypy = report.finding("mypy")
    assert mypy["status"] == status
    assert mypy["message"].startswith(f"mypy {fake} is ")
    assert mypy["message"].endswith("(>=2.0,<2.5)")
    assert report.finding("mypy-plugin")["status"] == "ok"
    assert report.returncode == returncode


# -- finding the configurations as the tools do (in process) ----------------------------


@pytest.fixture
def inside(place: Place, monkeypatch: pytest.MonkeyPatch) -> Place:
    for name in list(os.environ):
        if name.startswith(INHERITED):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(place.home))
    monkeypatch.chdir(place.project)
    return place


def test_mypy_configuration_order_and_walk(inside: Place, monkeypatch: pytest.MonkeyPatch) -> None:
    from tagstr_runtime.doctor.configs import mypy_config

    inside.write("pyproject.toml", "[project]\nname = 'x'\n")  # no [tool.mypy]: not mypy's file
    inside.write("setup.cfg", "[mypy]\nplugins =\n    other,\n    tagstr_mypy\n")
    found = mypy_config("sub/dir")
    assert found is not None
    assert (found.path, found.options) == (str(inside.project / "setup.cfg"), {"plugins": ["other", "tagstr_mypy"]})
    inside.write(".mypy.ini", "[mypy]\nstrict = True\n")  # before pyproject.toml and setup.cfg
    assert (found := mypy_config(".")) is not None and found.path.endswith(".mypy.ini") and found.options == {}
    inside.write("mypy.ini", "strict = True\n")  # unreadable (no section header): mypy looks further
    assert (found := mypy_config(".")) is not None and found.path.endswith(".mypy.ini")
    inside.write("mypy.ini", "[mypy-pkg.*]\nstrict = True\n")  # read even without [mypy]; mypy says so
    assert (found := mypy_config(".")) is not None and found.problem == "it has no [mypy] section"


def test_mypy_configuration_search_stops_at_the_repository_root(inside: Place) -> None:
    from tagstr_runtime.doctor.configs import mypy_config

    (inside.project.parent / "mypy.ini").write_text("[mypy]\nplugins = tagstr_mypy\n", encoding="utf-8")
    assert mypy_config(".") is None
    user = inside.home / ".config" / "mypy" / "config"
    user.parent.mkdir(parents=True)
    user.write_text("[mypy]\nplugins = tagstr_mypy\n", encoding="utf-8")
    assert (found := mypy_config(".")) is not None and found.path == str(user)


def test_flake8_configuration_is_the_first_with_a_flake8_section(inside: Place) -> None:
    from tagstr_runtime.doctor.configs import flake8_config

    inside.write("setup.cfg", "[metadata]\nname = x\n")
    inside.write("tox.ini", "[flake8]\nextend_ignore = E501, W503\nselect =\n    E\n    TAG\n")
    found = flake8_config("pkg")
    assert found is not None
    assert found.options == {"extend-ignore": ["E501", "W503"], "select": ["E", "TAG"]}


def test_coverage_configuration_order(inside: Place, monkeypatch: pytest.MonkeyPatch) -> None:
    from tagstr_runtime.doctor.configs import coverage_config

    inside.write("tox.ini", "[tox]\n")
    inside.write("pyproject.toml", '[tool.coverage.report]\nshow_missing = true\n')
    assert (found := coverage_config(".")) is not None and (found.path, found.options) == (
        str(inside.project / "pyproject.toml"), {})
    inside.write("setup.cfg", "[coverage:run]\nplugins = tagstr_runtime.coverage_plugin\n")
    assert (found := coverage_config(".")) is not None and found.path.endswith("setup.cfg")
    inside.write(".coveragerc", "[report]\nshow_missing = True\n")  # its own file, whatever it holds
    assert (found := coverage_config(".")) is not None and (found.path, found.options) == (
        str(inside.project / ".coveragerc"), {})
    monkeypatch.setenv("COVERAGE_RCFILE", str(inside.write("cov.ini", "[run]\nplugins = x\n")))
    assert (found := coverage_config(".")) is not None and found.options == {"plugins": ["x"]}


# -- flake8 ---------------------------------------------------------------------------


needs_flake8 = pytest.mark.skipif(not installed("flake8"), reason="needs flake8")


@needs_flake8
@pytest.mark.subprocess
def test_flake8_ignore_turns_the_off_by_default_codes_on(place: Place) -> None:
    """The codes named are the rule registry's off-by-default ones (``tagstr_flake8.rules.RULES``)."""
    from tagstr_flake8.rules import OFF_BY_DEFAULT

    assert {"TAG006", "TAG013", "TAG106"} < set(OFF_BY_DEFAULT)
    place.write("tox.ini", "[flake8]\nignore = E501,W503\n")
    report = doctor(place)
    config = report.finding("flake8-config")
    assert config == {
        "check": "flake8-config", "status": "warning",
        "message": "ignore = in ./tox.ini replaces flake8's default ignore list, so the off-by-default "
        f"{', '.join(OFF_BY_DEFAULT)} are on",
        "fix": f"write extend-ignore = instead of ignore = in ./tox.ini (or add {','.join(OFF_BY_DEFAULT)} to it)",
    }
    assert report.returncode == 0


@pytest.mark.subprocess
def test_flake8_selection_imports_no_flake8(tmp_path: Path) -> None:
    """Weighing a configuration's select/ignore reads the rule registry: no flake8, no rule, no desugarer."""
    probe = textwrap.dedent("""
        import json, sys
        from tagstr_runtime.doctor.checkers import _selection
        from tagstr_runtime.doctor.configs import Config

        found = _selection(Config("tox.ini", "[flake8]", {"ignore": ["E501"]}))
        print(json.dumps({"found": [f.message for f in found], "modules": sorted(sys.modules)}))
    """)
    ran = run_python("-c", probe, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert len(result["found"]) == 1 and "TAG006" in result["found"][0]
    loaded = set(result["modules"])
    assert not {m for m in loaded if m.partition(".")[0] in ("flake8", "pyflakes", "pycodestyle")}
    assert not {m for m in loaded if m.startswith(("tagstr_flake8.rules.", "tagstr_flake8.host",
                                                   "tagstr_runtime.desugarer", "tagstr_runtime.syntax"))}


@needs_flake8
@pytest.mark.subprocess
def test_flake8_extend_ignore_keeps_them_off(place: Place) -> None:
    place.write(".flake8", "[flake8]\nextend-ignore = E501\nselect = E,F,W,TAG001,TAG006\n")
    report = doctor(place)
    assert "flake8-config" not in report.checks()
    assert report.finding("flake8-plugin")["status"] == "ok"


@pytest.mark.subprocess
def test_flake8_without_the_plugin_registered(place: Place, bare_python: Path, tmp_path: Path) -> None:
    """flake8 installed, the project only on PYTHONPATH: no distribution registers the TAG entry point."""
    stub_distribution(site_packages(bare_python), "flake8", "7.1.0")
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)))
    assert report.finding("flake8")["status"] == "ok"
    plugin = report.finding("flake8-plugin")
    assert plugin["status"] == "error"
    assert plugin["message"].startswith("flake8 does not see the TAG plugin")
    assert report.returncode == 1


@needs_flake8
@pytest.mark.parametrize(
    "options",
    [
        pytest.param({}, id="defaults"),
        pytest.param({"ignore": ["E501"]}, id="ignore"),
        pytest.param({"ignore": ["E501", "TAG006"]}, id="ignore-some"),
        pytest.param({"ignore": ["E501", "TAG"]}, id="ignore-all-tag"),
        pytest.param({"extend-ignore": ["E501"]}, id="extend-ignore"),
        pytest.param({"select": ["E", "F", "TAG"]}, id="select-prefix"),
        pytest.param({"select": ["E", "TAG0"]}, id="select-longer-prefix"),
        pytest.param({"select": ["E", "TAG001"]}, id="select-code"),
        pytest.param({"select": ["TAG"], "ignore": ["TAG006"]}, id="select-and-ignore"),
        pytest.param({"extend-select": ["TAG006"]}, id="extend-select-code"),
        pytest.param({"extend-select": ["TAG"]}, id="extend-select-prefix"),
        pytest.param({"select": ["TAG006"], "extend-ignore": ["TAG00"]}, id="explicit-both-longer-select"),
        pytest.param({"extend-select": ["TAG0"], "extend-ignore": ["TAG00"]}, id="explicit-both-longer-ignore"),
    ],
)
def test_selection_agrees_with_flake8(options: dict[str, list[str]]) -> None:
    """The doctor's reading of select/ignore against flake8's own decision engine."""
    import argparse

    from flake8.style_guide import Decision, DecisionEngine

    from tagstr_flake8.rules import OFF_BY_DEFAULT
    from tagstr_runtime.doctor.flake8_select import _selected

    namespace = argparse.Namespace(
        select=options.get("select"), extend_select=options.get("extend-select"),
        ignore=options.get("ignore"), extend_ignore=options.get("extend-ignore"),
        extended_default_select=["B", "C90", "E", "F", "TAG", "W"],
        extended_default_ignore=["B9", *OFF_BY_DEFAULT],
    )
    engine = DecisionEngine(namespace)
    for code in OFF_BY_DEFAULT:
        assert _selected(code, options, OFF_BY_DEFAULT) == (engine.decision_for(code) is Decision.Selected), code


# -- coverage, pytest -------------------------------------------------------------------


@pytest.mark.subprocess
def test_coverage_plugin_configured_without_coverage(place: Place, bare_python: Path, tmp_path: Path) -> None:
    place.write("pyproject.toml", '[tool.coverage.run]\nplugins = ["tagstr_runtime.coverage_plugin"]\n')
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)))
    coverage = report.finding("coverage")
    assert coverage["status"] == "error"
    assert coverage["message"].startswith("./pyproject.toml names tagstr_runtime.coverage_plugin, but coverage is not")
    assert report.returncode == 1


@pytest.mark.skipif(not installed("coverage"), reason="needs coverage")
@pytest.mark.subprocess
def test_coverage_configuration_without_the_plugin(place: Place) -> None:
    place.write("setup.cfg", "[coverage:run]\nbranch = True\n")
    coverage = doctor(place).finding("coverage")
    assert coverage["status"] == "warning"
    assert coverage["fix"] == "add plugins = tagstr_runtime.coverage_plugin to [coverage:run] in ./setup.cfg"


@pytest.mark.skipif(not installed("pytest"), reason="needs pytest")
@pytest.mark.subprocess
def test_pytest_plugin_autoload_disabled(place: Place) -> None:
    finding = doctor(place, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1").finding("pytest")
    assert finding["status"] == "warning"
    assert finding["fix"] == "add -p tagstr_runtime._pytest_plugin to pytest's addopts"


@pytest.mark.subprocess
def test_integrations_quiet_without_their_tools(place: Place, bare_python: Path, tmp_path: Path) -> None:
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)))
    assert "pyright" not in report.checks() and "formatters" not in report.checks()
    assert report.finding("ipython") == {"check": "ipython", "status": "note", "message": "not installed", "fix": None}


@pytest.mark.subprocess
def test_integrations_seen_through_their_metadata_and_configuration(
    place: Place, bare_python: Path, tmp_path: Path
) -> None:
    site = site_packages(bare_python)
    for name, version in (("ipython", "9.0.0"), ("black", "25.1.0"), ("ruff", "0.9.0")):
        stub_distribution(site, name, version)
    place.write("pyrightconfig.json", "{}\n")
    profile = place.home / "ipy" / "profile_default" / "ipython_config.py"
    profile.parent.mkdir(parents=True)
    profile.write_text("c.InteractiveShellApp.extensions = ['tagstr_runtime']\n", encoding="utf-8")
    report = doctor(place, python=str(bare_python), PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)),
                    IPYTHONDIR=str(place.home / "ipy"))
    assert report.finding("ipython") == {"check": "ipython", "status": "ok", "fix": None,
                                         "message": f"IPython 9.0.0 loads tagstr_runtime at start-up ({profile})"}
    assert report.finding("pyright")["fix"].startswith("python -m tagstr_mypy.stubgen ")
    formatters = report.finding("formatters")
    assert formatters["message"] == "black 25.1.0, ruff 0.9.0: they cannot parse files with tag strings"
    assert formatters["status"] == "note"


# -- Python versions, the command line ---------------------------------------------------


def _python310() -> str | None:
    """A Python 3.10 on PATH or among pyenv's versions (the tox envs' source of interpreters)."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    candidates = [shutil.which("python3.10"), *map(str, sorted(pyenv.glob("3.10*/bin/python3.10")))]
    for found in filter(None, candidates):
        if subprocess.run([found, "-c", "pass"], capture_output=True).returncode == 0:
            return found
    return None


@pytest.mark.subprocess
def test_unsupported_python(place: Place, tmp_path: Path) -> None:
    python = _python310()
    if python is None:
        pytest.skip("no Python 3.10 here")
    report = doctor(place, python=python, PYTHONPATH=str(copy_packages(tmp_path / "pkgs", pth=False)))
    finding = report.finding("python")
    assert finding["status"] == "error"
    assert finding["message"].startswith("Python 3.10.")
    assert finding["message"].endswith("is not supported (3.11 to 3.15)")
    assert report.returncode == 1


@pytest.mark.subprocess
def test_a_script_named_doctor_runs_as_a_path(place: Place) -> None:
    place.write("doctor", "print('the script ran')\n")
    as_command = run_doctor(place, text=True)
    assert as_command.stdout.startswith("tagstr-toolkit ")
    for spelling in (["./doctor"], ["--", "doctor"]):
        ran = run_python("-m", "tagstr_runtime", *spelling, cwd=place.project, env=clean_env(*INHERITED))
        assert (ran.returncode, ran.stdout) == (0, "the script ran\n"), ran.stderr


@pytest.mark.subprocess
def test_usage_errors(place: Place) -> None:
    done = run_doctor(place, "no/such/folder")
    assert done.returncode == 2
    assert "no such file or folder: no/such/folder" in done.stderr


# -- the supported ranges are the package's ---------------------------------------------


def test_supported_versions_are_those_of_pyproject() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    extras = pyproject["project"]["optional-dependencies"]

    def spec(limits: tuple[tuple[int, ...], ...]) -> str:
        return ",".join(f"{op}{'.'.join(map(str, v))}" for op, v in zip((">=", "<"), limits))

    assert f"mypy{spec(_checkers.MYPY_RANGE)}" in extras["mypy"]
    assert f"flake8{spec(_checkers.FLAKE8_RANGE)}" in extras["flake8"]
    assert f"coverage>={'.'.join(map(str, _integrations.COVERAGE_FLOOR))}" in extras["coverage"]
    low, high = _environment.SUPPORTED_PYTHON
    assert pyproject["project"]["requires-python"] == f">={low[0]}.{low[1]}"
    minors = [c.rpartition(".")[2] for c in pyproject["project"]["classifiers"]
              if c.startswith("Programming Language :: Python :: 3.")]
    assert (min(map(int, minors)), max(map(int, minors))) == (low[1], high[1])
