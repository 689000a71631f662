// Tokenizes Python lines with a real TextMate engine (vscode-textmate + vscode-oniguruma), the
// tag-string grammar injected into the Python grammar, as VS Code does it.
// usage: node textmate_tokens.mjs NODE_MODULES GRAMMAR < lines.json  ->  [[{text, scopes}], ...]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [modules, ourGrammar] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = readFileSync(path.join(modules, "vscode-oniguruma", "release", "onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);
const grammars = {
  "source.python": path.join(modules, "tm-grammars", "grammars", "python.json"),
  "text.html.basic": path.join(modules, "tm-grammars", "grammars", "html.json"),
  "source.sql": path.join(modules, "tm-grammars", "grammars", "sql.json"),
  "source.python.tagstr": ourGrammar,
  "source.python.tagstr.holes": ourGrammar.replace("tagstr.tmLanguage.json", "tagstr-holes.tmLanguage.json"),
};
const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }),
  loadGrammar: async (scope) => {
    const file = grammars[scope];
    return file ? vsctm.parseRawGrammar(readFileSync(file, "utf8"), file) : null;
  },
  getInjections: (scope) => (scope === "source.python" ? ["source.python.tagstr", "source.python.tagstr.holes"] : undefined),
});
const grammar = await registry.loadGrammar("source.python");
const lines = JSON.parse(readFileSync(0, "utf8"));
let state = vsctm.INITIAL;
const out = [];
for (const line of lines) {
  const result = grammar.tokenizeLine(line, state);
  out.push(result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes })));
  state = result.ruleStack;
}
process.stdout.write(JSON.stringify(out));
