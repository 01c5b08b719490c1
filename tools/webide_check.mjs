#!/usr/bin/env node
// Headless stand-in for the Kaitai Web IDE: does this spec load and parse these files there?
//
//   node tools/webide_check.mjs [--upload SPEC.ksy]... [--no-formats] [--no-lazy] [--labels] SPEC.ksy [FILE...]
//
// It follows the IDE's path (kaitai-io/kaitai_struct_webide, src/v1):
//
// * Uploads. A dropped file is stored in the IDE's local storage under its bare file name
//   (app.ts `addNewFiles`: `fss.local.put(file.file.name, content)`); the store is a flat
//   key -> content map, `fs_file[<name>]` (LocalStorageFileSystem.ts). Here the uploads are
//   every formats/*/*.ksy (unless --no-formats), each --upload, and SPEC itself, uploaded
//   last so it overwrites a same-named upload, as it would in the IDE. Two different
//   uploads with the same bare name cannot both live there: that is an error.
// * Imports (utils/Compilation/JsImporter.ts, KaitaiServices.ts `JsImporter.importYaml`).
//   A relative import, at any depth, is looked up as the ROOT spec's folder + "/" + the
//   import text + ".ksy", with a leading "/" dropped: no `..` or `.` is resolved, and the
//   importing spec's own folder plays no part. The key must match an upload exactly,
//   otherwise the compile fails with the IDE's message, e.g.
//   `failed to import spec ../roaring/roaring64.ksy from local storage: file not found`.
//   Absolute imports (`/common/x`) come from the kaitai.io formats library in the IDE;
//   that library is not available here, so they fail with a message saying so.
// * YAML parsed by js-yaml 4.1.0 (CORE_SCHEMA), compiled by the npm kaitai-struct-compiler
//   to JavaScript with debug=true, the output evaluated as plain scripts with their globals
//   on `self` (no require, no modules, as in the IDE's worker). Custom `process:` routines
//   are not available there, so a spec that needs one fails here too.
// * Parse (kaitaiWorker.ts `reparse`/`exportValue`): `new Main(new KaitaiStream(buf))._read()`;
//   an error it raises is what the IDE's error panel shows (`ide_error`), with the partial
//   tree. Instances are then exported as the IDE does: value instances and those marked
//   `-webide-parse-mode: eager` (or all of them with --no-lazy, the IDE's "disable lazy
//   parsing" box) are evaluated while the tree is built, and an error there also reaches
//   the error panel (and the IDE shows no tree). Other instances (`pos:` ones, such as a
//   footer found from the end of the file) are lazy: the IDE evaluates them only when the
//   user clicks them and shows their errors on that node alone. This tool clicks every one
//   and lists those errors in `field_errors`.
//
// Prints one JSON line per file:
//   {"file", "ok", "ide_error", "field_errors": [{"path", "error"}], "error", "nodes", "tree"}
// `ok` is true when neither the root parse nor any clicked instance failed; `error` is
// `ide_error` or else the first field error. With no FILE it only compiles and prints
// {"spec", "ok": true, "compiled": [...], "imports": [...]}.
// Tree keys are snake_case (the .ksy ids); byte arrays become {"len", "hex"} (first 64
// bytes); integers beyond 2^53 lose precision in JavaScript exactly as they do in the IDE.
// `nodes` counts the values exported (what the IDE's tree holds; with --no-lazy, everything).
// --labels adds to every object an "@label" key: the one-line label the IDE's tree shows
// beside it, from its type's -webide-representation (see label() below).
// Exit status: 0 once the spec compiled (whatever the files hold), 1 when the upload set
// or the compile fails (the message on stdout as JSON and on stderr), 2 for bad usage.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { load, CORE_SCHEMA } from "js-yaml";

