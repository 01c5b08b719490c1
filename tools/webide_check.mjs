#!/usr/bin/env node
// Headless stand-in for the Kaitai Web IDE: does this spec load and parse these files there?
//
//   node tools/webide_check.mjs SPEC.ksy FILE...
//
// It follows the IDE's path: YAML parsed by js-yaml 4.1.0 (CORE_SCHEMA), compiled by the
// npm kaitai-struct-compiler to JavaScript with debug=true, the output evaluated as plain
// scripts with their globals on `self` (no require, no modules, as in the IDE's worker),
// then `new Main(new KaitaiStream(buf))._read()` and every instance touched, as a user
// clicking through the tree would. Custom `process:` routines are not available there,
// so a spec that needs one fails here too.
//
// Prints one JSON line per file: {"file", "ok", "tree"} or {"file", "ok": false, "error"}.
// Tree keys are snake_case (the .ksy ids); byte arrays become {"len", "hex"} (first 64
// bytes); integers beyond 2^53 lose precision in JavaScript exactly as they do in the IDE.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { load, CORE_SCHEMA } from "js-yaml";

const require = createRequire(import.meta.url);
const compiler = require("kaitai-struct-compiler");
const KaitaiStream = require("kaitai-struct/KaitaiStream");

const [specFile, ...files] = process.argv.slice(2);
if (!specFile || files.length === 0) {
  process.stderr.write("usage: webide_check.mjs SPEC.ksy FILE...\n");
  process.exit(2);
}

const readYaml = (f) => load(fs.readFileSync(f, "utf8"), { schema: CORE_SCHEMA, filename: f });
const baseDir = path.dirname(specFile);
const importer = {
  importYaml(name, mode) {
    // The IDE resolves relative imports among the specs the user uploaded together.
    const f = mode === "abs" ? path.join("formats", `${name}.ksy`) : [baseDir, ...fs.readdirSync("formats").map((d) => path.join("formats", d))].map((d) => path.join(d, `${name}.ksy`)).find((c) => fs.existsSync(c)) ?? path.join(baseDir, `${name}.ksy`);
    return Promise.resolve(readYaml(f));
  },
};

const spec = readYaml(specFile);
const out = await compiler.compile("javascript", spec, importer, true);
const self = { KaitaiStream };
const context = vm.createContext({ self, console });
for (const [name, src] of Object.entries(out)) {
  vm.runInContext(src, context, { filename: name });
}
const mainName = spec.meta.id.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join("");
const Main = self[mainName][mainName];

const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const MAX_NODES = 200000;
let nodes = 0;

function walk(obj, depth) {
  if (++nodes > MAX_NODES) throw new Error("tree too large");
  if (obj === null || obj === undefined) return null;
  if (typeof obj === "number" || typeof obj === "boolean" || typeof obj === "string") return obj;
  if (typeof obj === "bigint") return obj.toString();
  if (obj instanceof Uint8Array) {
    return { len: obj.length, hex: Buffer.from(obj.subarray(0, 64)).toString("hex") };
  }
  if (Array.isArray(obj)) return obj.map((x) => walk(x, depth + 1));
  if (typeof obj !== "object") return String(obj);
  if (depth > 64) throw new Error("tree too deep");
  const res = {};
  for (const k of Object.keys(obj)) {
    if (k.startsWith("_") || k === "constructor") continue;
    res[snake(k)] = walk(obj[k], depth + 1);
  }
  // Instances are getters on the prototype (lazy in the IDE until clicked): touch them all.
  const proto = Object.getPrototypeOf(obj);
  for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
    if (typeof d.get === "function" && !k.startsWith("_")) res[snake(k)] = walk(obj[k], depth + 1);
  }
  return res;
}

let failed = 0;
for (const file of files) {
  nodes = 0;
  try {
    const buf = fs.readFileSync(file);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const root = new Main(new KaitaiStream(ab, 0));
    root._read();
    process.stdout.write(JSON.stringify({ file, ok: true, tree: walk(root, 0) }) + "\n");
  } catch (e) {
    failed++;
    const msg = (e && (e.message || e.toString())) || String(e);
    process.stdout.write(JSON.stringify({ file, ok: false, error: `${e && e.name ? e.name + ": " : ""}${msg}` }) + "\n");
  }
}
process.exitCode = 0;  // not process.exit(): let a piped stdout drain (output can exceed 64 KiB)
