#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run xeopt -O2 on a
# bundled module compiled from testdata/kernels, printing what it did.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
in="$root/testdata/spv/guarded_copy.spv"
out="$root/build/demo/guarded_copy.opt.spv"
mkdir -p "$root/build/demo"
echo "+ xeopt -O2 --validate --remarks $in -o $out"
"$root/build/xeopt" -O2 --validate --remarks --time-passes "$in" -o "$out"
echo "+ spirv-val $out"
spirv-val "$out" && echo "valid"
if command -v ocloc >/dev/null; then
  echo "+ ocloc compile (dg2)"
  (cd "$root/build/demo" && ocloc compile -q -spirv_input -file "$out" -device dg2 -output demo >/dev/null) && echo "IGC accepts it for dg2"
fi
