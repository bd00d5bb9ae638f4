#!/usr/bin/env bash
# Compiles one OpenCL C file to SPIR-V with one of the front ends users have:
#
#   frontend.sh FE SRC.cl OUT.spv [OPTION...]
#
# FE              what runs
#   clang15         clang-15 -cc1 (typed pointers) + llvm-spirv-15          Debian 12
#   clang21         clang-21 (opaque pointers) + llvm-spirv-21              Debian sid
#   clang21-backend clang-21 --target=spirv64: clang's own SPIR-V backend   Debian sid
#   ocloc22         ocloc 22.43 -spv_only (Intel's front end)               Debian 12
#   ocloc26         ocloc 26.x -spv_only                                    Debian sid
# Every front end gets -cl-std=CL2.0 and -O2 (ocloc: its default), and
# OPTIONs (-D NAME=VALUE, -I DIR, -w, -cl-ext=..., -g) as given.  The sid tools are
# the wrappers scripts/toolchains.sh writes in ${XEOPT_TOOLCHAINS:-build/toolchains}/bin.
# XEOPT_SPIRV_EXT: extra llvm-spirv options (e.g. --spirv-ext=+SPV_INTEL_subgroups).
# Exit status: 0 and OUT written; 1 the front end rejected the file (its
# messages on stderr, no OUT); 2 bad usage or a missing tool.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tc="${XEOPT_TOOLCHAINS:-$root/build/toolchains}/bin"
[ $# -ge 3 ] || { echo "usage: frontend.sh FE SRC.cl OUT.spv [OPTION...]" >&2; exit 2; }
fe=$1 src=$2 out=$3
shift 3
need() { command -v "$1" >/dev/null 2>&1 || { echo "frontend.sh: $1 is missing (scripts/deps.sh installs it)" >&2; exit 2; }; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f "$out"
# llvm-spirv's extension options, from XEOPT_SPIRV_EXT (split on spaces)
read -r -a spvext <<<"${XEOPT_SPIRV_EXT:-}"
# -cl-ext=... is spelled differently by each front end.  clang 21's driver
# declares the builtins from its own tables, which lack cl_intel_subgroups'
# functions: it gets the full opencl-c.h instead (-cl-no-stdinc, then cc1's
# -finclude-default-header).  ocloc enables Intel's extensions itself and
# rejects the option.
opts=() clext=()
for a in "$@"; do
  case "$a" in -cl-ext=*) clext+=("$a") ;; *) opts+=("$a") ;; esac
done
clang21ext=()
for e in "${clext[@]}"; do clang21ext+=(-cl-no-stdinc -Xclang -finclude-default-header -Xclang "$e"); done
backendext=()
for e in "${spvext[@]}"; do backendext+=(-mllvm "$e"); done
case "$fe" in
clang15)
  need clang-15; need llvm-spirv-15
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -O2 -no-opaque-pointers \
    -emit-llvm-bc -finclude-default-header "${clext[@]}" "${opts[@]}" "$src" -o "$tmp/k.bc" || exit 1
  llvm-spirv-15 "${spvext[@]}" "$tmp/k.bc" -o "$tmp/k.spv" || exit 1
  ;;
clang21)
  need "$tc/clang-21"; need "$tc/llvm-spirv-21"
  "$tc/clang-21" -cl-std=CL2.0 -target spir64 -O2 -c -emit-llvm "${clang21ext[@]}" "${opts[@]}" \
    "$src" -o "$tmp/k.bc" || exit 1
  "$tc/llvm-spirv-21" "${spvext[@]}" "$tmp/k.bc" -o "$tmp/k.spv" || exit 1
  ;;
clang21-backend)
  need "$tc/clang-21"
  "$tc/clang-21" -cl-std=CL2.0 --target=spirv64 -O2 -c "${clang21ext[@]}" "${backendext[@]}" \
    "${opts[@]}" "$src" -o "$tmp/k.spv" || exit 1
  ;;
ocloc22|ocloc26)
  ocloc=ocloc
  [ "$fe" = ocloc26 ] && ocloc="$tc/ocloc-26"
  need "$ocloc"
  # ocloc parses -options itself: one string, options separated by spaces
  "$ocloc" compile -q -file "$src" -device dg2 -spv_only -options "-cl-std=CL2.0 ${opts[*]}" -output k \
    -output_no_suffix -out_dir "$tmp" >&2 || exit 1
  ;;
*)
  echo "frontend.sh: unknown front end '$fe' (clang15 clang21 clang21-backend ocloc22 ocloc26)" >&2
  exit 2
  ;;
esac
# llvm-spirv leaves an empty file when it rejects the input
[ -s "$tmp/k.spv" ] || exit 1
mv "$tmp/k.spv" "$out"
