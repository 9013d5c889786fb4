#!/usr/bin/env node
// A small static server for the built app, bound to 127.0.0.1: real paths fall back to
// index.html (the router handles them); nothing is cached by HTTP (the service worker caches).
// Files are read on every request, so a test may swap the directory's content between builds.
//
// Compression as a real host does it: when the request accepts br (or else gzip) and the build
// has the precompressed FILE.br (FILE.gz, written by compress.mjs), that is sent with
// Content-Encoding and the original's Content-Type; every answer says Vary: Accept-Encoding.
// A variant is only sent while it decodes to the original's current bytes (checked once per
// change of either file), so a build whose FILE was rewritten after compression — or a copy
// caught half-way — is answered with the plain original instead of stale content.
//
// Usage: node scripts/serve.mjs DIR PORT   (PORT 0 picks a free port; the first line printed
// is always "Rollsheet: http://127.0.0.1:<port>/ (serving DIR)")
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { extname, join, normalize } from "node:path";

const root = process.argv[2] || "dist";
const port = Number(process.argv[3] ?? 8080);
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".ico": "image/x-icon",
};
const ENCODINGS = [
  { name: "br", suffix: ".br", decode: brotliDecompressSync },
  { name: "gzip", suffix: ".gz", decode: gunzipSync },
];

/** The encodings the client accepts (q > 0), from its Accept-Encoding header. */
function accepted(header = "") {
  const ok = new Set();
  let star = false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && !(parseFloat(q.slice(2)) > 0)) continue;
    if (name === "*") star = true;
    else if (name) ok.add(name);
  }
  return (enc) => ok.has(enc) || star;
}

// "<variant path>" → "<stat key of variant and original>" for variants checked to match.
const verified = new Map();
const statKey = (s) => `${s.mtimeMs}:${s.size}`;

/** The precompressed variant of `file` to send for this request, or null for the original. */
async function pickVariant(file, original, accepts) {
  for (const enc of ENCODINGS) {
    if (!accepts(enc.name)) continue;
    const variant = file + enc.suffix;
    let vstat, ostat;
    try {
      [vstat, ostat] = await Promise.all([stat(variant), stat(file)]);
    } catch {
      continue;
    }
    const key = statKey(vstat) + "|" + statKey(ostat);
    let body;
    try {
      body = await readFile(variant);
      if (verified.get(variant) !== key) {
        if (!enc.decode(body).equals(original)) continue; // stale: FILE changed after compression
        verified.set(variant, key);
      }
    } catch {
      continue;
    }
    return { encoding: enc.name, body };
  }
  return null;
}

async function send(req, res, file, type) {
  const original = await readFile(file);
  const variant = await pickVariant(file, original, accepted(req.headers["accept-encoding"]));
  const headers = { "Cache-Control": "no-cache", "Content-Type": type, Vary: "Accept-Encoding" };
  if (variant) headers["Content-Encoding"] = variant.encoding;
  const body = variant ? variant.body : original;
  headers["Content-Length"] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

const server = createServer(async (req, res) => {
  let path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  if (path.endsWith("/")) path += "index.html";
  const type = TYPES[extname(path)] || "application/octet-stream";
  try {
    if (!(await stat(join(root, path))).isFile()) throw new Error("not a file");
    await send(req, res, join(root, path), type);
  } catch {
    try {
      if (extname(path) !== "") throw new Error("not a page");
      // A page of the app: the single page answers it.
      await send(req, res, join(root, "index.html"), TYPES[".html"]);
    } catch {
      res.writeHead(404, { "Cache-Control": "no-cache", "Content-Type": "text/plain; charset=utf-8" });
      res.end("not found");
    }
  }
});
server.listen(port, "127.0.0.1", () =>
  console.log(`Rollsheet: http://127.0.0.1:${server.address().port}/ (serving ${root})`),
);
