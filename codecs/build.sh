#!/usr/bin/env bash
# Builds codecs/dist/engine.wasm: libjpeg-turbo, libspng + zlib, libwebp and giflib from Debian
# bookworm source packages, jpegli, highway and libaom from trixie's (pinned below by version and sha256), compiled with Debian's
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
  "giflib=5.2.1-2.5+deb12u1"
)
SHA256SUMS='
d718ead0dfbcbc8523665c02a7f7152e31039ded641d022868722623bb3b486d  libjpeg-turbo_2.1.5-2.dsc
05f324accbf40d02f4d284047b9fb792e03481ede86c1425af01e4656c475028  libspng_0.7.3-3.dsc
3fa1e6b2fc525062aa88207dda52fed8e045373c809d362fe8a2bfbf7cf515a8  zlib_1.2.13.dfsg-1.dsc
d9ed0b59e2010f255c28d0869fd15b31f9b08aed757bfc91862d43aa9ec1aa99  libwebp_1.2.4-0.2+deb12u1.dsc
5206a92fd4a057768f429033a3a80bc1e06453f6c60dfec243d8188fa6ade3f4  giflib_5.2.1-2.5+deb12u1.dsc
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
  "aom=3.12.1-1+deb13u1 aom_3.12.1.orig.tar.gz 40c929a41b2a59c24319a699c358351422829b3ae646de31b18cbabed0191962"
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
  [ -d "$dir/aom-3.12.1" ] || tar -xzf "$dir/aom_3.12.1.orig.tar.gz" -C "$dir"
}

CC=clang-14
# x86 SIMD code (libwebp's, libaom's intrinsics) through emscripten's SSE-on-wasm_simd128 headers.
SSE_FLAGS=(-D__SSE__ -D__SSE2__ -D__SSE3__ -D__SSSE3__ -D__SSE4_1__ -isystem "$WORK/emscripten/usr/share/emscripten/system/include/compat")
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
  # Our one setting jpegli's API does not reach (its internal dead zone, for grey images).
  CC=clang++-14 compile jpegli-dead-zone "${CXXFLAGS[@]}" -Wall -Wextra -Werror -isystem "$HERE/src/compat" -I"$j" \
    -I"$j/lib/include" -I"$h" -I"$WORK/gen/jpeg" -I"$WORK/src/libjpeg-turbo-2.1.5" -- "$HERE/src/jpegli-dead-zone.cc"
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

# giflib's decoder only (GIF input; the encoder and the tools are left out).
build_giflib() {
  local s=$WORK/src/giflib-5.2.1
  compile giflib -- "$s/dgif_lib.c" "$s/gif_err.c" "$s/gifalloc.c" "$s/openbsd-reallocarray.c"
}

