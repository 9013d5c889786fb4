#!/usr/bin/env node
// Merges wasm-split's shared chunks into a few files (scripts/build-wasm.sh, between the split
// and wasm-bindgen). wasm-split-cli writes one chunk for every set of split points that share
// code: with a module per system's sheet, the fights and the other pages that is some sixty
// chunks, most under 1 KB, and a sheet's first visit asked for 27 files. Each file costs a
// request (headers, a round trip on a phone's six connections) and a compile and instantiate
// on the main thread.
//
// Grouping: greedily merge the two groups whose merge saves the most, where every split point
// that needs any chunk of a group downloads all of it. Merging saves FILE_COST for each split
// point that needed both and costs the other's bytes for each that needed only one; it stops
// when no merge saves anything. No chunk is copied into two files: instantiating code twice
// would run its data segments twice (a mutable static reset).
//
// Merging: every module wasm-split writes imports the same three things (memory, table, stack
// pointer) from "__wasm_split" and nothing else. The first module of a group re-exports them,
// the others import them from it, and binaryen's wasm-merge links them into one module whose
// element and data segments stay where they were. The loader (__wasm_split.js) then names the
// group's first chunk for each of its members.
// Usage: node scripts/merge-chunks.mjs DIR   (DIR: wasm-split-cli's output, edited in place)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// What one more file costs a split point, in bytes of wasm before wasm-opt and brotli. Measured
// (modules after wasm-opt, brotli; heimr sheet's path / files, all modules): 4 KB 81.1 / 11,
// 356.0; 8 KB 86.1 / 8, 350.4; 16 KB 83.8 / 6, 348.1; 32 KB 82.4 / 3, 344.1. (Without merging,
// 85.0 / 27 and 361.) With the live table out of the main module (55 chunks): 32 KB 84.8 / 3,
// 676.5; 64 KB 80.3 / 2, 670.8. With the encounter engine and the list of fights out of it too
// (59 chunks): 64 KB 86.7 / 3, 674.1; 96 KB 83.9 / 2, 671.3; 128 KB (the engine alone) 106.4 / 2,
// 670.6. MERGE_FILE_COST overrides it, to measure.
const FILE_COST = Number(process.env.MERGE_FILE_COST || 98304);

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
};
const name = (s) => Buffer.concat([uleb(Buffer.byteLength(s)), Buffer.from(s)]);

function reader(buf) {
  let p = 0;
  const r = {
    get pos() { return p; },
    set pos(v) { p = v; },
    byte: () => buf[p++],
    leb() {
      let v = 0, shift = 0, b;
      do { b = buf[p++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
      return v;
    },
    str() { const n = r.leb(); const s = buf.toString("utf8", p, p + n); p += n; return s; },
  };
  return r;
}

function sections(buf) {
  const r = reader(buf);
  r.pos = 8;
  const out = [];
  while (r.pos < buf.length) {
    const id = r.byte();
    const size = r.leb();
    out.push({ id, body: buf.subarray(r.pos, r.pos + size) });
    r.pos += size;
  }
  return out;
}

// The magic number and version 1, then the sections.
const assemble = (secs) =>
  Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), ...secs.map((s) => Buffer.concat([Buffer.from([s.id]), uleb(s.body.length), s.body]))]);

/** The import section's entries (module, field, kind, the rest as bytes). */
function imports(body) {
  const r = reader(body);
  const list = [];
  for (let n = r.leb(); n > 0; n--) {
    const mod = r.str(), field = r.str(), start = r.pos, kind = r.byte();
    if (kind === 1) { r.byte(); const f = r.leb(); r.leb(); if (f & 1) r.leb(); }
    else if (kind === 2) { const f = r.leb(); r.leb(); if (f & 1) r.leb(); }
    else if (kind === 3) { r.byte(); r.byte(); }
    else throw new Error(`merge-chunks: a function import (kind ${kind}): not a wasm-split chunk`);
    list.push({ mod, field, kind, desc: body.subarray(start, r.pos) });
  }
  return list;
}

