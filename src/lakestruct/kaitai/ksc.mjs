#!/usr/bin/env node
// Kaitai Struct compiler front end for lakestruct, shipped inside the package
// (lakestruct/kaitai/ksc.mjs: `lakestruct gen` and lakestruct.kaitai.compile run it).
// It is tools/ksc.mjs (what `make gen` runs) plus three options; without them it
// compiles as tools/ksc.mjs does (tests/kaitai holds its output to generated/):
//
//   --modules DIR      the node_modules folder holding kaitai-struct-compiler and js-yaml
//                      (default: node_modules above this script, as for tools/ksc.mjs)
//   --imports kaitai   resolve imports as the Kaitai compiler does: relative ones against the
//                      importing spec's folder (folders and `..` allowed), then the -I folders;
//                      absolute ones (`/network/ethernet_frame`) against the -I folders; the
//                      first match wins. Default `webide`: the stricter rule described below.
//   --ksy-json FILE    also write every spec compiled or imported, as parsed, to FILE as JSON
//                      ({"main": [ids], "specs": {id: spec}}): lakestruct derives Spark schemas from it
//
// The npm build of kaitai-struct-compiler@0.11.0 has no CLI, only
// `compile(lang, yaml, importer, debug)`. This script is our stand-in:
//
//   node ksc.mjs -t python|javascript [--python-package .] [--rules FILE] [--debug]
//                [--modules DIR] [--imports webide|kaitai] [--ksy-json FILE]
//                [-I DIR] -d OUTDIR SPEC.ksy...
//
// * YAML is parsed with js-yaml 4.1.0 CORE_SCHEMA, exactly as the Kaitai Web IDE does.
// * `imports:` resolve relative to the importing spec (mode "rel"), then against every -I folder;
//   absolute ones (`/net/x`) against -I only. Our specs import siblings by bare name
//   (`roaring64`), the one form the Web IDE finds among uploaded files: it stores uploads by
//   bare file name and looks an import up as the root spec's folder + the import text, without
//   resolving `..` (see tools/webide_check.mjs). So a relative import that names a folder
//   (`../roaring/roaring64`) is a compile error here, and so is a bare name that two different
//   files among the spec's folder and the -I folders answer to (the IDE can hold only one).
// * `--python-package .` rewrites bare `import x` of sibling generated modules to
//   `from . import x`, so the parsers work inside the `lakestruct._generated` package.
// * `--rules FILE` writes a Python table of every `valid:`/`contents:` attribute:
//   src_path -> (field path, rule name, width in bytes). Rule names come from the
//   attribute's `-lakestruct-rule` key (keys starting with `-` are ignored by the
//   compiler and the Web IDE), so the rule a reader reports lives in the spec itself.
// * `--debug` compiles in debug mode (the API's `debug=true`, what the Web IDE uses): every
//   object records where each field starts and ends (`_debug[field] = {start, end[, arr]}`,
//   relative to its own stream, plus `SEQ_FIELDS`) and does not read itself on construction
//   (call `_read()`). `make gen` writes this second output to generated/debug/, which
//   `lakestruct explain` walks to annotate bytes.
// * All specs compile in one node process (loading the compiler costs ~0.5 s).
// * Exit status 1 on the first compile error, with the spec's name.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

