#!/usr/bin/env node
// A small static server for the built app, bound to 127.0.0.1: real paths fall back to
// index.html (the router handles them); nothing is cached by HTTP (the service worker caches).
// Files are read on every request, so a test may swap the directory's content between builds.
// Usage: node scripts/serve.mjs DIR PORT
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const root = process.argv[2] || "dist";
const port = Number(process.argv[3] || 8080);
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

createServer(async (req, res) => {
  let path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  if (path.endsWith("/")) path += "index.html";
  const headers = { "Cache-Control": "no-cache" };
  try {
    const body = await readFile(join(root, path));
    res.writeHead(200, { ...headers, "Content-Type": TYPES[extname(path)] || "application/octet-stream" });
    res.end(body);
  } catch {
    if (extname(path) === "") {
      // A page of the app: the single page answers it.
      const body = await readFile(join(root, "index.html"));
      res.writeHead(200, { ...headers, "Content-Type": TYPES[".html"] });
      res.end(body);
    } else {
      res.writeHead(404, headers);
      res.end("not found");
    }
  }
}).listen(port, "127.0.0.1", () => console.log(`Rollsheet: http://127.0.0.1:${port}/ (serving ${root})`));
