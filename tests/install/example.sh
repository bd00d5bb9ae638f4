#!/usr/bin/env bash
# Installs xeopt from the build tree into a scratch prefix, then builds
# examples/cmake against the installed package (find_package(xeopt)),
# and checks what it produced: a valid optimized module, its manifest, and
# (where ocloc exists) a GPU binary.  Also compiles a C program against the
# installed pkg-config file.
set -euo pipefail
src="$1"; build="$2"; scratch="$3"; sanitized="${4:-0}"
rm -rf "$scratch"; mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$src/examples/cmake" -B "$scratch/example" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/example"
spirv-val "$scratch/example/saxpy.opt.spv"
test -s "$scratch/example/saxpy.opt.json"
if command -v ocloc >/dev/null; then
  test -s "$scratch/example/saxpy_dg2"
elif [ "${XEOPT_REQUIRE_OCLOC:-0}" = 1 ]; then
  echo "ocloc is required but missing" >&2; exit 1
fi
test -f "$scratch/prefix/share/man/man1/xeopt.1"
"$scratch/prefix/bin/xeopt" --version
cat > "$scratch/api.c" <<'C'
#include <stdio.h>
#include <xeopt/xeopt.h>
int main(void) { printf("libxeopt %s\n", xeopt_version()); return 0; }
C
export PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/x86_64-linux-gnu/pkgconfig"
pkg-config --exists --print-errors xeopt
san=()
[ "$sanitized" = 1 ] && san=(-fsanitize=address,undefined)  # the library is instrumented
cc "${san[@]}" "$scratch/api.c" -o "$scratch/api" $(pkg-config --cflags --libs xeopt) \
  -Wl,-rpath,"$(pkg-config --variable=libdir xeopt)"
"$scratch/api"
echo "example project built against the installed package"
