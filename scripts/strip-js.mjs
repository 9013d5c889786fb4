// Drops what a browser never reads from the app's JS (the wasm-bindgen glue, the split loader,
// boot.js, the service worker and its registration, the inline snippets): JSDoc blocks,
// whole-line `//` comments, indentation and blank lines. Line breaks stay, so no statement is
// joined to the next; no file has a template literal or string spanning lines (checked: a
// line starting inside one would lose its indentation). Idempotent. Every e2e test that loads
// the app runs the stripped files. Used by precache.mjs on the built directory.
export function stripJs(text) {
  return text
    .replace(/\/\*\*[\s\S]*?\*\//g, "")
    .replace(/^[ \t]*\/\/.*\n/gm, "")
    .replace(/^[ \t]+/gm, "")
    .replace(/\n{2,}/g, "\n");
}
