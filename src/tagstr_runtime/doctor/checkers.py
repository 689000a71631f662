"""mypy and flake8: installed, a supported version, and the plugin seen by the tool.

The version ranges are the ``mypy`` and ``flake8`` extras of ``pyproject.toml``
(a test keeps them equal).  A version below the floor is an error only where
the plugin is in use (named in mypy's configuration; for flake8, always, since
flake8 loads every installed plugin); above the tested ceiling it is a
warning.
"""

from __future__ import annotations

from tagstr_runtime.doctor.configs import Config, flake8_config, mypy_config, shown
from tagstr_runtime.doctor.flake8_select import turned_on
from tagstr_runtime.doctor.install import install_command
from tagstr_runtime.doctor.probe import at_least, entry_point, version, version_tuple
from tagstr_runtime.doctor.report import Finding, Status

__all__ = ["FLAKE8_RANGE", "MYPY_RANGE", "flake8_findings", "mypy_findings"]

#: (floor, first version not supported): the extras' ``mypy>=2.0,<2.5``, ``flake8>=7.0,<8``
MYPY_RANGE = ((2, 0), (2, 5))
FLAKE8_RANGE = ((7, 0), (8,))


def _range_text(limits: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    return f">={'.'.join(map(str, limits[0]))},<{'.'.join(map(str, limits[1]))}"


def _version_finding(check: str, tool: str, installed: str, limits: tuple[tuple[int, ...], tuple[int, ...]],
                     in_use: bool, extra: str) -> Finding:
    low, high = limits
    supported = _range_text(limits)
    if not at_least(installed, low):
        status: Status = "error" if in_use else "warning"
        return Finding(check, status, f"{tool} {installed} is too old for tagstr-toolkit ({supported})",
                       install_command(extra))
    if version_tuple(installed) >= high:
        return Finding(check, "warning", f"{tool} {installed} is newer than the versions tested ({supported})",
                       f"if something fails: pip install '{tool}{supported}'")
    return Finding(check, "ok", f"{tool} {installed} ({supported})")


def _names_plugin(config: Config, module: str) -> bool:
    return any(entry.split(":")[0].strip() == module for entry in config.options.get("plugins", []))


def mypy_findings(start: str) -> list[Finding]:
    config = mypy_config(start)
    configured = config is not None and _names_plugin(config, "tagstr_mypy")
    installed = version("mypy")
    if installed is None:
        if configured and config:
            return [Finding("mypy", "error", f"{shown(config.path)} names tagstr_mypy, but mypy is not installed "
                            "in this environment (it must run where tagstr-toolkit is installed)",
                            install_command("mypy"))]
        return [Finding("mypy", "note", "not installed (optional: it type-checks tag strings)",
                        f"{install_command('mypy')}, then plugins = tagstr_mypy in the mypy configuration")]
    findings = [_version_finding("mypy", "mypy", installed, MYPY_RANGE, configured, "mypy")]
    if config is None:
        findings.append(Finding("mypy-plugin", "warning", "no mypy configuration found here (mypy.ini, .mypy.ini, "
                                "pyproject.toml, setup.cfg, up to the repository root): mypy reports every "
                                "tag string as a syntax error",
                                "create mypy.ini with [mypy] and plugins = tagstr_mypy"))
    elif configured:
        findings.append(Finding("mypy-plugin", "ok", f"plugins = tagstr_mypy in {shown(config.path)}"))
    else:
        line = 'plugins = ["tagstr_mypy"]' if config.path.endswith(".toml") else "plugins = tagstr_mypy"
        why = f" ({config.problem})" if config.problem else ""
        findings.append(Finding("mypy-plugin", "warning", f"{shown(config.path)}{why} does not name tagstr_mypy: "
                                "mypy reports every tag string as a syntax error",
                                f"add {line} to {config.section} in {shown(config.path)}"))
    return findings


def flake8_findings(start: str) -> list[Finding]:
    installed = version("flake8")
    if installed is None:
        return [Finding("flake8", "note", "not installed (optional: it lints tag strings)",
                        install_command("flake8"))]
    findings = [_version_finding("flake8", "flake8", installed, FLAKE8_RANGE, True, "flake8")]
    registered = entry_point("flake8.extension", "TAG")
    if registered is None or not registered.startswith("tagstr_flake8"):
        findings.append(Finding("flake8-plugin", "error", "flake8 does not see the TAG plugin (no installed "
                                "tagstr-toolkit here): it reports every tag string as E999",
                                f"{install_command('flake8')} in flake8's environment"))
        return findings
    findings.append(Finding("flake8-plugin", "ok", f"flake8 sees the TAG plugin ({registered})"))
    config = flake8_config(start)
    if config is not None:
        findings.extend(_selection(config))
    return findings


def _selection(config: Config) -> list[Finding]:
    """A warning if the configuration turns on off-by-default TAG codes without naming them."""
    options = config.options
    if not ({"ignore", "select"} & set(options)):
        return []  # flake8's defaults, and extend-* options only add what they name
    # The rule registry (data: no flake8, no rule, no desugarer), only when it is needed.
    from tagstr_flake8.rules import OFF_BY_DEFAULT

    codes = turned_on(OFF_BY_DEFAULT, options)
    if not codes:
        return []
    where, listed = shown(config.path), ",".join(codes)
    if "ignore" in options:
        return [Finding("flake8-config", "warning", f"ignore = in {where} replaces flake8's default ignore list, "
                        f"so the off-by-default {', '.join(codes)} are on",
                        f"write extend-ignore = instead of ignore = in {where} (or add {listed} to it)")]
    return [Finding("flake8-config", "warning", f"select = in {where} selects the off-by-default "
                    f"{', '.join(codes)} by a prefix", f"list the codes you want in select = in {where}, "
                    "or add new ones with extend-select =")]
