#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run xeopt on a
# bundled module (testdata/kernels/sg_guarded.cl, compiled by clang-15 +
# llvm-spirv-15), printing what it did: first -O2 alone (which reports what
# it could do), then with the host-contract opt-ins, the manifest it writes,
# and, with IGC installed, the ISA before and after.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh" >/dev/null
in="$root/testdata/spv/sg_guarded.spv"
d="$root/build/demo"
mkdir -p "$d"
run() { echo "+ $*"; "$@"; }
run "$root/build/xeopt" -O2 --validate --remarks "$in" -o "$d/sg_guarded.O2.spv"
echo
run "$root/build/xeopt" -O2 --validate --remarks --assume-padded --assume-aligned \
  "$in" -o "$d/sg_guarded.opt.spv"
echo
echo "+ cat $d/sg_guarded.opt.json   (what the host must do)"
cat "$d/sg_guarded.opt.json"
run spirv-val "$d/sg_guarded.opt.spv" && echo "valid"
if command -v ocloc >/dev/null && command -v iga64 >/dev/null; then
  echo
  run "$root/bench/isa" "$in" "$d/sg_guarded.opt.spv" sg_guarded
fi
