#!/usr/bin/env bash
# Proof that an installed sigkern works the way C and C++ users consume libraries:
#
#  1. `make install PREFIX=<tmp>/prefix`: the shared library under its full version with the
#     SONAME and libsigkern.so as symlinks, the static library, the header, sigkern.pc and the
#     CMake package.
#  2. sigkern.h alone compiles as C11 and as C++17 with -Wall -Wextra -pedantic -Werror.
#  3. examples/c/basics.c (and examples/cpp/lowpass.cpp) copied out of the tree and built
#     (a) with `pkg-config --cflags --libs sigkern`, (b) with `pkg-config --static`,
#     (c) with a small CMake project using sigkern::sigkern and sigkern::sigkern_static;
#     every program runs from another directory; the static ones also with the prefix moved away.
#  4. `make install DESTDIR=<stage> PREFIX=/opt/sigkern` stages under DESTDIR with /opt/sigkern
#     paths inside, and `make uninstall` with the same variables leaves nothing behind.
#
# Run by `make c-install-test` (part of `make test`); needs pkg-config, cmake, g++, readelf.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/sigkern-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
src="$tmp/src"
run_dir="$tmp/elsewhere"
mkdir -p "$src/c" "$src/cpp" "$run_dir"

step() { printf '=== %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }
make_q() { make -s -C "$root" --no-print-directory "$@"; }

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
major="${version%%.*}"; rest="${version#*.}"; minor="${rest%%.*}"
if [ "$major" = 0 ]; then soname="libsigkern.so.0.$minor"; else soname="libsigkern.so.$major"; fi

# ------------------------------------------------------------------ 1. install
step "make install PREFIX=$prefix"
make_q install PREFIX="$prefix" >/dev/null
lib="$prefix/lib"
[ -f "$lib/libsigkern.so.$version" ] && [ ! -L "$lib/libsigkern.so.$version" ] ||
  fail "$lib/libsigkern.so.$version is not a regular file"
[ "$(readlink "$lib/$soname")" = "libsigkern.so.$version" ] || fail "$soname -> libsigkern.so.$version"
[ "$(readlink "$lib/libsigkern.so")" = "$soname" ] || fail "libsigkern.so -> $soname"
got_soname="$(readelf -d "$lib/libsigkern.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ "$got_soname" = "$soname" ] || fail "SONAME is '$got_soname', expected '$soname'"
for f in "$lib/libsigkern.a" "$prefix/include/sigkern.h" "$lib/pkgconfig/sigkern.pc" \
         "$lib/cmake/sigkern/sigkern-config.cmake" "$lib/cmake/sigkern/sigkern-config-version.cmake"; do
  [ -f "$f" ] || fail "$f missing"
done
echo "    SONAME $soname; $(cd "$prefix" && find . \( -type f -o -type l \) | sort | tr '\n' ' ')"

export PKG_CONFIG_PATH="$lib/pkgconfig"
[ "$(pkg-config --modversion sigkern)" = "$version" ] || fail "pkg-config --modversion sigkern"

# ------------------------------------------------------------------ 2. the header alone
step "sigkern.h compiles as C11 and C++17 with -Wall -Wextra -pedantic -Werror"
printf '#include <sigkern.h>\nint main(void) { return sk_version() == 0; }\n' > "$src/header.c"
cp "$src/header.c" "$src/header.cpp"
cc  -std=c11   -Wall -Wextra -pedantic -Werror $(pkg-config --cflags sigkern) -c "$src/header.c" -o "$tmp/header-c.o"
c++ -std=c++17 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags sigkern) -c "$src/header.cpp" -o "$tmp/header-cpp.o"

cp "$root/examples/c/basics.c" "$src/c/"
cp "$root/examples/cpp/lowpass.cpp" "$src/cpp/"
warn=(-Wall -Wextra -pedantic -Werror)

# Runs a program from $run_dir, keeping its output in a log shown on failure.
run() {
  local bin="$1"
  (cd "$run_dir" && "$bin" > "$bin.log" 2>&1) || { cat "$bin.log"; fail "$bin exited $?"; }
  echo "    ran $(basename "$bin") from $run_dir: $(tail -n 1 "$bin.log")"
}
needs_libsigkern() { readelf -d "$1" | grep -q "NEEDED.*\[$soname\]"; }

# ------------------------------------------------------------------ 3a. pkg-config, shared
step "pkg-config --cflags --libs sigkern (shared, rpath to libdir)"
libdir="$(pkg-config --variable=libdir sigkern)"
cc -std=c11 -O2 "${warn[@]}" "$src/c/basics.c" -o "$tmp/basics-pc" \
  $(pkg-config --cflags --libs sigkern) -lm -Wl,-rpath,"$libdir"
c++ -std=c++17 -O2 "${warn[@]}" "$src/cpp/lowpass.cpp" -o "$tmp/lowpass-pc" \
  $(pkg-config --cflags --libs sigkern) -Wl,-rpath,"$libdir"
