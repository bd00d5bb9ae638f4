#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run xeopt, printing
# what it did:
#   1. on a real third-party kernel: darktable's bilateral filter
#      (bilateral.cl from Debian's darktable package, fetched with
#      apt-get download by scripts/corpus.sh and compiled by clang-15 +
#      llvm-spirv-15; nothing of it is in this repository), plain -O2 with
#      --verify and its sub-group versioning remarks (the cost model's
#      decision with both estimates), then --target=none, which versions
#      without asking the model, and with IGC installed the ISA of the
#      kernels it versions, before and after;
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

echo "== 1. a real kernel: darktable's bilateral.cl, plain -O2 (no opt-in, no manifest)"
"$root/scripts/corpus.sh" --out="$root/build/corpus" --hashcat=0 --front-ends=clang \
  --darktable=bilateral.cl >/dev/null
real="$root/build/corpus/darktable/clang/bilateral.spv"
echo "+ $root/build/xeopt -O2 --validate --verify --remarks $real -o $d/bilateral.O2.spv" \
     "2>&1 | grep -E 'versioning.*(versioned|cost model)|verified'"
"$root/build/xeopt" -O2 --validate --verify --remarks "$real" -o "$d/bilateral.O2.spv" 2>&1 |
  grep -E 'versioning\].*(versioned|cost model)|verified' || true
run spirv-val "$d/bilateral.O2.spv" && echo "valid"
echo "+ $root/build/xeopt -O2 --target=none --validate --verify --remarks $real -o $d/bilateral.none.spv" \
     "2>&1 | grep -E 'versioning.*versioned|verified'"
"$root/build/xeopt" -O2 --target=none --validate --verify --remarks "$real" -o "$d/bilateral.none.spv" 2>&1 |
  grep -E 'versioning\].*versioned|blur_line.*verified' || true
run spirv-val "$d/bilateral.none.spv" && echo "valid"
if have_isa; then
  echo "+ $root/bench/isa $real $d/bilateral.none.spv bilateral   (the kernels --target=none versions)"
  "$root/bench/isa" "$real" "$d/bilateral.none.spv" bilateral | grep -E '^\|(-| kernel)|blur_line'
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
