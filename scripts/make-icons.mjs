#!/usr/bin/env node
// Draws the app icons (a d20 silhouette) and writes them as PNG into public/icons.
// Run once when the design changes; the PNGs are committed. Usage: node scripts/make-icons.mjs
import { deflateSync } from "node:zlib";
import { writeFileSync, mkdirSync } from "node:fs";

const BG = [0x15, 0x17, 0x1c];
const FG = [0xe8, 0xa3, 0x3d];

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
// An indexed-colour PNG (a palette of the few RGBA values the drawing uses): a fraction of
// the bytes of true colour, and every phone downloads these icons.
function png(size, pixel) {
  const palette = new Map();
  const raw = Buffer.alloc(size * (size + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const key = pixel(x, y).join(",");
      if (!palette.has(key)) palette.set(key, palette.size);
      raw[y * (size + 1) + 1 + x] = palette.get(key);
    }
  }
  if (palette.size > 256) throw new Error(`too many colours: ${palette.size}`);
  const entries = [...palette.keys()].map((k) => k.split(",").map(Number));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("PLTE", Buffer.from(entries.flatMap(([r, g, b]) => [r, g, b]))),
    chunk("tRNS", Buffer.from(entries.map(([, , , a]) => a))),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// Convex polygon test: inside when on the same side of every edge (either winding).
const inside = (poly, x, y) => {
  const sides = poly.map(([ax, ay], i) => {
    const [bx, by] = poly[(i + 1) % poly.length];
    return Math.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax));
  });
  return sides.every((s) => s >= 0) || sides.every((s) => s <= 0);
};
const hexagon = (r) => Array.from({ length: 6 }, (_, i) => [r * Math.cos(-Math.PI / 2 - (i * Math.PI) / 3), r * Math.sin(-Math.PI / 2 - (i * Math.PI) / 3)]);
const triangle = (r) => Array.from({ length: 3 }, (_, i) => [r * Math.cos(-Math.PI / 2 + (i * 2 * Math.PI) / 3), r * Math.sin(-Math.PI / 2 + (i * 2 * Math.PI) / 3)]);

function icon(size, { maskable }) {
  const scale = maskable ? 0.34 : 0.4; // maskable: keep the die inside the 40 % safe circle
  const hex = hexagon(size * scale);
  const tri = triangle(size * scale * 0.55).map(([x, y]) => [x, y + size * scale * 0.1]);
  const corner = maskable ? 0 : size * 0.22;
  const S = 4; // 4×4 supersampling
  return png(size, (px, py) => {
    let bg = 0, fg = 0;
    for (let sy = 0; sy < S; sy++)
      for (let sx = 0; sx < S; sx++) {
        const x = px + (sx + 0.5) / S, y = py + (sy + 0.5) / S;
        const dx = Math.max(corner - x, x - (size - corner), 0), dy = Math.max(corner - y, y - (size - corner), 0);
        if (corner && dx * dx + dy * dy > corner * corner) continue;
        const cx = x - size / 2, cy = y - size / 2;
        if (inside(hex, cx, cy) && !inside(tri, cx, cy)) fg++;
        else bg++;
      }
    // Coverage in steps of 1/8 keeps the palette small; edges stay smooth at icon sizes.
    const q = (v) => Math.round((v / (S * S)) * 8) * (S * S) / 8;
    bg = q(bg);
    fg = q(fg);
    const n = S * S, a = (bg + fg) / n;
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i) => Math.round((BG[i] * bg + FG[i] * fg) / (bg + fg));
    return [mix(0), mix(1), mix(2), Math.round(a * 255)];
  });
}

mkdirSync("public/icons", { recursive: true });
writeFileSync("public/icons/icon-192.png", icon(192, { maskable: false }));
writeFileSync("public/icons/icon-512.png", icon(512, { maskable: false }));
writeFileSync("public/icons/icon-maskable-512.png", icon(512, { maskable: true }));
console.log("icons written");
