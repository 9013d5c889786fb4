#!/usr/bin/env bash
# Builds the app's wasm split into modules (trunk's pre_build hook; trunk itself skips Rust):
#   cargo (the final link keeps its relocations) → wasm-split-cli (each `#[wasm_split]` point
#   and the code only it reaches into its own module; code shared by several into chunk_N) →
#   merge-chunks.mjs (those chunks into a few files) → wasm-bindgen → wasm-opt -Oz on every module (release).
# Output: target/split-out/<version>/ (the modules, the JS glue, the split loader) and
# target/split-out/boot.js, which starts that version; index.html copies the folder to /pkg.
# The modules load each other by fixed names relative to the loader, so every build gets a new
# folder named by its content: a phone never mixes modules of two builds.
# Why not trunk's own pipeline: trunk 0.21 runs cargo → wasm-bindgen → wasm-opt with no step
# between (trunk issue 1022), and the split must run between cargo and wasm-bindgen.
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=rollsheet
OUT=target/split-out
PROFILE=${TRUNK_PROFILE:-release}
if [ "$PROFILE" = release ]; then FLAG=--release; else FLAG=; fi

cargo rustc $FLAG --locked --features split --target wasm32-unknown-unknown --bin "$NAME" -- -Clink-arg=--emit-relocs
IN=target/wasm32-unknown-unknown/$PROFILE/$NAME.wasm
SPLIT=$(mktemp -d)
STAGE=$(mktemp -d)
trap 'rm -rf "$SPLIT" "$STAGE"' EXIT
wasm-split-cli "$IN" "$SPLIT" --out-name "$NAME"
# Its sixty small shared chunks merged into a few files (the script says how it groups them).
node scripts/merge-chunks.mjs "$SPLIT"
wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle \
  --out-dir "$STAGE" --out-name "$NAME" "$SPLIT/$NAME.wasm"
find "$SPLIT" -maxdepth 1 \( -name 'split_*.wasm' -o -name 'chunk_*.wasm' -o -name '__wasm_split.js' \) \
  -exec cp {} "$STAGE/" \;
# The split loader takes the answers index.html's first script has already asked for (the
# modules the opening page needs, asked for while the shell paints) instead of asking again.
LOADER="$STAGE/__wasm_split.js"
sed -i -e 's|fetch(new URL(|rollsheetFetch(new URL(|' \
  -e 's|WebAssembly.instantiateStreaming(src, imports)|rollsheetInstantiate(src, imports)|' "$LOADER"
if ! grep -q 'rollsheetFetch(new URL("./split_' "$LOADER" || ! grep -q 'rollsheetInstantiate(src, imports)' "$LOADER" \
  || grep -q 'WebAssembly.instantiateStreaming' "$LOADER"; then
  echo "build-wasm: the split loader's fetch or instantiateStreaming changed: update this patch" >&2
  exit 1
fi
cat >> "$LOADER" <<'JS'
// (scripts/build-wasm.sh) A module index.html's first script has asked for (compiled), or a
// new fetch; and either instantiated.
function rollsheetFetch(url) {
  return (self.rollsheetTake && self.rollsheetTake(url.pathname)) || fetch(url);
}
function rollsheetInstantiate(src, imports) {
  return Promise.resolve(src).then((got) =>
    got instanceof WebAssembly.Module
      ? WebAssembly.instantiate(got, imports).then((instance) => ({ instance, module: got }))
      : WebAssembly.instantiateStreaming(got, imports));
}
JS
if [ "$PROFILE" = release ]; then
  # One module at a time: the machine's cores go to each run's own threads. The producers and
  # target-features sections are for linkers and tools, never read by a browser.
  # --low-memory-unused: the first 1 KB of memory is never an address the app uses (rustc's
  # layout puts the 1 MB stack first, growing down to it, and the data above it), so wasm-opt may
  # fold constant offsets into loads and stores (the fights' module: −1.1 KB brotli).
  for f in "$STAGE"/*.wasm; do wasm-opt -Oz --converge --low-memory-unused --strip-producers --strip-target-features "$f" -o "$f"; done
fi
VERSION=$(cd "$STAGE" && find . -type f | sort | xargs sha256sum | sha256sum | cut -c1-16)
rm -rf "$OUT"
mkdir -p "$OUT"
cp -r "$STAGE" "$OUT/$VERSION"
chmod 755 "$OUT/$VERSION"
cat > "$OUT/boot.js" <<JS
// Starts this build's app (scripts/build-wasm.sh writes this file): its wasm as index.html's
// first script has asked for it once the shell has painted (scripts/precache.mjs writes the
// path there), or fetched here. A hidden tab paints no frame: then it asks at once. The glue
// is imported, not loaded on demand: one module graph, evaluated at once when it is here.
import init from "./$VERSION/$NAME.js";
if (document.hidden && self.rollsheetAsk) self.rollsheetAsk();
const url = new URL("./$VERSION/${NAME}_bg.wasm", import.meta.url);
Promise.resolve(self.rollsheetReady).then(() =>
  init({ module_or_path: (self.rollsheetTake && self.rollsheetTake(url.pathname)) || fetch(url) }));
JS
echo "build-wasm: $OUT/$VERSION: $(ls "$OUT/$VERSION" | tr '\n' ' ')"