const require = createRequire(import.meta.url);
const compiler = require("kaitai-struct-compiler");
const KaitaiStream = require("kaitai-struct/KaitaiStream");

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function usage(msg) {
  process.stderr.write(`webide_check.mjs: ${msg}\nusage: webide_check.mjs [--upload SPEC.ksy]... [--no-formats] [--no-lazy] [--labels] SPEC.ksy [FILE...]\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
const extraUploads = [];
let withFormats = true, noLazy = false, withLabels = false;
const positional = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--upload") {
    if (i + 1 >= args.length) usage("--upload needs a file");
    extraUploads.push(args[++i]);
  } else if (a === "--no-formats") withFormats = false;
  else if (a === "--no-lazy") noLazy = true;
  else if (a === "--labels") withLabels = true;
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else positional.push(a);
}
const [specFile, ...files] = positional;
if (!specFile) usage("missing SPEC.ksy");

function fail(message) {
  process.stdout.write(JSON.stringify({ spec: specFile, ok: false, ide_error: message, error: message }) + "\n");
  process.stderr.write(`${specFile}: ${message}\n`);
  process.exit(1);
}

// ---- the IDE's local storage: bare file name -> {from, text} --------------------------------
function formatsSpecs() {
  const dir = path.join(REPO, "formats");
  return fs.readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => fs.readdirSync(path.join(dir, d.name)).filter((f) => f.endsWith(".ksy")).sort().map((f) => path.join(dir, d.name, f)));
}

const storage = new Map();
function upload(file, isRoot) {
  const from = path.resolve(file);
  const name = path.basename(from);
  const text = fs.readFileSync(from, "utf8");
  const prev = storage.get(name);
  if (prev && prev.from !== from && prev.text !== text && !isRoot) {
    fail(`the IDE stores uploads by bare file name: ${name} is uploaded from both ${prev.from} and ${from}`);
  }
  storage.set(name, { from, text });
  return name;
}
for (const f of [...(withFormats ? formatsSpecs() : []), ...extraUploads]) upload(f, false);
const rootFn = upload(specFile, true);  // the root spec is uploaded last and selected

// ---- compile, importing as the IDE's JsImporter does -----------------------------------------
const parseYaml = (text, fn) => load(text, { schema: CORE_SCHEMA, filename: fn });

// Types by JavaScript class name, and their instances by JavaScript property name, as the
// IDE's SchemaUtils.collectKsyTypes builds them (imported specs merged in by the importer).
const ksyTypes = {};
const jsName = (ksyName, isProp) => ksyName.split("_").map((x, i) => (i === 0 && isProp ? x : x[0].toUpperCase() + x.slice(1))).join("");
function collectTypes(type) {
  type.instancesByJsName = {};
  for (const [name, inst] of Object.entries(type.instances || {})) type.instancesByJsName[jsName(name, true)] = inst;
  for (const [name, sub] of Object.entries(type.types || {})) {
    ksyTypes[jsName(name, false)] = sub;
    collectTypes(sub);
  }
}
function collectKsyTypes(schema) {
  collectTypes(schema);
  ksyTypes[jsName(schema.meta.id, false)] = schema;
}

const imported = [];
const importer = {
  importYaml(name, mode) {
    let loadFn;
    if (mode === "abs") {
      const fn = `formats/${name}.ksy`;
      return Promise.reject(new Error(`failed to import spec ${fn} from kaitai.io: the kaitai.io formats library is not available to this simulation`));
    }
    const fnParts = rootFn.split("/");
    fnParts.pop();
    loadFn = fnParts.join("/") + "/" + name;
    if (loadFn.startsWith("/")) loadFn = loadFn.substring(1);
    const fn = `${loadFn}.ksy`;
    const stored = storage.get(fn);
    if (stored === undefined) return Promise.reject(new Error(`failed to import spec ${fn} from local storage: file not found`));
    imported.push(fn);
    let schema;
    try {
      schema = parseYaml(stored.text, fn);
    } catch (e) {
      return Promise.reject(e);
    }
    collectKsyTypes(parseYaml(stored.text, fn));
    return Promise.resolve(schema);
  },
};

let spec, out;
try {
  const text = storage.get(rootFn).text;
  spec = parseYaml(text, rootFn);
  collectKsyTypes(parseYaml(text, rootFn));
  out = await compiler.compile("javascript", spec, importer, true);
} catch (e) {
  fail((e && (e.getMessage ? e.getMessage() : e.message)) || String(e));
}

const self = { KaitaiStream };
const context = vm.createContext({ self, console });
for (const [name, src] of Object.entries(out)) {
  vm.runInContext(src, context, { filename: name });
}
const mainName = jsName(spec.meta.id, false);
const Main = self[mainName][mainName];

if (files.length === 0) {
  process.stdout.write(JSON.stringify({ spec: specFile, ok: true, compiled: Object.keys(out), imports: imported }) + "\n");
  process.exit(0);
}

// ---- parse and export, as the IDE's worker does ----------------------------------------------
const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const errorText = (e) => `${e && e.name ? e.name + ": " : ""}${(e && (e.message || e.toString())) || String(e)}`;
const MAX_NODES = 200000;
let nodes = 0;
let fieldErrors = [];
let clicks = [];  // lazy instances, clicked once the tree is built: [obj, js name, path, parent node]

// The one-line label the IDE's tree shows beside an object (parsedToTree.ts `reprObject`): its type's
// `-webide-representation` with each `{a.b:fmt}` replaced. A name resolves only through what the IDE
// exported as the object's fields: seq fields and parameters (own keys), and the instances it evaluated
// while building the tree (value instances, `eager` ones, every one with --no-lazy); anything else
// (a lazy instance, an absent field) renders as "". Objects render as their own label, byte arrays
// with `str` as "ascii", `hex` or `uuid`; integers as 0x-hex (decimal with `dec`; an enum's name);
// arrays as their items' labels joined by `sep`; an undefined value as "<no value>".
const isEagerName = (obj, jsKey) => {
  if (Object.prototype.hasOwnProperty.call(obj, jsKey)) return !jsKey.startsWith("_");
  const inst = ((ksyTypes[obj.constructor.name] || {}).instancesByJsName || {})[jsKey];
  if (!inst) return false;
  const mode = inst["-webide-parse-mode"];
  return noLazy || mode === "eager" || (mode !== "lazy" && inst.value !== undefined);
};
function enumNameOf(obj, jsKey, v) {
  const d = obj && obj._debug && (obj._debug[jsKey] || obj._debug[`_m_${jsKey}`]);
  if (!d || !d.enumName) return null;
  let e = self;
  for (const part of d.enumName.split(".")) e = e && e[part];
  return (e && e[v]) || null;
}
function primitiveText(v, enumName) {
  if (v === undefined) return "<no value>";
  if (v instanceof Uint8Array) return "[" + Array.from(v.subarray(0, 8)).join(", ") + (v.length > 8 ? ", ..." : "") + "]";
  if (Number.isInteger(v)) return enumName || `${v < 0 ? "-" : ""}0x${Math.abs(v).toString(16).toUpperCase()}`;
  return String(v);
}
function label(obj, depth = 0) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj) || obj instanceof Uint8Array || depth > 32) return "";
  const repr = (ksyTypes[obj.constructor.name] || {})["-webide-representation"];
  if (!repr) return "";
  return repr.replace(/{(.*?)}/g, (_, body) => {
    const [pathText, fmtText] = body.split(":");
    const fmt = { sep: ", " };
    if (fmtText !== undefined) fmtText.split(",").map((x) => x.split("=")).forEach(([k, v]) => (fmt[k] = v === undefined ? true : v));
    let cur = obj, holder = null, key = null;
    for (const k of pathText.split(".")) {
      if (cur === null || typeof cur !== "object" || Array.isArray(cur) || cur instanceof Uint8Array) return "";
      const js = k === "_parent" ? "_parent" : jsName(k, true);
      if (js !== "_parent" && !isEagerName(cur, js)) return "";
      holder = cur; key = js;
      try {
        cur = cur[js];
      } catch (e) {
        return "";
      }
      if (cur === undefined && k !== pathText.split(".").slice(-1)[0]) return "";
    }
    if (cur !== null && typeof cur === "object" && !Array.isArray(cur) && !(cur instanceof Uint8Array)) return label(cur, depth + 1);
    if (cur instanceof Uint8Array && fmt.str) return `"${Array.from(cur, (b) => String.fromCharCode(b)).join("")}"`;
    if (cur instanceof Uint8Array && fmt.hex) return Buffer.from(cur).toString("hex");
    if (cur instanceof Uint8Array && fmt.uuid && cur.length === 16) {
      const h = Buffer.from(cur).toString("hex");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    if (fmt.dec && Number.isInteger(cur)) return `${cur}`;
    if (Array.isArray(cur)) return cur.map((x) => label(x, depth + 1)).join(fmt.sep);
    return primitiveText(cur, Number.isInteger(cur) ? enumNameOf(holder, key, cur) : null);
  });
}

// walk() is the IDE's exportValue: fields, plus instances already read or eager. An error
// escaping it while the IDE builds the tree reaches the error panel.
function walk(obj, depth, where) {
  if (++nodes > MAX_NODES) throw new Error("tree too large");
  if (obj === null || obj === undefined) return null;
  if (typeof obj === "number" || typeof obj === "boolean" || typeof obj === "string") return obj;
  if (typeof obj === "bigint") return obj.toString();
  if (obj instanceof Uint8Array) {
    return { len: obj.length, hex: Buffer.from(obj.subarray(0, 64)).toString("hex") };
  }
  if (Array.isArray(obj)) return obj.map((x, i) => walk(x, depth + 1, [...where, String(i)]));
  if (typeof obj !== "object") return String(obj);
  if (depth > 64) throw new Error("tree too deep");
  const res = {};
  if (withLabels) res["@label"] = label(obj);
  const fieldNames = new Set(Object.keys(obj));
  if (obj._debug) Object.keys(obj._debug).forEach((k) => fieldNames.add(k));
  for (const k of fieldNames) {
    if (k.startsWith("_") || k === "constructor") continue;
    res[snake(k)] = walk(obj[k], depth + 1, [...where, snake(k)]);
  }
  const ksyType = ksyTypes[obj.constructor.name];
  const proto = Object.getPrototypeOf(obj);
  for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
    if (typeof d.get !== "function" || k.startsWith("_")) continue;
    const inst = (ksyType && ksyType.instancesByJsName && ksyType.instancesByJsName[k]) || {};
    const mode = inst["-webide-parse-mode"];
    const eager = mode === "eager" || (mode !== "lazy" && inst.value !== undefined);
    if (Object.prototype.hasOwnProperty.call(obj, `_m_${k}`) || eager || noLazy) {
      res[snake(k)] = walk(obj[k], depth + 1, [...where, snake(k)]);
    } else {
      res[snake(k)] = null;
      clicks.push([obj, k, [...where, snake(k)], res, depth + 1]);
    }
  }
  return res;
}

// The user clicks every lazy instance (and then those inside it): each click is its own
// `get` in the IDE's worker, and its error shows on that node only.
function clickAll() {
  for (let i = 0; i < clicks.length; i++) {
    const [obj, k, p, parent, depth] = clicks[i];
    try {
      parent[snake(k)] = walk(obj[k], depth, p);
    } catch (e) {
      fieldErrors.push({ path: p.join("."), error: errorText(e) });
      parent[snake(k)] = { error: errorText(e) };
    }
  }
}

for (const file of files) {
  nodes = 0;
  fieldErrors = [];
  clicks = [];
  let ideError = null, tree = null;
  try {
    const buf = fs.readFileSync(file);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const root = new Main(new KaitaiStream(ab, 0));
    try {
      root._read();
    } catch (e) {
      ideError = errorText(e);
    }
    tree = walk(root, 0, []);
    clickAll();
  } catch (e) {  // thrown while the IDE builds the tree: it shows this error and no tree
    ideError = errorText(e);
    tree = null;
  }
  const ok = ideError === null && fieldErrors.length === 0;
  const error = ideError ?? (fieldErrors.length ? `${fieldErrors[0].path}: ${fieldErrors[0].error}` : undefined);
  process.stdout.write(JSON.stringify({ file, ok, ide_error: ideError, field_errors: fieldErrors, error, nodes, tree }) + "\n");
}
process.exitCode = 0;  // not process.exit(): let a piped stdout drain (output can exceed 64 KiB)
