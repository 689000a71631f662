// parse5's verdict on HTML texts (stdin: JSON [[text, context or null], ...]; stdout: JSON verdicts).
//
// parse5 reports the tokenizer's parse errors; the tree builder's are read from the tree it
// builds, with source locations: a start or end tag written in the text that no element took
// was ignored, and an element left without its end tag that may not leave it out was never
// closed.  Each verdict: {"tokenizer": [[code, offset]], "ignored": [offset], "unclosed": [offset]}.
import { parse, parseFragment } from "parse5";
import { readFileSync } from "fs";

const OPTIONAL_END = new Set(["dd", "dt", "li", "p", "tbody", "td", "tfoot", "th", "thead", "tr", "body", "html",
  "head", "colgroup", "caption", "option", "optgroup", "rb", "rp", "rt", "rtc"]);
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
  "plaintext", "noscript"]);
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
  "track", "wbr", "basefont", "bgsound", "frame", "keygen", "param"]);

function verdict(text, context) {
  const tokenizer = [];
  const options = { onParseError: (e) => tokenizer.push([e.code, e.startOffset]), scriptingEnabled: false,
    sourceCodeLocationInfo: true };
  let root;
  if (context === null) root = parse(text, options);
  else {
    const holder = context === "html" ? parse("").childNodes.find((n) => n.nodeName === "html")
      : parseFragment(`<${context}></${context}>`).childNodes[0];
    root = parseFragment(holder, text, options);
  }
  // where a "<" starts no tag: comments, raw text (script, style, textarea...), inside a tag
  const starts = new Set(), ends = new Set(), opaque = [], unclosed = [];
  const walk = (node, raw) => {
    const where = node.sourceCodeLocation;
    if (node.nodeName === "#comment" || (node.nodeName === "#text" && raw)) {
      if (where) opaque.push([where.startOffset, where.endOffset]);
    } else if (node.tagName !== undefined && where) {
      if (where.startTag) starts.add(where.startTag.startOffset);
      if (where.endTag) ends.add(where.endTag.startOffset);
      for (const tag of [where.startTag, where.endTag]) if (tag) opaque.push([tag.startOffset + 1, tag.endOffset]);
      const selfClosing = where.startTag && text.slice(where.startTag.startOffset, where.startTag.endOffset).endsWith("/>");
      if (where.startTag && !where.endTag && !VOID.has(node.tagName) && !OPTIONAL_END.has(node.tagName)
          && !(selfClosing && node.namespaceURI !== "http://www.w3.org/1999/xhtml")) {
        unclosed.push(where.startTag.startOffset);
      }
    }
    const isRaw = RAW_TEXT.has(node.tagName) && node.namespaceURI === "http://www.w3.org/1999/xhtml";
    for (const child of node.childNodes || []) walk(child, isRaw);
    if (node.content) walk(node.content, false);
  };
  walk(root, false);
  const ignored = [];
  for (const match of text.matchAll(/<(\/?)([A-Za-z][^\s\/>]*)/g)) {
    const at = match.index;
    if (opaque.some(([s, e]) => s <= at && at < e)) continue;
    if (match[1] ? !ends.has(at) : !starts.has(at)) ignored.push(at);
  }
  return { tokenizer, ignored, unclosed };
}

const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([text, context]) => verdict(text, context))));
