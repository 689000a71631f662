#!/usr/bin/env node
// Run pytest inside Pyodide (CPython 3.14 or 3.15 compiled to WebAssembly) under node.
// Which one is the Pyodide found through --pyodide-dir (tools/run_pyodide_tests.py
// installs the one pinned for the chosen version).
//
// Usage:
//   node tools/pyodide/run_pytest.mjs [--pyodide-dir DIR] [--mount HOSTDIR]...
//        [--no-write-bytecode] [--no-project-metadata] <repo> <deps> [-- <pytest args>...]
//
//   <repo>   repository root; mounted, becomes the cwd, <repo>/src goes on sys.path
//   <deps>   folder of pure-Python test dependencies installed with
//            `pip install --target` (pytest, hypothesis, ...); added with
//            site.addsitedir() so that .pth files and dist-info entry points work
//   --pyodide-dir DIR   folder whose node_modules/ holds the `pyodide` package
//                       (default: normal node resolution from this script, then
//                       <repo>/.cache/pyodide)
//   --mount HOSTDIR     extra host folder to mount (e.g. tests outside the repo)
//   --no-write-bytecode keep Pyodide's own default sys.dont_write_bytecode=True;
//                       by default bytecode is written as a native CPython does
//                       (sys.dont_write_bytecode=False, __pycache__ next to the
//                       sources, no pycache prefix): tests of import machinery
//                       expect that, and later runs skip recompiling
//   --no-project-metadata
//            do not emulate the installed project (see below)
//
// Host folders are mounted at the *same absolute path* inside Pyodide, so paths
// in pytest output and in the arguments are the host paths.
//
// By default the installed project is emulated the way an editable install would
// look: a dist-info with the [project.entry-points] of pyproject.toml (so pytest11
// plugins load) and the .pth and .start (PEP 829, read by 3.15+) files listed under
// [tool.hatch.build.targets.wheel.force-include] are put in an in-memory site dir.
//
// Nothing is ever fetched from the network: only the Pyodide core and its bundled
// standard library (python_stdlib.zip) from the npm package are used; no
// loadPackage()/micropip call is made.
//
// Hypothesis: the per-example deadline is switched off (profile "pyodide"),
// since code runs several times slower than on a native CPython.
//
// The node process exits with pytest's exit code (1 = tests failed, 2 =
// interrupted/usage, 4 = usage error, 5 = no tests collected); 3 for an internal
// error of this runner or of Pyodide.

import fs from "node:fs";
import path from "node:path";
import tty from "node:tty";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const SCRIPT_DIR = path.dirname(fileURLToPath(import.meta.url));
const INTERNAL_ERROR = 3;

function usage(msg) {
  if (msg) process.stderr.write(`run_pytest.mjs: ${msg}\n`);
  process.stderr.write(
    "usage: node run_pytest.mjs [--pyodide-dir DIR] [--mount HOSTDIR]... " +
      "[--no-write-bytecode] [--no-project-metadata] <repo> <deps> [-- <pytest args>...]\n",
  );
  process.exit(4);
}

function parseArgs(argv) {
  const opts = {
    pyodideDir: null,
    mounts: [],
    writeBytecode: true,
    projectMetadata: true,
    positional: [],
    pytestArgs: [],
  };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.pytestArgs = argv.slice(i + 1);
      break;
    } else if (a === "--pyodide-dir") {
      if (i + 1 >= argv.length) usage("--pyodide-dir needs a value");
      opts.pyodideDir = argv[++i];
    } else if (a === "--mount") {
      if (i + 1 >= argv.length) usage("--mount needs a value");
      opts.mounts.push(argv[++i]);
    } else if (a === "--no-write-bytecode") {
      opts.writeBytecode = false;
    } else if (a === "--no-project-metadata") {
      opts.projectMetadata = false;
    } else if (a === "-h" || a === "--help") {
      usage();
    } else if (a.startsWith("--")) {
      usage(`unknown option ${a} (pytest arguments go after --)`);
    } else {
      opts.positional.push(a);
    }
  }
  if (opts.positional.length !== 2) usage("expected <repo> and <deps>");
  return opts;
}

