"""The ``sys.excepthook`` of the start-up hook, in this process (no subprocess: they also run in Pyodide).

``test_main_script.py`` runs the real ``python script.py``; here the chaining
itself: ours goes in front once, passes every other error on unchanged, and
is put in front again after ``sitecustomize`` / ``usercustomize``, whose
functions ``site`` gets back.
"""

from __future__ import annotations

import sys
import types
from types import TracebackType

import pytest

from tagstr_runtime import _autostart

Call = tuple[type[BaseException], BaseException, "TracebackType | None"]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[Call]:
    """A user's hook as ``sys.excepthook``, recording what reaches it."""
    seen: list[Call] = []

    def user_hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        seen.append((kind, value, tb))

    monkeypatch.setattr(sys, "excepthook", user_hook)
    return seen


def test_outermost_wraps_once_and_passes_other_errors_on(calls: list[Call]) -> None:
    user_hook = sys.excepthook
    _autostart.outermost()
    ours = sys.excepthook
    assert ours is not user_hook and ours.__wrapped__ is user_hook  # type: ignore[attr-defined]
    _autostart.outermost()
    assert sys.excepthook is ours  # idempotent
    errors: list[BaseException] = [ValueError("x"), SyntaxError("not the main script", ("other.py", 1, 1, "x"))]
    for error in errors:
        sys.excepthook(type(error), error, None)
    assert [value for _, value, _ in calls] == errors  # unchanged, each once


def test_a_syntax_error_of_this_main_module_is_not_a_failed_script(calls: list[Call]) -> None:
    """Here ``__main__`` is pytest's: it has run (names of its own), so nothing is re-run."""
    main_file = getattr(sys.modules["__main__"], "__file__", None) or "main.py"
    error = SyntaxError("invalid syntax", (main_file, 1, 1, "x y"))
    assert not _autostart._main_script_failed(error)
    _autostart.outermost()
    sys.excepthook(SyntaxError, error, None)
    assert calls == [(SyntaxError, error, None)]


def test_customizations_get_wrapped_after_they_run(calls: list[Call], monkeypatch: pytest.MonkeyPatch) -> None:
    site = types.ModuleType("fake_site")

    def execsitecustomize() -> None:  # a sitecustomize that installs its own hook
        def custom_hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
            calls.append((kind, value, tb))

        sys.excepthook = custom_hook

    def execusercustomize() -> None:
        pass

    site.execsitecustomize = execsitecustomize  # type: ignore[attr-defined]
    site.execusercustomize = execusercustomize  # type: ignore[attr-defined]
    site.ENABLE_USER_SITE = False  # type: ignore[attr-defined]
    _autostart.outermost()
    for name in ("execsitecustomize", "execusercustomize"):
        setattr(site, name, _autostart._then_outermost(site, name, getattr(site, name)))
    site.execsitecustomize()  # type: ignore[attr-defined]
    # site has its functions back (the user site is off: execusercustomize is never called)
    assert site.execsitecustomize is execsitecustomize  # type: ignore[attr-defined]
    assert site.execusercustomize is execusercustomize  # type: ignore[attr-defined]
    ours = sys.excepthook
    assert getattr(ours, "_tagstr_main_script", False)
    assert ours.__wrapped__.__name__ == "custom_hook"  # type: ignore[attr-defined]
    error = ValueError("after")
    sys.excepthook(ValueError, error, None)
    assert calls == [(ValueError, error, None)]


def test_not_armed_outside_site_startup(monkeypatch: pytest.MonkeyPatch, calls: list[Call]) -> None:
    """A later ``site.addsitedir`` (tests, tools) runs the ``.pth`` again: no hook then."""
    monkeypatch.setattr(sys, "argv", ["script.py"])
    user_hook = sys.excepthook
    _autostart._arm_main_script()
    assert sys.excepthook is user_hook
