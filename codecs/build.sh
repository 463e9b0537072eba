#!/usr/bin/env bash
# Builds codecs/dist/engine.wasm: libjpeg-turbo, libspng + zlib and libwebp from Debian
# bookworm source packages (pinned below by version and sha256), compiled with Debian's
# clang-14 + lld-14 + wasi-libc, linked with our glue in codecs/src. Sources are unpacked
# under codecs/.build (ignored by git), never committed.
#
#   bash codecs/build.sh              # build into codecs/dist
#   ENGINE_OUT_DIR=/tmp/x bash codecs/build.sh
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${ENGINE_BUILD_DIR:-$HERE/.build}
OUT=${ENGINE_OUT_DIR:-$HERE/dist}

# package=version, then the sha256 of every file apt-get source downloads for it.
PINS=(
  "libjpeg-turbo=1:2.1.5-2"
  "libspng=0.7.3-3"
  "zlib=1:1.2.13.dfsg-1"
  "libwebp=1.2.4-0.2+deb12u1"
)
SHA256SUMS='
d718ead0dfbcbc8523665c02a7f7152e31039ded641d022868722623bb3b486d  libjpeg-turbo_2.1.5-2.dsc
05f324accbf40d02f4d284047b9fb792e03481ede86c1425af01e4656c475028  libspng_0.7.3-3.dsc
3fa1e6b2fc525062aa88207dda52fed8e045373c809d362fe8a2bfbf7cf515a8  zlib_1.2.13.dfsg-1.dsc
d9ed0b59e2010f255c28d0869fd15b31f9b08aed757bfc91862d43aa9ec1aa99  libwebp_1.2.4-0.2+deb12u1.dsc
'

TOOL_PACKAGES="clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32 dpkg-dev"

# mozjpeg is not in Debian; the npm package mozjpeg@8.0.0 carries mozjpeg 3.2's sources.
# Only its encoder is built (trellis quantisation, optimised scans), with every global
# symbol prefixed so it links beside libjpeg-turbo.
MOZJPEG_TGZ_SHA256="2a28f72ac9991a53572e634efa668ab9bdafa4653aa6d771298f2212e49d9467"

# libwebp's SSE2 code compiles to WASM SIMD through emscripten's SSE-on-wasm_simd128 headers.
# Only those headers are taken from Debian's emscripten package (not installed).
EMSCRIPTEN_DEB="emscripten_3.1.6~dfsg-5_all.deb"
EMSCRIPTEN_DEB_SHA256="43742f32443a7a5510f6c5d1d2603f07c0ff555b3464f2438ab7ba7fdc85c8fd"