function mustBeDir(p, what) {
  const abs = path.resolve(p);
  let st;
  try {
    st = fs.statSync(abs);
  } catch {
    usage(`${what} ${abs} does not exist`);
  }
  if (!st.isDirectory()) usage(`${what} ${abs} is not a directory`);
  // realpath: the same folder is then mounted once even if reached via symlinks
  return fs.realpathSync(abs);
}

async function importPyodide(pyodideDir, repo) {
  const candidates = [];
  if (pyodideDir) candidates.push(path.resolve(pyodideDir));
  candidates.push(SCRIPT_DIR);
  if (!pyodideDir) candidates.push(path.join(repo, ".cache", "pyodide"));
  for (const dir of candidates) {
    let resolved;
    try {
      resolved = createRequire(path.join(dir, "__resolve__.js")).resolve("pyodide/pyodide.mjs");
    } catch {
      continue;
    }
    const mod = await import(pathToFileURL(resolved).href);
    return mod;
  }
  throw new Error(
    `cannot find the npm package "pyodide" (looked from: ${candidates.join(", ")}); ` +
      "run `npm ci` in tools/pyodide or use tools/run_pyodide_tests.py",
  );
}

function makeWriter(fd) {
  const isatty = tty.isatty(fd);
  return {
    isatty,
    write(buf) {
      let off = 0;
      while (off < buf.length) {
        try {
          off += fs.writeSync(fd, buf, off, buf.length - off);
        } catch (e) {
          if (e.code === "EAGAIN") continue; // non-blocking pipe is full: retry
          throw e;
        }
      }
      return buf.length;
    },
    fsync() {},
  };
}

// Mount each host folder at the same path; a folder inside another mounted
// folder is reachable through its parent and is not mounted again (NODEFS
// cannot mount over a non-empty directory).
function mountAll(pyodide, dirs) {
  const sorted = [...new Set(dirs)].sort((a, b) => a.length - b.length);
  const mounted = [];
  for (const d of sorted) {
    if (d === "/") throw new Error("refusing to mount the host root folder");
    if (mounted.some((m) => d === m || d.startsWith(m + path.sep))) continue;
    pyodide.mountNodeFS(d, d);
    mounted.push(d);
  }
  return mounted;
}

// Variables that would point the embedded interpreter at host files.
const DROP_ENV = new Set([
  "PYTHONHOME",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONUSERBASE",
  "PYTHONEXECUTABLE",
  "PYTHONPLATLIBDIR",
  "PYTHONPYCACHEPREFIX",
  "VIRTUAL_ENV",
  "HOME",
]);

function pyodideEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!DROP_ENV.has(k) && v !== undefined) env[k] = v;
  }
  env.HOME = "/home/pyodide";
  if (process.stdout.isTTY && process.stdout.columns && !env.COLUMNS) {
    env.COLUMNS = String(process.stdout.columns);
  }
  return env;
}

