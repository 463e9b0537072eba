#!/usr/bin/env bash
# CI check: rebuilds the engine from the pinned Debian sources with the pinned toolchain and
# fails when the result differs from the committed codecs/dist/engine.wasm. The build is
# bit-reproducible (sorted inputs, -ffile-prefix-map, no timestamps), so a byte comparison
# is the whole check; it takes about a minute on two cores.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

ENGINE_OUT_DIR=$OUT bash "$HERE/build.sh"
if ! cmp -s "$OUT/engine.wasm" "$HERE/dist/engine.wasm"; then
  echo "codecs/dist/engine.wasm differs from what codecs/build.sh builds:" >&2
  echo "  committed $(sha256sum <"$HERE/dist/engine.wasm" | cut -d' ' -f1)" >&2
  echo "  rebuilt   $(sha256sum <"$OUT/engine.wasm" | cut -d' ' -f1)" >&2
  echo "Run bash codecs/build.sh and commit codecs/dist, or fix the build." >&2
  exit 1
fi
diff -u "$HERE/dist/manifest.json" "$OUT/manifest.json"
echo "codecs/dist/engine.wasm is what codecs/build.sh builds ($(sha256sum <"$OUT/engine.wasm" | cut -d' ' -f1))"
