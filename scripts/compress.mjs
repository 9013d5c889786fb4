#!/usr/bin/env node
// Trunk post_build hook, run after precache.mjs: writes FILE.br (brotli, quality 11) and
// FILE.gz (gzip, level 9) next to every compressible file of the build, as a real host would
// serve them (scripts/serve.mjs picks them by the request's Accept-Encoding). A variant that
// would not be smaller than its original is not written (and an old one is removed).
// Usage: node scripts/compress.mjs [DIR]   (DIR defaults to $TRUNK_STAGING_DIR)
//
// precache.mjs imports `refreshVariants` to re-compress the two files it rewrites (index.html
// and sw.js), so re-stamping an already compressed build keeps every variant in step.
import { brotliCompress, gzip, constants } from "node:zlib";
import { promisify } from "node:util";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const COMPRESSIBLE = new Set([".html", ".js", ".css", ".wasm", ".json", ".webmanifest", ".svg", ".txt"]);
/** The encodings written, with the file suffix each one uses. */
export const VARIANTS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
];

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** True for a written variant (`app.js.br`), which no list of the build's own files includes. */
export const isVariant = (path) => /\.(br|gz)$/.test(path);

export const isCompressible = (path) => !isVariant(path) && COMPRESSIBLE.has(extname(path).toLowerCase());

async function encode(encoding, body) {
  if (encoding === "br") {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_GENERIC,
      },
    });
  }
  return gz(body, { level: 9 });
}

/** Writes (or removes, when not worth it) FILE.br and FILE.gz for one file. Returns their sizes. */
export async function compressFile(path) {
  const body = readFileSync(path);
  const sizes = { raw: body.length };
  await Promise.all(
    VARIANTS.map(async ({ encoding, suffix }) => {
      const out = await encode(encoding, body);
      if (out.length < body.length) {
        writeFileSync(path + suffix, out);
        sizes[encoding] = out.length;
      } else {
        rmSync(path + suffix, { force: true });
      }
    }),
  );
  return sizes;
}

/** Re-compresses a file that was rewritten after compression, if it had been compressed before. */
export async function refreshVariants(path) {
  if (VARIANTS.some(({ suffix }) => existsSync(path + suffix))) await compressFile(path);
}

function walk(d) {
  return readdirSync(d).flatMap((name) => {
    const p = join(d, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Compresses every compressible file under `dir`, two at a time (brotli 11 is CPU bound). */
export async function compressDir(dir) {
  const files = walk(dir).filter(isCompressible);
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      results.push({ file: f, ...(await compressFile(f)) });
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error("compress: no directory (pass one or run as a trunk hook)");
    process.exit(1);
  }
  const t0 = Date.now();
  const results = await compressDir(dir);
  const sum = (k) => results.reduce((s, r) => s + (r[k] ?? r.raw), 0);
  console.log(
    `compress: ${results.length} files, ${(sum("raw") / 1024).toFixed(1)} KB → ` +
      `${(sum("br") / 1024).toFixed(1)} KB brotli, ${(sum("gzip") / 1024).toFixed(1)} KB gzip (${Date.now() - t0} ms)`,
  );
}
