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

// The stylesheet as the phone downloads it: comments and layout whitespace out (0.6 KB of
// brotli), its integrity attribute in index.html rewritten to match. Idempotent.
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
  let html = readFileSync(indexFile, "utf8");
  for (const m of html.matchAll(/<link rel="stylesheet" href="\/([^"]+\.css)" integrity="(sha384-[^"]+)"/g)) {
    const cssPath = join(dir, m[1]);
    const css = minifyCss(readFileSync(cssPath, "utf8"));
    writeFileSync(cssPath, css);
    const sri = `sha384-${createHash("sha384").update(css, "utf8").digest("base64")}`;
    html = html.replace(m[2], sri);
  }
  writeFileSync(indexFile, html);
}

// The app's JS glue fetched at once, beside boot.js, which would find it only once loaded
// (boot.js fetches the wasm itself, see build-wasm.sh). Idempotent.
{
  const indexFile = join(dir, "index.html");
  let html = readFileSync(indexFile, "utf8").replace(/<link rel="(?:modulepreload|preload)" href="\/pkg\/[^>]*>\n?/g, "");
  const pkg = join(dir, "pkg");
  const version = readdirSync(pkg).find((n) => statSync(join(pkg, n)).isDirectory());
  if (!version) throw new Error("no pkg/<version>/ in the build (scripts/build-wasm.sh)");
  const links = `<link rel="modulepreload" href="/pkg/${version}/rollsheet.js">\n`;
  html = html.replace("</head>", `${links}</head>`);
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
// The Content-Security-Policy allows each inline script by the hash of its exact text: the
// theme script and trunk's loader (whose file names change with every build).
const inline = [...index.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`,
);
const CSP = /(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self' 'wasm-unsafe-eval')( '[^;"]*)?;/;
if (!CSP.test(index)) throw new Error("index.html lacks the Content-Security-Policy meta");
index = index.replace(CSP, `$1 ${inline.join(" ")};`);
writeFileSync(indexPath, index);

const swPath = join(dir, "sw.js");
const sw = readFileSync(swPath, "utf8")
  .replace(/^const VERSION = .*;$/m, `const VERSION = ${JSON.stringify(version)};`)
  .replace(/^const PRECACHE = .*;$/m, `const PRECACHE = ${JSON.stringify(files)};`);
if (!sw.includes(version) || sw.includes("__ROLLSHEET_")) throw new Error("sw.js placeholders not replaced");
writeFileSync(swPath, sw);
await Promise.all([refreshVariants(indexPath), refreshVariants(swPath)]);
console.log(`precache: version ${version}, ${files.length} files`);