function usage(msg) {
  process.stderr.write(`ksc.mjs: ${msg}\nusage: ksc.mjs -t python|javascript [--python-package .] [--rules FILE] [--debug] ` +
    `[--modules DIR] [--imports webide|kaitai] [--ksy-json FILE] [-I DIR] -d OUTDIR SPEC.ksy...\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let target = null, outDir = null, pyPackage = null, rulesFile = null, debug = false;
let modulesDir = null, importMode = "webide", ksyJson = null;
const includeDirs = [], specs = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "-t") target = args[++i];
  else if (a === "-d") outDir = args[++i];
  else if (a === "-I") includeDirs.push(args[++i]);
  else if (a === "--python-package") pyPackage = args[++i];
  else if (a === "--rules") rulesFile = args[++i];
  else if (a === "--modules") modulesDir = args[++i];
  else if (a === "--imports") importMode = args[++i];
  else if (a === "--ksy-json") ksyJson = args[++i];
  else if (a === "--debug") debug = true;
  else if (a.startsWith("-")) usage(`unknown option ${a}`);
  else specs.push(a);
}
if (!target || !outDir || specs.length === 0) usage("missing -t, -d or specs");
if (!["python", "javascript"].includes(target)) usage(`unsupported target ${target}`);
if (!["webide", "kaitai"].includes(importMode)) usage(`--imports must be webide or kaitai, not ${importMode}`);

const require = createRequire(modulesDir ? path.join(path.resolve(modulesDir), "..", "ksc.js") : import.meta.url);
const compiler = require("kaitai-struct-compiler");
const { load, CORE_SCHEMA } = require("js-yaml");
const parsed = {};  // spec id -> the parsed spec, for --ksy-json

function readYaml(file) {
  const doc = load(fs.readFileSync(file, "utf8"), { schema: CORE_SCHEMA, filename: file });
  const id = doc && doc.meta && doc.meta.id;
  if (id && !(id in parsed)) parsed[id] = doc;
  return doc;
}

function importerFor(specFile) {
  const baseDir = path.dirname(specFile);
  return {
    importYaml(name, mode) {
      if (importMode === "kaitai") {
        const candidates = mode === "abs"
          ? includeDirs.map((d) => path.join(d, `${name}.ksy`))
          : [path.join(baseDir, `${name}.ksy`), ...includeDirs.map((d) => path.join(d, `${name}.ksy`))];
        const hit = candidates.find((c) => fs.existsSync(c));
        if (hit) return Promise.resolve(readYaml(hit));
        return Promise.reject(new Error(`import '${mode === "abs" ? "/" : ""}${name}' not found; tried ${candidates.join(", ")}` +
          (mode === "abs" && includeDirs.length === 0 ? " (absolute imports resolve against the -I folders: pass one)" : "")));
      }
      if (mode !== "abs" && name.includes("/")) {
        return Promise.reject(new Error(
          `import '${name}': the Kaitai Web IDE stores uploaded specs by bare file name and does not resolve ` +
          `'..' or folders in imports, so it could never find this one; import '${path.posix.basename(name)}' ` +
          "and pass its folder with -I"));
      }
      const candidates = mode === "abs"
        ? includeDirs.map((d) => path.join(d, `${name}.ksy`))
        : [path.join(baseDir, `${name}.ksy`), ...includeDirs.map((d) => path.join(d, `${name}.ksy`))];
      const found = [...new Map(candidates.filter((c) => fs.existsSync(c)).map((c) => [path.resolve(c), c])).values()];
      if (mode !== "abs" && new Set(found.map((c) => fs.readFileSync(c, "utf8"))).size > 1) {
        return Promise.reject(new Error(
          `import '${name}' is ambiguous: ${found.join(", ")} differ, and the Web IDE's flat storage can hold only one ${name}.ksy`));
      }
      if (found.length) return Promise.resolve(readYaml(found[0]));
      return Promise.reject(new Error(`import '${name}' (${mode}) not found; tried ${candidates.join(", ")}`));
    },
  };
}

// Collect (src_path -> [field path, rule, width]) for every validated attribute.
const PRIMITIVE_WIDTH = { u1: 1, s1: 1, u2: 2, s2: 2, u4: 4, s4: 4, u8: 8, s8: 8, f4: 4, f8: 8 };
function widthOf(attr) {
  if (attr.contents !== undefined) {
    const c = attr.contents;
    if (typeof c === "string") return Buffer.byteLength(c, "utf8");
    if (Array.isArray(c)) return c.reduce((n, x) => n + (typeof x === "string" ? Buffer.byteLength(x, "utf8") : 1), 0);
  }
  if (typeof attr.size === "number") return attr.size;
  if (typeof attr.type === "string") {
    const t = attr.type.replace(/(le|be)$/, "");
    if (PRIMITIVE_WIDTH[t] !== undefined) return PRIMITIVE_WIDTH[t];
  }
  return null;
}