# libwebp's decoder, encoder, mux (the animation encoder) and demux.
build_libwebp() {
  local s=$WORK/src/libwebp-1.2.4
  mapfile -t files < <(ls "$s"/sharpyuv/*.c "$s"/src/dec/*.c "$s"/src/demux/*.c "$s"/src/dsp/*.c "$s"/src/enc/*.c "$s"/src/mux/*.c "$s"/src/utils/*.c | LC_ALL=C sort)
  compile webp -I"$s" "${SSE_FLAGS[@]}" -- "${files[@]}"
}

# libaom's AV1 encoder (the AVIF output) and decoder (AVIF input). Its CMake build is not run: aom_config.h is its
# defaults file with our settings (no threads, 8-bit, no CPU detection, SSE2 to SSE4.1), the
# CPU dispatch headers come from its own rtcd.pl, and the sources are the lists its .cmake files
# give for the library, less the optional tools left off here.
AOM_CONFIG="CONFIG_AV1_DECODER=1 CONFIG_MULTITHREAD=0 CONFIG_RUNTIME_CPU_DETECT=0 CONFIG_AV1_HIGHBITDEPTH=1
  CONFIG_LIBYUV=0 CONFIG_WEBM_IO=0 CONFIG_SVT_AV1=0 CONFIG_DENOISE=0 HAVE_PTHREAD_H=0 HAVE_UNISTD_H=1 CONFIG_OS_SUPPORT=0
  HAVE_SSE2=1 HAVE_SSSE3=1 HAVE_SSE4_1=1"
AOM_LISTS="AOM_SOURCES AOM_RTCD_SOURCES AOM_MEM_SOURCES AOM_SCALE_SOURCES AOM_UTIL_SOURCES AOM_DSP_COMMON_SOURCES
  AOM_DSP_ENCODER_SOURCES AOM_DSP_DECODER_SOURCES AOM_AV1_COMMON_SOURCES AOM_AV1_ENCODER_SOURCES AOM_AV1_DECODER_SOURCES"
AOM_INTRINSICS_LISTS="AOM_DSP_COMMON_INTRIN_SSE2 AOM_DSP_COMMON_INTRIN_SSSE3 AOM_DSP_COMMON_INTRIN_SSE4_1
  AOM_DSP_ENCODER_INTRIN_SSE2 AOM_DSP_ENCODER_INTRIN_SSSE3 AOM_DSP_ENCODER_INTRIN_SSE4_1 AOM_AV1_COMMON_INTRIN_SSE2
  AOM_AV1_COMMON_INTRIN_SSSE3 AOM_AV1_COMMON_INTRIN_SSE4_1 AOM_AV1_ENCODER_INTRIN_SSE2 AOM_AV1_ENCODER_INTRIN_SSE4_1"
AOM_LEFT_OFF='aom_config\.c|accounting|inspection|butteraugli|vmaf|fastssim|psnrhvs|debug_util|temporal_denoiser|blockiness|optical_flow|sparse_linear_solver|saliency_map|thirdpass'
# The extensions rtcd.pl may dispatch to: those the intrinsics files cover (WASM SIMD has no AVX).
AOM_RTCD_DISABLED="--disable-mmx --disable-sse --disable-sse3 --disable-sse4_2 --disable-avx --disable-avx2"

# The .c files of the named list(APPEND NAME ...) blocks of libaom's CMake files, sorted.
aom_sources() {
  local s=$1 list; shift
  for list in "$@"; do
    awk -v var="$list" '$0 ~ "list\\(APPEND " var "([ \t]|$)" {on = 1}
      on {for (i = 1; i <= NF; i++) if ($i ~ /\.c"?\)?$/) {f = $i; gsub(/[")]/, "", f); sub(/\$\{AOM_ROOT\}\//, "", f); print f}}
      on && /\)/ {on = 0}' "$s/CMakeLists.txt" "$s"/*/*.cmake
  done | LC_ALL=C sort -u | grep -vE "$AOM_LEFT_OFF"
}

# libaom's x86 SIMD is partly intrinsics (compiled here through emscripten's headers, as libwebp's) and partly
# NASM (which cannot be). From the intrinsics objects' symbols (llvm-nm, one "== object" line before each):
# the objects to keep, dropping any that calls a SIMD function no kept object defines, until none does (printed
# to stdout), and the SIMD functions the kept ones define (written to $1).
aom_simd_closure() {
  perl -e '
    my ($out) = @ARGV; my (%def, %undef, $obj);
    while (<STDIN>) {
      if (/^== (\S+)/) { $obj = $1; $def{$obj} //= {}; $undef{$obj} //= {}; next }
      if (/^\s+U (\w+)/) { $undef{$obj}{$1} = 1 } elsif (/^\S+ [TDRB] (\w+)/) { $def{$obj}{$1} = 1 }
    }
    my %kept = map { $_ => 1 } keys %def; my %defined;
    while (1) {
      %defined = map { %{ $def{$_} } } keys %kept;
      my @drop = grep { my $o = $_; grep { /_(sse2|sse3|ssse3|sse4_1)$/ && !$defined{$_} } keys %{ $undef{$o} } } keys %kept;
      last unless @drop;
      delete @kept{@drop};
    }
    print "$_\n" for sort keys %kept;
    open my $f, ">", $out or die; print $f "$_\n" for sort grep { /_(sse2|ssse3|sse4_1)$/ } keys %defined;
  ' "$1"
}

build_aom() {
  local s=$WORK/src/trixie/aom-3.12.1 gen=$WORK/gen/aom
  mkdir -p "$gen/config"
  {
    echo '#ifndef AOM_CONFIG_H_'
    echo '#define AOM_CONFIG_H_'
    # set_aom_(config|detect)_var(NAME VALUE "doc"), possibly over two lines; AOM_RTCD_FLAGS is a string.
    tr '\n' ' ' <"$s/build/cmake/aom_config_defaults.cmake" | grep -oE 'set_aom_(config|detect)_var\( *[A-Z0-9_]+ +[0-9]+' |
      sed -E 's/.*\( *//' | while read -r name value; do
        for pair in $AOM_CONFIG; do [ "${pair%%=*}" = "$name" ] && value=${pair#*=}; done
        echo "#define $name $value"
      done
    echo '#define INLINE inline'
    echo '#endif'
  } >"$gen/config/aom_config.h"
  printf '%s\n' '#define VERSION_MAJOR 3' '#define VERSION_MINOR 12' '#define VERSION_PATCH 1' '#define VERSION_EXTRA ""' \
    '#define VERSION_PACKED ((VERSION_MAJOR << 16) | (VERSION_MINOR << 8) | (VERSION_PATCH))' \
    '#define VERSION_STRING_NOSP "v3.12.1"' '#define VERSION_STRING " v3.12.1"' >"$gen/config/aom_version.h"
  # Dispatch headers for x86 without run-time detection: each function #defined to its best SIMD version. The
  # setup function they carry would ask the CPU (cpuid, aom_ports/x86.h): with nothing to set up, it asks nothing.
  local rtcd
  for rtcd in aom_dsp/aom_dsp_rtcd_defs.pl:aom_dsp_rtcd aom_scale/aom_scale_rtcd.pl:aom_scale_rtcd av1/common/av1_rtcd_defs.pl:av1_rtcd; do
    # shellcheck disable=SC2086
    perl "$s/build/cmake/rtcd.pl" --arch=x86 $AOM_RTCD_DISABLED --sym="${rtcd#*:}" --config="$gen/config/aom_config.h" "$s/${rtcd%%:*}" |
      sed -e '/#include "aom_ports\/x86.h"/d' -e 's/int flags = x86_simd_caps();/int flags = 0;/' >"$gen/config/${rtcd#*:}.h"
  done
  local -a flags=(-isystem "$HERE/src/compat" "${SSE_FLAGS[@]}" -I"$gen" -I"$s")
  # The intrinsics alone first, to learn which SIMD functions exist without NASM; each dispatch to one that does
  # not falls back to the best that does (SSE4.1, SSSE3, SSE2), else to C. Then everything, against those headers.
  # High bit depth is off (and one of its SIMD files does not compile without it).
  aom_sources "$s" $AOM_INTRINSICS_LISTS | grep -v highbd >"$gen/simd-files"
  mapfile -t files < <(sed "s|^|$s/|" "$gen/simd-files")
  compile aom-simd "${flags[@]}" -- "${files[@]}"
  for o in "$WORK"/obj/aom-simd/*.o; do echo "== $o"; llvm-nm-14 "$o" 2>/dev/null; done | aom_simd_closure "$gen/simd-defined" >"$gen/simd-kept"
  local h
  for h in aom_dsp_rtcd aom_scale_rtcd av1_rtcd; do
    perl -i -e '
      my %defined = map { chomp; ($_ => 1) } do { open my $f, "<", shift @ARGV or die; <$f> };
      while (<>) {
        if (/^#define (\w+) (\w+)_(sse2|ssse3|sse4_1)$/ && !$defined{"$2_$3"}) {
          my ($fn) = ($1); my ($best) = grep { $defined{$_} } map { "${fn}_$_" } qw/sse4_1 ssse3 sse2/;
          $_ = "#define $fn " . ($best // "${fn}_c") . "\n";
        }
        print;
      }' "$gen/simd-defined" "$gen/config/$h.h"
  done
  local kept
  kept=$(sed -e "s|^$WORK/obj/aom-simd/||" -e 's|\.o$||' "$gen/simd-kept" | tr '\n' '|')
  rm -rf "$WORK/obj/aom-simd"
  aom_sources "$s" $AOM_LISTS >"$gen/files"
  while read -r f; do
    case "|$kept" in *"|$(echo "$s/$f" | tr / _)|"*) echo "$f" ;; esac
  done <"$gen/simd-files" >>"$gen/files"
  mapfile -t files < <(LC_ALL=C sort "$gen/files" | sed "s|^|$s/|")
  compile aom "${flags[@]}" -- "${files[@]}"
}

build_glue() {
  local s=$WORK/src
  mapfile -t files < <(ls "$HERE"/src/*.c | LC_ALL=C sort)
  compile glue -Wall -Wextra -Werror -Wno-missing-field-initializers -I"$WORK/gen/jpeg" \
    -I"$s/libjpeg-turbo-2.1.5" -I"$s/libspng-0.7.3/spng" -I"$s/zlib-1.2.13.dfsg" -I"$s/libwebp-1.2.4/src" -I"$s/libwebp-1.2.4" -I"$s/giflib-5.2.1" \
    -I"$s/trixie/aom-3.12.1" -I"$WORK/gen/aom" -DSPNG_STATIC -- "${files[@]}"
}

# The linear memory is imported: src/image/wasm/engine-memory.ts creates it at 2 MiB (static
# data and stack fit in that) with the engine budget as its maximum, and keeps it across
# instances; it grows only through host_memory_grow (codecs/src/host.c). libwebp's progress
# reports go through codecs/src/webp-encode.c (--wrap), its VP8L decoder's Huffman tables through
# codecs/src/webp-decode.c, and libaom functions called for each superblock or
# 64x64 block it codes, searches or writes through codecs/src/avif-encode.c, and its decoder's reading of each
# coding block's mode info through codecs/src/avif-decode.c: the engine counts and yields there.
link() {
  mkdir -p "$OUT"
  mapfile -t objs < <(find "$WORK/obj" -name '*.o' | LC_ALL=C sort)
  "$CC" --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry -Wl,--gc-sections -Wl,--strip-all \
    -Wl,-z,stack-size=262144 -Wl,--import-memory -Wl,--initial-memory=2097152 -Wl,--wrap=WebPReportProgress -Wl,--wrap=VP8LBuildHuffmanTable -Wl,--wrap=av1_row_mt_sync_write_dummy -Wl,--wrap=av1_cdef_compute_sb_list -Wl,--wrap=av1_pack_bitstream -Wl,--wrap=av1_get_cb_coeff_buffer -Wl,--wrap=av1_read_mode_info "${objs[@]}" -lc++ -lc++abi -o "$OUT/engine.wasm.tmp"
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
    "giflib": "5.2.1-2.5+deb12u1",
    "jpeg-xl (jpegli)": "0.11.2-0.1~deb13u3 (trixie; jpeg-xl_0.11.2.orig.tar.gz)",
    "highway": "1.2.0-2 (trixie; highway_1.2.0.orig.tar.gz)",
    "aom (libaom)": "3.12.1-1+deb13u1 (trixie; aom_3.12.1.orig.tar.gz)",
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
build_aom
build_zlib
build_spng
build_libwebp
build_giflib
build_glue
link
write_manifest
echo "built $OUT/engine.wasm ($(stat -c %s "$OUT/engine.wasm") bytes)"
