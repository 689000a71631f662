#!/usr/bin/env node
// `python -c CODE [args...]` in a fresh Pyodide under node: one interpreter start
// per process, for measurements such as benchmarks/bench_runtime.py (d) --pyodide.
//
// Usage:
//   node tools/pyodide/run_python.mjs --pyodide-dir DIR [--mount HOSTDIR]... -c CODE [args...]
//
//   --pyodide-dir DIR  folder whose node_modules/ holds the `pyodide` package
//                      (tools/run_pyodide_tests.py installs it: pyodide_command())
//   --mount HOSTDIR    host folder made visible at the same path (repeatable)
//
// Python's stdout and stderr go to the process's; the exit code is 0, or 1 when
// the code raised (its traceback on stderr).

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

function fail(msg) {
  process.stderr.write(`run_python.mjs: ${msg}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
let pyodideDir = null;
const mounts = [];
let i = 0;
for (; i < argv.length && argv[i] !== "-c"; i++) {
  if (argv[i] === "--pyodide-dir") pyodideDir = argv[++i];
  else if (argv[i] === "--mount") mounts.push(fs.realpathSync(path.resolve(argv[++i])));
  else fail(`unknown option ${argv[i]}`);
}
if (!pyodideDir || i + 1 >= argv.length) fail("usage: --pyodide-dir DIR [--mount HOSTDIR]... -c CODE [args...]");
const [code, ...args] = argv.slice(i + 1);

const resolved = createRequire(path.join(path.resolve(pyodideDir), "x.js")).resolve("pyodide/pyodide.mjs");
const { loadPyodide } = await import(pathToFileURL(resolved).href);
// TAGSTR_* switches reach the interpreter (Pyodide's environment is its own)
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("TAGSTR_")));
const pyodide = await loadPyodide({
  env: { HOME: "/home/pyodide", ...env },
  stdout: (s) => process.stdout.write(s + "\n"),
  stderr: (s) => process.stderr.write(s + "\n"),
});
// a folder inside another mounted one is reached through it (NODEFS cannot mount over it)
const done = [];
for (const d of [...new Set(mounts)].sort((a, b) => a.length - b.length)) {
  if (done.some((m) => d === m || d.startsWith(m + path.sep))) continue;
  pyodide.mountNodeFS(d, d);
  done.push(d);
}
pyodide.globals.set("_argv", pyodide.toPy(["-c", ...args]));
try {
  pyodide.runPython("import sys; sys.argv = list(_argv); del _argv");
  pyodide.runPython(code);
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  process.exit(1);
}