function attrTypes(a) {
  if (typeof a.type === "string") return [a.type.replace(/\(.*$/, "")];
  if (a.type && a.type.cases) return Object.values(a.type.cases).map((t) => String(t).replace(/\(.*$/, ""));
  return [];
}

// Field paths follow attribute names from the root (`tail.flags.reserved1`); a type
// reached by no attribute keeps its type name.
function collectRules(specId, root, out) {
  const defs = {};  // type name -> [node, kaitai src prefix]
  (function gather(node, prefix) {
    for (const [name, sub] of Object.entries(node.types || {})) {
      if (!(name in defs)) defs[name] = [sub, `${prefix}/types/${name}`];
      gather(sub, `${prefix}/types/${name}`);
    }
  })(root, "");
  const pathOf = { "": [] };
  const queue = [[root, []]];
  const seen = new Set();
  while (queue.length) {
    const [node, p] = queue.shift();
    const attrs = [...(node.seq || []).map((a) => [a.id, a]), ...Object.entries(node.instances || {})];
    for (const [id, a] of attrs) {
      for (const t of attrTypes(a)) {
        if (t in defs && !seen.has(t)) {
          seen.add(t);
          pathOf[t] = [...p, id];
          queue.push([defs[t][0], pathOf[t]]);
        }
      }
    }
  }
  const emit = (node, typePath, srcPrefix) => {
    (node.seq || []).forEach((attr, i) => {
      if (attr.valid !== undefined || attr.contents !== undefined) {
        const field = [...typePath, attr.id].join(".");
        out[`${srcPrefix}/seq/${i}`] = [field, attr["-lakestruct-rule"] || `${specId}.${field}`, widthOf(attr)];
      }
    });
    for (const [name, inst] of Object.entries(node.instances || {})) {
      if (inst.valid !== undefined || inst.contents !== undefined) {
        const field = [...typePath, name].join(".");
        out[`${srcPrefix}/instances/${name}`] = [field, inst["-lakestruct-rule"] || `${specId}.${field}`, widthOf(inst)];
      }
    }
  };
  emit(root, [], "");
  for (const [name, [node, prefix]] of Object.entries(defs)) emit(node, pathOf[name] || [name], prefix);
}

function pyLiteral(v) {
  if (v === null) return "None";
  if (typeof v === "number") return String(v);
  return JSON.stringify(v);
}

fs.mkdirSync(outDir, { recursive: true });
const rules = {};
let failed = false;
for (const spec of specs) {
  let yaml;
  try {
    yaml = readYaml(spec);
    const files = await compiler.compile(target, yaml, importerFor(spec), debug);
    const produced = new Set(Object.keys(files));
    for (const [name, source] of Object.entries(files)) {
      let text = source;
      if (target === "python" && pyPackage) {
        text = text.replace(/^import ([a-z_][a-z0-9_]*)$/gm, (line, mod) =>
          produced.has(`${mod}.py`) ? `from ${pyPackage} import ${mod}` : line);
      }
      fs.writeFileSync(path.join(outDir, name), text);
    }
    const specId = yaml.meta && yaml.meta.id;
    if (specId) {
      const out = {};
      collectRules(specId, yaml, out);
      rules[specId] = out;
    }
  } catch (e) {
    const msg = e && e.getMessage ? e.getMessage() : (e && e.message) || String(e);
    process.stderr.write(`${spec}: ${msg}\n`);
    failed = true;
    break;
  }
}

if (!failed && ksyJson) {
  const main = specs.map((s) => { const d = readYaml(s); return d && d.meta && d.meta.id; });
  fs.writeFileSync(ksyJson, JSON.stringify({ main, specs: parsed }));
}

if (!failed && rulesFile) {
  const lines = [
    '"""Validation rules of every spec, extracted from formats/**/*.ksy by tools/ksc.mjs. Do not edit."""',
    "",
    "# spec id -> {kaitai src_path: (field path, rule name, field width in bytes or None)}",
    "RULES: dict[str, dict[str, tuple[str, str, int | None]]] = {",
  ];
  for (const specId of Object.keys(rules).sort()) {
    lines.push(`    ${JSON.stringify(specId)}: {`);
    for (const src of Object.keys(rules[specId]).sort()) {
      const [field, rule, width] = rules[specId][src];
      lines.push(`        ${JSON.stringify(src)}: (${JSON.stringify(field)}, ${JSON.stringify(rule)}, ${pyLiteral(width)}),`);
    }
    lines.push("    },");
  }
  lines.push("}", "");
  fs.writeFileSync(rulesFile, lines.join("\n"));
}
process.exit(failed ? 1 : 0);