const BOOTSTRAP = String.raw`
def _tagstr_pyodide_main(repo, deps, pytest_args, project_metadata, write_bytecode):
    import os
    import site
    import sys

    if write_bytecode:
        # Pyodide starts with dont_write_bytecode=True; a native CPython
        # writes __pycache__/*.cpython-3XX.pyc next to the sources.
        sys.dont_write_bytecode = False
    os.chdir(repo)
    src = os.path.join(repo, "src")
    if os.path.isdir(src):
        sys.path.insert(0, src)
    # addsitedir (not a bare sys.path entry) so .pth files in deps are honoured
    site.addsitedir(deps)
    if project_metadata:
        _emulate_installed_project(repo)
    sys.argv = ["pytest", *pytest_args]
    import pytest

    rc = pytest.main(list(pytest_args), plugins=[_make_plugin(pytest)()])
    sys.stdout.flush()
    sys.stderr.flush()
    return int(rc)


def _make_plugin(pytest):
    class PyodidePlugin:
        """Pure Python runs several times slower in WebAssembly: before any
        conftest is imported, make the active Hypothesis profile "pyodide"
        (the default one without the per-example deadline). A profile that a
        conftest or --hypothesis-profile loads still wins."""

        # hooked here, not at startup, so that hypothesis is imported after
        # pytest's assertion-rewrite hook is in place
        @pytest.hookimpl(tryfirst=True)
        def pytest_load_initial_conftests(self, early_config, parser, args):
            try:
                from hypothesis import settings
            except ImportError:
                return
            settings.register_profile("pyodide", deadline=None)
            settings.load_profile("pyodide")

    return PyodidePlugin


def _emulate_installed_project(repo):
    """Make the project look installed (entry points, .pth and .start files), reading
    pyproject.toml, without copying its code: src/ stays the code used."""
    import os
    import re
    import site
    import tomllib

    pyproject = os.path.join(repo, "pyproject.toml")
    if not os.path.exists(pyproject):
        return
    with open(pyproject, "rb") as f:
        data = tomllib.load(f)
    project = data.get("project", {})
    name = project.get("name")
    if not name:
        return
    version = project.get("version", "0")
    norm = re.sub(r"[-_.]+", "_", name).lower()
    site_dir = "/pyodide-runner/project-site"
    dist_info = os.path.join(site_dir, f"{norm}-{version}.dist-info")
    os.makedirs(dist_info, exist_ok=True)
    with open(os.path.join(dist_info, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = []
    for group, eps in project.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines.extend(f"{k} = {v}" for k, v in eps.items())
        lines.append("")
    scripts = project.get("scripts", {})
    if scripts:
        lines.append("[console_scripts]")
        lines.extend(f"{k} = {v}" for k, v in scripts.items())
        lines.append("")
    with open(os.path.join(dist_info, "entry_points.txt"), "w") as f:
        f.write("\n".join(lines))
    force = (
        data.get("tool", {}).get("hatch", {}).get("build", {}).get("targets", {})
        .get("wheel", {}).get("force-include", {})
    )
    for src_rel, dest in force.items():
        if dest.endswith((".pth", ".start")) and "/" not in dest:
            src_path = os.path.join(repo, src_rel)
            if os.path.exists(src_path):
                with open(src_path) as fin, open(os.path.join(site_dir, dest), "w") as fout:
                    fout.write(fin.read())
    site.addsitedir(site_dir)
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const repo = mustBeDir(opts.positional[0], "repo");
  const deps = mustBeDir(opts.positional[1], "deps");
  const extraMounts = opts.mounts.map((m) => mustBeDir(m, "--mount"));

  const mod = await importPyodide(opts.pyodideDir, repo);
  const stdout = makeWriter(1);
  const stderr = makeWriter(2);

  const pyodide = await mod.loadPyodide({
    env: pyodideEnv(),
    // Startup messages go to stderr; setStdout/setStderr below take over.
    stdout: (s) => stderr.write(Buffer.from(s + "\n")),
    stderr: (s) => stderr.write(Buffer.from(s + "\n")),
  });
  pyodide.setStdout(stdout);
  pyodide.setStderr(stderr);

  mountAll(pyodide, [repo, deps, ...extraMounts]);

  pyodide.runPython(BOOTSTRAP);
  const run = pyodide.globals.get("_tagstr_pyodide_main");
  const pyArgs = pyodide.toPy(opts.pytestArgs);
  let rc;
  try {
    rc = run(repo, deps, pyArgs, opts.projectMetadata, opts.writeBytecode);
  } finally {
    pyArgs.destroy();
    run.destroy();
  }
  return rc;
}

main().then(
  (rc) => process.exit(Number.isInteger(rc) ? rc : INTERNAL_ERROR),
  (err) => {
    process.stderr.write(`run_pytest.mjs: internal error: ${err && err.stack ? err.stack : err}\n`);
    process.exit(INTERNAL_ERROR);
  },
);
