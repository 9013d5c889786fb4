#!/usr/bin/env node
// Where the wasm bytes go: sums the code-section body size of every function of the release
// wasm *before* wasm-opt (it keeps a name section), grouped by a prefix of the demangled name.
// Usage: node scripts/wasm-sizes.mjs [WASM] [DEPTH]
//   WASM  defaults to target/wasm32-unknown-unknown/release/rollsheet.wasm
//   DEPTH how many `::` path segments to group by (default 2)
import { readFileSync } from "node:fs";

const file = process.argv[2] || "target/wasm32-unknown-unknown/release/rollsheet.wasm";
const depth = Number(process.argv[3] || 2);
const buf = readFileSync(file);
let pos = 8;
const leb = () => { let r = 0, s = 0, b; do { b = buf[pos++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return r; };
let imports = 0, bodies = [], names = new Map();
while (pos < buf.length) {
  const id = buf[pos++]; const size = leb(); const end = pos + size;
  if (id === 2) { // imports: count function imports (they shift function indices)
    const n = leb();
    for (let i = 0; i < n; i++) {
      pos += leb(); pos += leb(); const kind = buf[pos++];
      if (kind === 0) { leb(); imports++; } else if (kind === 1) { pos++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 3) { pos += 2; } else { pos++; leb(); }
    }
  } else if (id === 10) {
    const n = leb();
    for (let i = 0; i < n; i++) { const s = leb(); bodies.push(s); pos += s; }
  } else if (id === 0) {
    const nl = leb(); const name = buf.toString("utf8", pos, pos + nl); pos += nl;
    if (name === "name") {
      while (pos < end) {
        const sub = buf[pos++]; const ss = leb(); const se = pos + ss;
        if (sub === 1) { const n = leb(); for (let i = 0; i < n; i++) { const idx = leb(); const l = leb(); names.set(idx, buf.toString("utf8", pos, pos + l)); pos += l; } }
        pos = se;
      }
    }
  }
  pos = end;
}
// Rust's legacy mangling: _ZN, then length-prefixed path segments, then E.
const demangle = (s) => {
  if (!s.startsWith("_ZN")) return s;
  const parts = [];
  let i = 3;
  while (i < s.length && s[i] !== "E") {
    let j = i; while (/[0-9]/.test(s[j])) j++;
    const n = Number(s.slice(i, j)); if (!n) break;
    parts.push(s.slice(j, j + n)); i = j + n;
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1) || "")) parts.pop();
  return parts.join("::").replace(/\$LT\$/g, "<").replace(/\$GT\$/g, ">").replace(/\$u20\$/g, " ").replace(/\$C\$/g, ",")
    .replace(/\$RF\$/g, "&").replace(/\$BP\$/g, "*").replace(/\$u7b\$/g, "{").replace(/\$u7d\$/g, "}").replace(/\.\./g, "::").replace(/^_</, "<");
};
const groups = new Map();
let total = 0;
bodies.forEach((size, i) => {
  total += size;
  let n = demangle(names.get(i + imports) || "?");
  // Trait impls: "<tachys::view::... as ...>::fn" → group by the implementing type's crate path.
  n = n.replace(/^</, "");
  const key = n.split("::").slice(0, depth).join("::").replace(/[^\w:<> ,]/g, "").slice(0, 70);
  groups.set(key, (groups.get(key) || 0) + size);
});
const rows = [...groups].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP || 40));
for (const [k, v] of rows) console.log(String((v / 1024).toFixed(1)).padStart(8) + " KB  " + k);
console.log(String((total / 1024).toFixed(1)).padStart(8) + " KB  total code (" + bodies.length + " functions)");
