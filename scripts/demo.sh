#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run xeopt, printing
# what it did:
#   1. on a real third-party kernel: darktable's non-local means filter
#      (nlmeans.cl from Debian's darktable package, fetched with apt-get
#      download by scripts/corpus.sh and compiled by Intel's own front end,
#      ocloc -spv_only; nothing of it is in this repository): plain -O2
#      with --verify (simplify-cfg gives the early-return guards one shape,
#      and the cost model refuses to version nlmeans_horiz, with both
#      estimates), then -O2 --isa-check=dg2,pvc, where IGC judges: the
#      versioned nlmeans_horiz is kept, and the ISA of that kernel before
#      and after (fast path: fewer instructions per loop iteration);
#   2. on a bundled module (testdata/kernels/sg_guarded.cl) with the
#      host-contract opt-ins, and the manifest it writes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh" >/dev/null
d="$root/build/demo"
mkdir -p "$d"
run() { echo "+ $*"; "$@"; }
have_isa() { command -v ocloc >/dev/null && command -v iga64 >/dev/null; }

echo "== 1. a real kernel: darktable's nlmeans.cl (Intel's front end), plain -O2, then IGC as judge"
"$root/scripts/corpus.sh" --out="$root/build/corpus" --hashcat=0 --front-ends=ocloc \
  --darktable=nlmeans.cl >/dev/null
real="$root/build/corpus/darktable/ocloc/nlmeans.spv"
echo "+ $root/build/xeopt -O2 --validate --verify --remarks $real -o $d/nlmeans.O2.spv" \
     "2>&1 | grep -E 'nlmeans_horiz.*(simplify-cfg|versioning)|verified'"
"$root/build/xeopt" -O2 --validate --verify --remarks "$real" -o "$d/nlmeans.O2.spv" 2>&1 |
  grep -E 'nlmeans_horiz.*(simplify-cfg|versioning\].*cost model)|nlmeans_horiz.*verified' || true
run spirv-val "$d/nlmeans.O2.spv" && echo "valid"
if have_isa; then
  echo "+ $root/build/xeopt -O2 --isa-check=dg2,pvc --verify --remarks $real -o $d/nlmeans.isa.spv" \
       "2>&1 | grep -E 'nlmeans_horiz.*(versioned|isa-check)'"
  "$root/build/xeopt" -O2 --isa-check=dg2,pvc --verify --remarks "$real" -o "$d/nlmeans.isa.spv" 2>&1 |
    grep -E 'nlmeans_horiz: \[(subgroup-versioning\] applied: versioned|isa-check)' || true
  run spirv-val "$d/nlmeans.isa.spv" && echo "valid"
  echo "+ $root/bench/isa $real $d/nlmeans.isa.spv nlmeans   (both copies are counted; the loop is the longest)"
  "$root/bench/isa" "$real" "$d/nlmeans.isa.spv" nlmeans | grep -E '^\|(-| kernel)|nlmeans_horiz'
fi
echo
echo "== 2. a bundled kernel (testdata/kernels/sg_guarded.cl) with the host's promises"
in="$root/testdata/spv/sg_guarded.spv"
run "$root/build/xeopt" -O2 --validate --remarks --assume-padded --assume-aligned \
  "$in" -o "$d/sg_guarded.opt.spv"
echo
echo "+ cat $d/sg_guarded.opt.json   (what the host must do)"
cat "$d/sg_guarded.opt.json"
run spirv-val "$d/sg_guarded.opt.spv" && echo "valid"
if have_isa; then
  echo
  run "$root/bench/isa" "$in" "$d/sg_guarded.opt.spv" sg_guarded
fi