/** Merges the modules `files` into `out`. */
function merge(files, out, wasmMerge) {
  const tmp = mkdtempSync(join(tmpdir(), "merge-chunks-"));
  try {
    const args = [];
    const read = files.map((file) => {
      const secs = sections(readFileSync(file));
      const imp = secs.find((s) => s.id === 2);
      const list = imports(imp.body);
      const kinds = new Set(list.map((x) => x.kind));
      if (list.some((x) => x.mod !== "__wasm_split") || kinds.size !== list.length) {
        throw new Error(`merge-chunks: ${file} imports more than the split's memory, table and stack pointer`);
      }
      return { file, secs, imp, list };
    });
    // The first re-exports what every other imports (some need no stack pointer).
    read.sort((a, b) => b.list.length - a.list.length);
    const shared = new Set(read[0].list.map((x) => x.field));
    for (const m of read) for (const x of m.list) if (!shared.has(x.field)) throw new Error(`merge-chunks: ${m.file}: ${x.field} is not imported by ${read[0].file}`);
    read.forEach(({ file, secs, imp, list }, i) => {
      const exp = secs.find((s) => s.id === 7);
      if (exp && exp.body[0] !== 0) throw new Error(`merge-chunks: ${file} exports something`);
      const others = secs.filter((s) => s.id !== 7);
      if (i === 0) {
        // Re-export the shared imports (each is index 0 of its kind) for the others to take.
        const body = Buffer.concat([uleb(list.length), ...list.map((x) => Buffer.concat([name(x.field), Buffer.from([x.kind, 0])]))]);
        const at = others.findIndex((s) => s.id > 7 && s.id !== 0 && s.id !== 12);
        others.splice(at < 0 ? others.length : at, 0, { id: 7, body });
      } else {
        imp.body = Buffer.concat([uleb(list.length), ...list.map((x) => Buffer.concat([name("m0"), name(x.field), x.desc]))]);
      }
      const path = join(tmp, `m${i}.wasm`);
      writeFileSync(path, assemble(others));
      args.push(path, `m${i}`);
    });
    try {
      execFileSync(wasmMerge, [...args, "-o", out, "--debuginfo"], { stdio: "pipe" });
    } catch (e) {
      if (e.code === "ENOENT") throw new Error(`merge-chunks: no ${wasmMerge} (binaryen's, from npm: run scripts/setup.sh)`);
      throw new Error(`merge-chunks: wasm-merge failed on ${files.join(" ")}:\n${e.stderr}`);
    }
    // The re-exports were for the merge only.
    writeFileSync(out, assemble(sections(readFileSync(out)).filter((s) => s.id !== 7)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Groups of chunk numbers: the greedy merge described above. */
function group(chunks, splits) {
  // chunks: Map<n, {size, users:Set<split>}>; splits: the split points' names.
  let groups = [...chunks].map(([n, c]) => ({ members: [n], size: c.size, users: new Set(c.users) }));
  const saving = (a, b) => {
    let s = 0;
    for (const p of splits) {
      const inA = a.users.has(p), inB = b.users.has(p);
      if (inA && inB) s += FILE_COST;
      else if (inA) s -= b.size;
      else if (inB) s -= a.size;
    }
    return s;
  };
  for (;;) {
    let best = 0, bi = -1, bj = -1;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const s = saving(groups[i], groups[j]);
        if (s > best) [best, bi, bj] = [s, i, j];
      }
    }
    if (bi < 0) return groups.map((g) => g.members.sort((x, y) => x - y));
    const a = groups[bi], b = groups[bj];
    groups.splice(bj, 1);
    groups[bi] = { members: [...a.members, ...b.members], size: a.size + b.size, users: new Set([...a.users, ...b.users]) };
  }
}

function main(dir) {
  const loaderPath = join(dir, "__wasm_split.js");
  let loader = readFileSync(loaderPath, "utf8");
  const chunkDef = /\/\* ([\w, ]+) \*\/\nconst __chunk_(\d+) = makeLoad\(\(\) => \{\n[\s\S]*?\n\}\n, \[\]\);\n/g;
  const chunks = new Map();
  for (const m of loader.matchAll(chunkDef)) {
    chunks.set(Number(m[2]), { size: statSync(join(dir, `chunk_${m[2]}.wasm`)).size, users: new Set(m[1].split(", ")), def: m[0] });
  }
  const splits = [...loader.matchAll(/export const __wasm_split_load_(\w+) = /g)].map((m) => m[1]);
  const files = loader.match(/"\.\/chunk_\d+\.wasm"/g) || [];
  if (!chunks.size || chunks.size !== files.length || !splits.length) {
    throw new Error(`merge-chunks: ${loaderPath}: read ${chunks.size} chunks of ${files.length}, ${splits.length} split points (its format changed?)`);
  }
  for (const c of chunks.values()) for (const u of c.users) if (!splits.includes(u)) throw new Error(`merge-chunks: chunk used by ${u}, no such split point`);
  const wasmMerge = process.env.WASM_MERGE || "wasm-merge";
  const groups = group(chunks, splits);
  // A member becomes `const __chunk_M = __chunk_L;`, L the group's smallest number: the loader
  // must define its chunks in ascending order, L above M.
  const order = [...chunks.keys()];
  if (order.some((n, i) => i > 0 && n < order[i - 1])) {
    throw new Error("merge-chunks: the split loader does not define its chunks in order (its format changed?)");
  }
  const leader = new Map();
  for (const members of groups) {
    const [first, ...rest] = members;
    for (const n of members) leader.set(n, first);
    if (!rest.length) continue;
    const out = join(dir, `chunk_${first}.wasm`);
    merge(members.map((n) => join(dir, `chunk_${n}.wasm`)), out + ".merged", wasmMerge);
    for (const n of rest) unlinkSync(join(dir, `chunk_${n}.wasm`));
    renameSync(out + ".merged", out);
    // The group's first chunk loads the file; the others are the same load.
    const users = [...new Set(members.flatMap((n) => [...chunks.get(n).users]))].sort();
    loader = loader.replace(chunks.get(first).def, chunks.get(first).def.replace(/^\/\* [\w, ]+ \*\//, `/* ${users.join(", ")} */`));
    for (const n of rest) loader = loader.replace(chunks.get(n).def, `const __chunk_${n} = __chunk_${first};\n`);
  }
  // Each split point waits for each file once.
  loader = loader.replace(/, \[((?:__chunk_\d+(?:, )?)+)\]\)\);/g, (_, list) => {
    const deps = [...new Set(list.split(", ").map((c) => leader.get(Number(c.slice(8)))))].sort((a, b) => a - b);
    return `, [${deps.map((n) => `__chunk_${n}`).join(", ")}]));`;
  });
  writeFileSync(loaderPath, loader);
  const per = splits.map((s) => `${s} ${new Set([...chunks].filter(([, c]) => c.users.has(s)).map(([n]) => leader.get(n))).size}`);
  console.log(`merge-chunks: ${chunks.size} chunks → ${groups.length} files; files per split point: ${per.join(", ")}`);
}

if (process.argv[1] && process.argv[1].endsWith("merge-chunks.mjs")) main(process.argv[2]);