needs_libsigkern "$tmp/basics-pc" || fail "basics-pc does not record NEEDED $soname"
run "$tmp/basics-pc"
run "$tmp/lowpass-pc"
# without an rpath the program finds the library through LD_LIBRARY_PATH
cc -std=c11 -O2 "${warn[@]}" "$src/c/basics.c" -o "$tmp/basics-ld" $(pkg-config --cflags --libs sigkern) -lm
(cd "$run_dir" && LD_LIBRARY_PATH="$libdir" "$tmp/basics-ld" > /dev/null) || fail "basics-ld with LD_LIBRARY_PATH"
echo "    ran basics-ld (no rpath) with LD_LIBRARY_PATH=$libdir"

# ------------------------------------------------------------------ 3b. pkg-config, static
# libdir holds libsigkern.so and libsigkern.a, and a linker takes the .so for -lsigkern, so the
# archive is named with -l:libsigkern.a; Libs.private supplies what it needs.
step "pkg-config --static --cflags --libs sigkern (libsigkern.a)"
static_libs="$(pkg-config --static --libs sigkern | sed 's/-lsigkern\b/-l:libsigkern.a/')"
echo "    $static_libs"
cc -std=c11 -O2 "${warn[@]}" "$src/c/basics.c" -o "$tmp/basics-static" \
  $(pkg-config --static --cflags sigkern) $static_libs
c++ -std=c++17 -O2 "${warn[@]}" "$src/cpp/lowpass.cpp" -o "$tmp/lowpass-static" \
  $(pkg-config --static --cflags sigkern) $static_libs
needs_libsigkern "$tmp/basics-static" && fail "basics-static depends on $soname"
cc -std=c11 -O2 "${warn[@]}" "$src/c/basics.c" -o "$tmp/basics-static-gc" \
  $(pkg-config --static --cflags sigkern) $static_libs -Wl,--gc-sections
echo "    basics: $(stat -c %s "$tmp/basics-static") bytes, with -Wl,--gc-sections $(stat -c %s "$tmp/basics-static-gc");" \
  "installed libsigkern.a $(stat -c %s "$lib/libsigkern.a"), libsigkern.so.$version $(stat -c %s "$lib/libsigkern.so.$version")"

# ------------------------------------------------------------------ 3c. CMake
step "CMake project: find_package(sigkern 0.1), sigkern::sigkern and sigkern::sigkern_static"
cmake -S "$root/tests/install" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DSIGKERN_EXAMPLES="$src" -DCMAKE_BUILD_TYPE=Release > "$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; fail "cmake configure"; }
cmake --build "$tmp/cmake-build" > "$tmp/cmake-build.log" 2>&1 ||
  { cat "$tmp/cmake-build.log"; fail "cmake --build"; }
needs_libsigkern "$tmp/cmake-build/basics_shared" || fail "basics_shared does not record NEEDED $soname"
needs_libsigkern "$tmp/cmake-build/basics_static" && fail "basics_static depends on $soname"
for t in basics_shared lowpass_shared; do run "$tmp/cmake-build/$t"; done
# a request for another minor version must not be satisfied while the version is 0.x
if [ "$major" = 0 ]; then
  mkdir -p "$tmp/cmake-v"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(v NONE)\nfind_package(sigkern 0.%s QUIET)\nif(sigkern_FOUND)\n  message(FATAL_ERROR "0.%s accepted")\nendif()\n' \
    "$((minor + 1))" "$((minor + 1))" > "$tmp/cmake-v/CMakeLists.txt"
  cmake -S "$tmp/cmake-v" -B "$tmp/cmake-v/build" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/cmake-v.log" 2>&1 ||
    { cat "$tmp/cmake-v.log"; fail "find_package(sigkern 0.$((minor + 1))) found $version"; }
  echo "    find_package(sigkern 0.$((minor + 1))) refuses $version"
fi

# the static programs do not need the prefix at all
step "static programs with the install prefix moved away"
mv "$prefix" "$prefix.moved"
for bin in "$tmp/basics-static" "$tmp/basics-static-gc" "$tmp/lowpass-static" "$tmp/cmake-build/basics_static" \
           "$tmp/cmake-build/lowpass_static"; do
  run "$bin"
done
mv "$prefix.moved" "$prefix"

# ------------------------------------------------------------------ 4. DESTDIR and uninstall
step "make install DESTDIR=<stage> PREFIX=/opt/sigkern, then make uninstall"
stage="$tmp/stage"
make_q install DESTDIR="$stage" PREFIX=/opt/sigkern >/dev/null
[ -f "$stage/opt/sigkern/lib/libsigkern.so.$version" ] || fail "DESTDIR install: library not under $stage/opt/sigkern/lib"
grep -qx 'prefix=/opt/sigkern' "$stage/opt/sigkern/lib/pkgconfig/sigkern.pc" || fail "sigkern.pc prefix under DESTDIR"
grep -q '"/opt/sigkern/lib/libsigkern.a"' "$stage/opt/sigkern/lib/cmake/sigkern/sigkern-config.cmake" ||
  fail "CMake package paths under DESTDIR"
make_q uninstall DESTDIR="$stage" PREFIX=/opt/sigkern >/dev/null
left="$(find "$stage" \( -type f -o -type l \) | sed "s|^$stage||")"
[ -z "$left" ] || fail "make uninstall left: $left"
echo "    staged, then uninstalled: no file left"

step "install proof passed"