ensure_toolchain() {
  local missing=()
  for p in $TOOL_PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if ((${#missing[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
}

# apt-get source needs deb-src lines: copy the deb822 entries of the system's Debian sources.
ensure_deb_src() {
  local list=/etc/apt/sources.list.d/debian-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$list"
    apt-get update -qq
  fi
}

fetch_sources() {
  mkdir -p "$WORK/src"
  cd "$WORK/src"
  local need=0
  for pin in "${PINS[@]}"; do
    local name=${pin%%=*}
    ls "$name"_*.dsc >/dev/null 2>&1 || need=1
  done
  if ((need)); then
    ensure_deb_src
    for pin in "${PINS[@]}"; do apt-get source -qq --download-only "$pin" 2>/dev/null; done
  fi
  echo "$SHA256SUMS" | sed '/^$/d' | sha256sum --quiet -c -
  for dsc in *.dsc; do
    local dir
    dir=$(awk '/^Source:/ {s=$2} /^Version:/ {v=$2} END {sub(/^[0-9]+:/, "", v); sub(/-[^-]*$/, "", v); print s "-" v}' "$dsc")
    # The .dsc pins the tarballs' checksums; dpkg-source checks them and applies Debian's patches.
    [ -d "$dir" ] || dpkg-source -q -x "$dsc" "$dir" >/dev/null 2>&1
  done
  cd - >/dev/null
}

fetch_simd_headers() {
  local dir=$WORK/emscripten
  [ -f "$dir/usr/share/emscripten/system/include/compat/emmintrin.h" ] && return
  mkdir -p "$dir"
  (cd "$dir" && [ -f "$EMSCRIPTEN_DEB" ] || (cd "$dir" && apt-get download -qq emscripten=3.1.6~dfsg-5 2>/dev/null))
  echo "$EMSCRIPTEN_DEB_SHA256  $dir/$EMSCRIPTEN_DEB" | sha256sum --quiet -c -
  dpkg-deb --fsys-tarfile "$dir/$EMSCRIPTEN_DEB" | tar -x -C "$dir" --wildcards './usr/share/emscripten/system/include/compat/*mmintrin.h'
}

fetch_mozjpeg() {
  local dir=$WORK/src/mozjpeg-npm
  [ -f "$dir/mozjpeg/jcapimin.c" ] && return
  mkdir -p "$dir"
  (cd "$dir" && npm pack -q mozjpeg@8.0.0 >/dev/null)
  echo "$MOZJPEG_TGZ_SHA256  $dir/mozjpeg-8.0.0.tgz" | sha256sum --quiet -c -
  tar -xzf "$dir/mozjpeg-8.0.0.tgz" -C "$dir"
  tar -xzf "$dir/package/vendor/source/mozjpeg.tar.gz" -C "$dir"
}

CC=clang-14
CFLAGS=(--target=wasm32-wasi -O2 -msimd128 -DNDEBUG -ffile-prefix-map="$WORK"=. -ffile-prefix-map="$HERE"=. -Wno-everything)

# Compiles "out.o:src.c" pairs in parallel with the given extra flags.
compile() {
  local dir=$1; shift
  local -a flags=()
  while [ "$1" != "--" ]; do flags+=("$1"); shift; done
  shift
  mkdir -p "$WORK/obj/$dir"
  printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} sh -c \
    'src="$1"; shift; obj="$0/$(echo "$src" | tr / _).o"; exec "$@" -c "$src" -o "$obj"' \
    "$WORK/obj/$dir" {} "$CC" "${CFLAGS[@]}" "${flags[@]}"
}

build_libjpeg() {
  local s=$WORK/src/libjpeg-turbo-2.1.5 gen=$WORK/gen/jpeg
  mkdir -p "$gen"
  sed -e 's/@JPEG_LIB_VERSION@/62/' -e 's/@VERSION@/2.1.5/' -e 's/@LIBJPEG_TURBO_VERSION_NUMBER@/2001005/' \
      -e 's/@BITS_IN_JSAMPLE@/8/' \
      -e 's/#cmakedefine C_ARITH_CODING_SUPPORTED 1/#define C_ARITH_CODING_SUPPORTED 1/' \
      -e 's/#cmakedefine D_ARITH_CODING_SUPPORTED 1/#define D_ARITH_CODING_SUPPORTED 1/' \
      -e 's/#cmakedefine \(.*\)/\/* #undef \1 *\//' "$s/jconfig.h.in" >"$gen/jconfig.h"
  sed -e 's/@BUILD@/engine/' -e 's/@INLINE@/__inline__ __attribute__((always_inline))/' \
      -e 's/@THREAD_LOCAL@//' -e 's/@CMAKE_PROJECT_NAME@/libjpeg-turbo/' -e 's/@VERSION@/2.1.5/' \
      -e 's/@SIZE_T@/4/' -e 's/#cmakedefine HAVE_BUILTIN_CTZL/#define HAVE_BUILTIN_CTZL/' \
      -e 's/#cmakedefine \(.*\)/\/* #undef \1 *\//' "$s/jconfigint.h.in" >"$gen/jconfigint.h"
  sed -e 's/@COPYRIGHT_YEAR@/1991-2023/' "$s/jversion.h.in" >"$gen/jversion.h"
  local files=()
  for f in jcapimin jcapistd jccoefct jccolor jcdctmgr jchuff jcicc jcinit jcmainct jcmarker jcmaster \
    jcomapi jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst jdatasrc jdcoefct \
    jdcolor jddctmgr jdhuff jdicc jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct \
    jdsample jdtrans jerror jfdctflt jfdctfst jfdctint jidctflt jidctfst jidctint jidctred jquant1 \
    jquant2 jutils jmemmgr jmemnobs jaricom jcarith jdarith jsimd_none; do
    files+=("$s/$f.c")
  done
  compile jpeg -I"$gen" -I"$s" -- "${files[@]}"
}

MOZJPEG_FILES="jcapimin jcapistd jccoefct jccolor jcdctmgr jcext jchuff jcinit jcmainct jcmarker jcmaster
  jcomapi jcparam jcphuff jcprepct jcsample jdatadst jerror jfdctflt jfdctfst jfdctint jutils jmemmgr jmemnobs
  jsimd_none"

# Two passes: compile, list the global symbols, then compile again with each renamed moz_*.
build_mozjpeg() {
  local s=$WORK/src/mozjpeg-npm/mozjpeg gen=$WORK/gen/mozjpeg files=()
  mkdir -p "$gen"
  sed -e 's/#undef HAVE_STDDEF_H/#define HAVE_STDDEF_H 1/' -e 's/#undef HAVE_STDLIB_H/#define HAVE_STDLIB_H 1/' \
      -e 's/#undef HAVE_UNSIGNED_CHAR/#define HAVE_UNSIGNED_CHAR 1/' \
      -e 's/#undef HAVE_UNSIGNED_SHORT/#define HAVE_UNSIGNED_SHORT 1/' \
      -e 's/#undef MEM_SRCDST_SUPPORTED/#define MEM_SRCDST_SUPPORTED 1/' "$s/jconfig.h.in" >"$gen/jconfig.h"
  printf '#define BUILD "engine"\n#define INLINE __inline__ __attribute__((always_inline))\n#define PACKAGE_NAME "mozjpeg"\n#define VERSION "3.2"\n#define SIZEOF_SIZE_T 4\n' >"$gen/jconfigint.h"
  for f in $MOZJPEG_FILES; do files+=("$s/$f.c"); done
  : >"$gen/moz-prefix.h"
  compile mozjpeg-scan -I"$gen" -I"$s" -include "$gen/moz-prefix.h" -- "${files[@]}"
  llvm-nm-14 -g --defined-only "$WORK"/obj/mozjpeg-scan/*.o | awk 'NF == 3 {print $3}' | LC_ALL=C sort -u \
    | awk '{print "#define " $1 " moz_" $1}' >"$gen/moz-prefix.h.tmp"
  mv "$gen/moz-prefix.h.tmp" "$gen/moz-prefix.h"
  rm -r "$WORK/obj/mozjpeg-scan"
  compile mozjpeg -I"$gen" -I"$s" -include "$gen/moz-prefix.h" -- "${files[@]}"
  # Our JPEG encoder and error glue, built a second time against mozjpeg.
  compile mozjpeg-glue -Wall -Wextra -Werror -DENGINE_MOZJPEG -I"$gen" -I"$s" -include "$gen/moz-prefix.h" \
    -include "$HERE/src/mozjpeg-names.h" -- "$HERE/src/jpeg-encode.c" "$HERE/src/jpeg-error.c"
}

build_zlib() {
  local s=$WORK/src/zlib-1.2.13.dfsg files=()
  for f in adler32 compress crc32 deflate inflate inftrees inffast trees zutil; do files+=("$s/$f.c"); done
  compile zlib -DHAVE_UNISTD_H -- "${files[@]}"
}

build_spng() {
  local s=$WORK/src/libspng-0.7.3
  compile spng -DSPNG_STATIC -I"$WORK/src/zlib-1.2.13.dfsg" -- "$s/spng/spng.c"
}

build_libwebp() {
  local s=$WORK/src/libwebp-1.2.4
  mapfile -t files < <(ls "$s"/sharpyuv/*.c "$s"/src/dec/*.c "$s"/src/dsp/*.c "$s"/src/enc/*.c "$s"/src/utils/*.c | LC_ALL=C sort)
  compile webp -I"$s" -D__SSE__ -D__SSE2__ -D__SSE3__ -D__SSSE3__ -D__SSE4_1__ -isystem "$WORK/emscripten/usr/share/emscripten/system/include/compat" -- "${files[@]}"
}

build_glue() {
  local s=$WORK/src
  mapfile -t files < <(ls "$HERE"/src/*.c | LC_ALL=C sort)
  compile glue -Wall -Wextra -Werror -Wno-missing-field-initializers -I"$WORK/gen/jpeg" \
    -I"$s/libjpeg-turbo-2.1.5" -I"$s/libspng-0.7.3/spng" -I"$s/zlib-1.2.13.dfsg" -I"$s/libwebp-1.2.4/src" -I"$s/libwebp-1.2.4" -DSPNG_STATIC -- "${files[@]}"
}

# The linear memory is imported: src/image/wasm/engine-memory.ts creates it at 1 MiB (static
# data and stack fit in that) with the engine budget as its maximum, and keeps it across
# instances; it grows only through host_memory_grow (codecs/src/host.c).
link() {
  mkdir -p "$OUT"
  mapfile -t objs < <(find "$WORK/obj" -name '*.o' | LC_ALL=C sort)
  "$CC" --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry -Wl,--gc-sections -Wl,--strip-all \
    -Wl,-z,stack-size=262144 -Wl,--import-memory -Wl,--initial-memory=1048576 "${objs[@]}" -o "$OUT/engine.wasm.tmp"
  mv "$OUT/engine.wasm.tmp" "$OUT/engine.wasm"
}

write_manifest() {
  local sha
  sha=$(sha256sum "$OUT/engine.wasm" | cut -d' ' -f1)
  cat >"$OUT/manifest.json" <<JSON
{
  "file": "engine.wasm",
  "sha256": "$sha",
  "bytes": $(stat -c %s "$OUT/engine.wasm"),
  "toolchain": "Debian bookworm clang-14 $(dpkg-query -W -f='${Version}' clang-14), lld-14, wasi-libc $(dpkg-query -W -f='${Version}' wasi-libc)",
  "sources": {
    "libjpeg-turbo": "1:2.1.5-2",
    "libspng": "0.7.3-3",
    "zlib": "1:1.2.13.dfsg-1",
    "libwebp": "1.2.4-0.2+deb12u1",
    "mozjpeg": "3.2 (npm mozjpeg@8.0.0)"
  }
}
JSON
}

ensure_toolchain
fetch_sources
fetch_simd_headers
fetch_mozjpeg
rm -rf "$WORK/obj"
build_libjpeg
build_mozjpeg
build_zlib
build_spng
build_libwebp
build_glue
link
write_manifest
echo "built $OUT/engine.wasm ($(stat -c %s "$OUT/engine.wasm") bytes)"
