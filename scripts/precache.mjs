#!/usr/bin/env node
// Trunk post_build hook (also run by the update e2e test on a copied build):
// writes the precache list and a content-hash version into sw.js, and the same version into
// index.html's <meta name="build-id">. Usage: node scripts/precache.mjs [DIR]
// (DIR defaults to $TRUNK_STAGING_DIR). Re-running on a processed directory is safe.
// Precompressed variants (FILE.br, FILE.gz from compress.mjs, the next hook) are neither
// precached nor hashed: the browser fetches FILE and the server picks the encoding. When this
// runs on a build that is already compressed (the update e2e test re-stamps a copied dist), it
// re-compresses the two files it rewrites so their variants never hold the old content.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isVariant, refreshVariants } from "./compress.mjs";
import { stripJs } from "./strip-js.mjs";

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("precache: no directory (pass one or run as a trunk hook)");
  process.exit(1);
}

function walk(d) {
  return readdirSync(d).flatMap((name) => {
    const p = join(d, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// Every script without its comments and indentation (strip-js.mjs: 1.7 KB of brotli), before
// the version is hashed. Idempotent: a re-run writes nothing.
for (const p of walk(dir).filter((p) => p.endsWith(".js"))) {
  const text = readFileSync(p, "utf8");
  const out = stripJs(text);
  if (out !== text) writeFileSync(p, out);
}

// The stylesheet as the phone downloads it, in index.html (trunk inlines it): comments and
// layout whitespace out (0.6 KB of brotli); its hash goes into the policy below. Idempotent.
export function minifyCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*([{};,>])\s*/g, "$1")
    .replace(/:\s+/g, ":")
    .replace(/;}/g, "}")
    .trim();
}
{
  const indexFile = join(dir, "index.html");
  const html = readFileSync(indexFile, "utf8");
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
  if (styles.length !== 1) throw new Error(`index.html has ${styles.length} <style> elements, not the one inlined stylesheet`);
  writeFileSync(indexFile, html.replace(styles[0][0], `<style>${minifyCss(styles[0][1])}</style>`));
}

// The app's scripts fetched at once, while the page is read, not one after another as each
// finds the next (boot.js → the glue → its imports): most of a later visit's wait, the
// service worker answering each in turn at 4× CPU. Before the first script, which asks for
// the modules. Idempotent.
{
  const indexFile = join(dir, "index.html");
  let html = readFileSync(indexFile, "utf8").replace(/[ \t]*<link rel="(?:modulepreload|preload)" href="\/pkg\/[^>]*>\n?/g, "");
  const pkg = join(dir, "pkg");
  const version = readdirSync(pkg).find((n) => statSync(join(pkg, n)).isDirectory());
  if (!version) throw new Error("no pkg/<version>/ in the build (scripts/build-wasm.sh)");
  const glue = readFileSync(join(pkg, version, "rollsheet.js"), "utf8");
  const imports = [...new Set([...glue.matchAll(/^import .* from ["']\.\/([^"']+)["'];?$/gm)].map((m) => m[1]))];
  if (!imports.includes("__wasm_split.js")) throw new Error("precache: the glue does not import __wasm_split.js (its format changed?)");
  const scripts = ["/pkg/boot.js", ...["rollsheet.js", ...imports].map((f) => `/pkg/${version}/${f}`)];
  for (const f of scripts) if (!statSync(join(dir, f), { throwIfNoEntry: false })) throw new Error(`precache: ${f} is not in the build`);
  const links = scripts.map((f) => `<link rel="modulepreload" href="${f}">\n`).join("");
  // (the page's first script is the one that asks for the modules)
  const FIRST = /\n( *)<script>/;
  if (!FIRST.test(html) || !html.includes("rollsheetAsked")) throw new Error("index.html lacks the first script");
  html = html.replace(FIRST, (first, indent) => `\n${links.replace(/^/gm, indent).trimEnd()}${first}`);
  // The first script's list: the wasm's folder, and per split point (a rule system, "pages")
  // the shared chunks its loader in the split loader fetches beside split_<name>.wasm.
  const loader = readFileSync(join(pkg, version, "__wasm_split.js"), "utf8");
  const split = {};
  for (const m of loader.matchAll(/export const __wasm_split_load_(\w+) = [\s\S]*?new URL\("\.\/([\w.]+)"[\s\S]*?, \[([^\]]*)\]\)\);/g)) {
    if (m[2] !== `split_${m[1]}.wasm`) throw new Error(`precache: split point ${m[1]} loads ${m[2]}`);
    split[m[1]] = m[3].split(",").map((c) => c.trim()).filter(Boolean).map((c) => Number(/^__chunk_(\d+)$/.exec(c)[1]));
    for (const f of [m[2], ...split[m[1]].map((n) => `chunk_${n}.wasm`)]) {
      if (!statSync(join(pkg, version, f), { throwIfNoEntry: false })) throw new Error(`precache: the split loader names ${f}, not in the build`);
    }
  }
  if (!split.pages) throw new Error("precache: no split point 'pages' found in __wasm_split.js (its format changed?)");
  const LIST = /var m = \{.*\};/;
  if (!LIST.test(html)) throw new Error("index.html lacks the first script's module list (var m = {...};)");
  html = html.replace(LIST, `var m = ${JSON.stringify({ pkg: `/pkg/${version}/`, split })};`);
  writeFileSync(indexFile, html);
}

