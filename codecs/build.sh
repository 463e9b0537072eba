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

TOOL_PACKAGES="clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32 libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 dpkg-dev"

# jpegli (the JPEG encoder) is in jpeg-xl 0.11.2 and needs highway 1.2.0: Debian trixie's
# source packages, fetched with a private apt configuration (scripts/trixie-apt.sh). The
# mirror no longer has the .dsc (nor the Debian patches) of jpeg-xl's current revision, so
# the upstream tarballs are pinned by their own sha256 and built without Debian's patches
# (highway 1.2.0-2's touch only big-endian, x86, RISC-V and Apple code and its tests).
TRIXIE_PINS=(
  "jpeg-xl=0.11.2-0.1~deb13u3 jpeg-xl_0.11.2.orig.tar.gz ab38928f7f6248e2a98cc184956021acb927b16a0dee71b4d260dc040a4320ea"
  "highway=1.2.0-2 highway_1.2.0.orig.tar.gz 7e0be78b8318e8bdbf6fa545d2ecb4c90f947df03f7aadc42c1967f019e63343"
)

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

fetch_trixie() {
  local dir=$WORK/src/trixie
  mkdir -p "$dir"
  for pin in "${TRIXIE_PINS[@]}"; do
    read -r package tarball sha <<<"$pin"
    [ -f "$dir/$tarball" ] || (cd "$dir" && bash "$HERE/../scripts/trixie-apt.sh" "$WORK/trixie-apt" apt-get source -qq --tar-only --download-only "$package" 2>/dev/null)
    echo "$sha  $dir/$tarball" | sha256sum --quiet -c -
  done
  [ -d "$dir/libjxl-0.11.2" ] || tar -xzf "$dir/jpeg-xl_0.11.2.orig.tar.gz" -C "$dir"
  [ -d "$dir/highway-1.2.0" ] || tar -xzf "$dir/highway_1.2.0.orig.tar.gz" -C "$dir"
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

# jpegli's encoder and the highway files it needs, C++17 without exceptions or threads, for
# highway's WASM SIMD target only. jpegli includes libjpeg-turbo's jpeglib.h (as Debian builds
# it), and exports jpegli_* functions, so it links beside libjpeg-turbo. wasi-libc has no
# setjmp.h, which jpegli includes but does not use: src/compat has an empty one.
JPEGLI_FILES="adaptive_quantization bit_writer bitstream color_transform common downsample encode encode_finish
  encode_streaming entropy_coding error huffman input memory_manager quant simd"
HWY_FILES="abort aligned_allocator per_target print targets timer"
CXXFLAGS=(-std=c++17 -fno-exceptions -fno-rtti -DHWY_COMPILE_ONLY_STATIC=1)

build_jpegli() {
  local j=$WORK/src/trixie/libjxl-0.11.2 h=$WORK/src/trixie/highway-1.2.0 files=()
  for f in $JPEGLI_FILES; do files+=("$j/lib/jpegli/$f.cc"); done
  for f in $HWY_FILES; do files+=("$h/hwy/$f.cc"); done
  CC=clang++-14 compile jpegli "${CXXFLAGS[@]}" -isystem "$HERE/src/compat" -I"$j" -I"$j/lib/include" -I"$h" \
    -I"$WORK/gen/jpeg" -I"$WORK/src/libjpeg-turbo-2.1.5" -- "${files[@]}"
  # Our JPEG encoder and error glue, built a second time against jpegli (src/jpegli-names.h), and
  # operator new failing into the engine's out-of-memory path (cxx-alloc.cc).
  compile jpegli-glue -Wall -Wextra -Werror -DENGINE_JPEGLI -include "$HERE/src/jpegli-names.h" \
    -isystem "$HERE/src/compat" -I"$j" -I"$j/lib/include" -I"$h" -I"$WORK/gen/jpeg" -I"$WORK/src/libjpeg-turbo-2.1.5" \
    -- "$HERE/src/jpeg-encode.c" "$HERE/src/jpeg-error.c"
  CC=clang++-14 compile cxx-glue "${CXXFLAGS[@]}" -Wall -Wextra -Werror -- "$HERE/src/cxx-alloc.cc"
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
# instances; it grows only through host_memory_grow (codecs/src/host.c). libwebp's progress
# reports go through codecs/src/webp-encode.c (--wrap): the engine counts and yields there.
link() {
  mkdir -p "$OUT"
  mapfile -t objs < <(find "$WORK/obj" -name '*.o' | LC_ALL=C sort)
  "$CC" --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry -Wl,--gc-sections -Wl,--strip-all \
    -Wl,-z,stack-size=262144 -Wl,--import-memory -Wl,--initial-memory=1048576 -Wl,--wrap=WebPReportProgress "${objs[@]}" -lc++ -lc++abi -o "$OUT/engine.wasm.tmp"
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
    "jpeg-xl (jpegli)": "0.11.2-0.1~deb13u3 (trixie; jpeg-xl_0.11.2.orig.tar.gz)",
    "highway": "1.2.0-2 (trixie; highway_1.2.0.orig.tar.gz)",
    "libc++, libc++abi": "$(dpkg-query -W -f='${Version}' libc++-14-dev-wasm32)"
  }
}
JSON
}

ensure_toolchain
fetch_sources
fetch_simd_headers
fetch_trixie
rm -rf "$WORK/obj"
build_libjpeg
build_jpegli
build_zlib
build_spng
build_libwebp
build_glue
link
write_manifest
echo "built $OUT/engine.wasm ($(stat -c %s "$OUT/engine.wasm") bytes)"