// The page as the phone downloads it: its comments (for whoever reads index.html) out, the
// HTML ones and the inline scripts' whole-line ones. Idempotent.
{
  const indexFile = join(dir, "index.html");
  const html = readFileSync(indexFile, "utf8")
    .replace(/[ \t]*<!--[\s\S]*?-->\n?/g, "")
    .replace(/(<script>)([\s\S]*?)(<\/script>)/g, (_, open, body, close) => open + body.replace(/^[ \t]*\/\/.*\n/gm, "") + close);
  writeFileSync(indexFile, html);
}

const BUILD_ID = /<meta name="build-id" content="[^"]*">/;
const files = walk(dir)
  .map((p) => "/" + relative(dir, p).split(sep).join("/"))
  .filter((f) => f !== "/sw.js" && !isVariant(f))
  .sort();

// The version hashes every file's path and content; index.html without its own build-id.
const hash = createHash("sha256");
for (const f of files) {
  let body = readFileSync(join(dir, f));
  // (without its build-id and its policy's hashes, which are written below from the rest)
  if (f === "/index.html") body = Buffer.from(body.toString("utf8").replace(BUILD_ID, "").replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ""));
  hash.update(f).update("\0").update(body).update("\0");
}
const version = hash.digest("hex").slice(0, 16);

const indexPath = join(dir, "index.html");
let index = readFileSync(indexPath, "utf8");
if (!BUILD_ID.test(index)) throw new Error("index.html lacks <meta name=\"build-id\">");
index = index.replace(BUILD_ID, `<meta name="build-id" content="${version}">`);
// The Content-Security-Policy allows each inline script and the inline stylesheet by the hash
// of its exact text: the theme script, the first script (whose module list changes with every
// build) and the stylesheet.
const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const inline = [...index.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]));
const styles = [...index.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]));
const CSP = /(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self' 'wasm-unsafe-eval')( '[^;"]*)?;/;
const STYLE_CSP = /(<meta http-equiv="Content-Security-Policy" content="[^"]*style-src 'self')( '[^;"]*)?;/;
if (!CSP.test(index) || !STYLE_CSP.test(index)) throw new Error("index.html lacks the Content-Security-Policy meta (script-src and style-src)");
index = index.replace(CSP, `$1 ${inline.join(" ")};`).replace(STYLE_CSP, `$1 ${styles.join(" ")};`);
writeFileSync(indexPath, index);

const swPath = join(dir, "sw.js");
const sw = readFileSync(swPath, "utf8")
  .replace(/^const VERSION = .*;$/m, `const VERSION = ${JSON.stringify(version)};`)
  .replace(/^const PRECACHE = .*;$/m, `const PRECACHE = ${JSON.stringify(files)};`);
if (!sw.includes(version) || sw.includes("__ROLLSHEET_")) throw new Error("sw.js placeholders not replaced");
writeFileSync(swPath, sw);
await Promise.all([refreshVariants(indexPath), refreshVariants(swPath)]);
console.log(`precache: version ${version}, ${files.length} files`);
