#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run xeopt, printing
# what it did:
#   1. on a real third-party kernel: darktable's passthrough_color, in
#      demosaic_other.cl from Debian's darktable package (fetched with
#      apt-get download by scripts/corpus.sh and compiled by Intel's own front
#      end, ocloc -spv_only; nothing of it is in this repository): -O2 with
#      --verify and the remarks, then -O2 --isa-check=dg2,pvc (IGC judges each
#      rewrite: simplify-cfg's one-shape early-return guard is kept), and
#      IGC's ISA of the file's kernels before and after (bench/isa: fewer
#      instructions and divergent branches in passthrough_color on dg2 and
#      pvc, the other two unchanged).
#   2. on a real kernel with a host promise: darktable's zero (bilateral.cl,
#      same package and front end), which plain -O2 leaves as it is; with
#      --assume-padded=zero padding removes its bounds guard, and the manifest
#      says how large the host must allocate the buffer; --verify, and the ISA
#      before and after (fewer instructions, no divergent branch);
#   3. on a bundled module (testdata/kernels/sg_guarded.cl) with the
#      host-contract opt-ins, and the manifest it writes.
#   4. the same as an HTML page.
#   5. a real application through the OpenCL layer: Debian's clpeak measures
#      memory bandwidth on Intel's CPU OpenCL runtime with libxeopt_cl_layer.so
#      loaded, which optimizes the kernels clpeak builds from source at run
#      time (docs/layer.md); once with a new cache, once warm, and the
#      layer's summaries.
#   bench/notes/real-code-corpus.md, "The quick start's real kernels", has the numbers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh" >/dev/null
d="$root/build/demo"
mkdir -p "$d"
run() { echo "+ $*"; "$@"; }
have_isa() { command -v ocloc >/dev/null && command -v iga64 >/dev/null; }

echo "== 1. a real kernel: darktable's passthrough_color (demosaic_other.cl, Intel's front end)"
"$root/scripts/corpus.sh" --out="$root/build/corpus" --hashcat=0 --front-ends=ocloc \
  --darktable=demosaic_other.cl,bilateral.cl >/dev/null
real="$root/build/corpus/darktable/ocloc/demosaic_other.spv"
echo "+ xeopt -O2 --validate --verify --remarks $real -o $d/demosaic_other.O2.spv" \
     "2>&1 | grep -E 'passthrough_color'"
"$root/build/xeopt" -O2 --validate --verify --remarks "$real" -o "$d/demosaic_other.O2.spv" 2>&1 |
  grep -E 'passthrough_color' || true
run spirv-val "$d/demosaic_other.O2.spv" && echo "valid"
if have_isa; then
  echo
  echo "+ xeopt -O2 --isa-check=dg2,pvc --remarks $real -o $d/demosaic_other.isa.spv" \
       "2>&1 | grep 'passthrough_color: \[isa-check'   (IGC judges every rewrite)"
  "$root/build/xeopt" -O2 --isa-check=dg2,pvc --remarks "$real" -o "$d/demosaic_other.isa.spv" 2>&1 |
    grep 'passthrough_color: \[isa-check' || true
  run spirv-val "$d/demosaic_other.isa.spv" && echo "valid"
  run "$root/bench/isa" "$real" "$d/demosaic_other.isa.spv" demosaic_other
fi
echo
echo "== 2. a real kernel with a host promise: darktable's zero (bilateral.cl), --assume-padded=zero"
real2="$root/build/corpus/darktable/ocloc/bilateral.spv"
echo "+ xeopt -O2 --verify --remarks --assume-padded=zero $real2 -o $d/bilateral.padded.spv" \
     "2>&1 | grep -E 'remark: zero:|kernel zero:'"
"$root/build/xeopt" -O2 --verify --remarks --assume-padded=zero "$real2" -o "$d/bilateral.padded.spv" 2>&1 |
  grep -E 'remark: zero:|kernel zero:' || true
echo "+ grep '\"text\"' $d/bilateral.padded.json   (grid, argument 0, must have at least this many elements)"
grep '"text"' "$d/bilateral.padded.json"
run spirv-val "$d/bilateral.padded.spv" && echo "valid"
if have_isa; then
  echo "+ bench/isa $real2 $d/bilateral.padded.spv bilateral | grep -E 'kernel|:zero'"
  "$root/bench/isa" "$real2" "$d/bilateral.padded.spv" bilateral | grep -E '^\| kernel|^\|---|:zero'
fi
echo
echo "== 3. a bundled kernel (testdata/kernels/sg_guarded.cl) with the host's promises"
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
echo
echo "== 4. the same, as a page: each remark beside its source line (docs/report.md)"
# compiled with -g so the module carries its source lines (paths relative to the clone)
cd "$root"
run clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -O2 -no-opaque-pointers \
  -emit-llvm-bc -finclude-default-header -debug-info-kind=line-tables-only -fdebug-compilation-dir=. \
  testdata/kernels/sg_guarded.cl -o "$d/sg_guarded.g.bc"
run llvm-spirv-15 "$d/sg_guarded.g.bc" -o "$d/sg_guarded.g.spv"
run "$root/build/xeopt" -O2 --assume-padded --assume-aligned --report="$d/sg_guarded.html" \
  "$d/sg_guarded.g.spv" -o "$d/sg_guarded.g.opt.spv"
echo "open $d/sg_guarded.html in a browser (docs/report-demo.png is a screenshot of it)"
echo
echo "== 5. a real application through the OpenCL layer: clpeak on Intel's CPU OpenCL runtime"
# clpeak (Debian) builds its kernels from OpenCL C at run time; the layer
# (docs/layer.md) compiles each program to SPIR-V, optimizes it, and the
# driver builds that.  The layer's cache is $d/layer-cache: the first run
# fills it, the second finds everything there.
rm -rf "$d/layer-cache"
for run in cold warm; do
  echo "+ XEOPT_LAYER_LOG=$d/layer-$run.json scripts/oclcpu-run.sh --layer clpeak --global-bandwidth   ($run cache)"
  XEOPT_LAYER_CACHE="$d/layer-cache" XEOPT_LAYER_LOG="$d/layer-$run.json" \
    "$root/scripts/oclcpu-run.sh" --layer clpeak --global-bandwidth | grep -E 'Device|float|GBPS'
done
echo "+ the layer's summaries (docs/layer.md):"
python3 - "$d/layer-cold.json" "$d/layer-warm.json" <<'PY'
import collections, json, sys
for path in sys.argv[1:]:
    s = json.load(open(path))
    print(f"  {path.rsplit('/', 1)[-1]}: programs {s['programs']}, optimized {s['programs_optimized']}, "
          f"unchanged {s['programs_unchanged']}, failed {s['programs_failed']}, cache hits {s['cache_hits']}, "
          f"seconds in xeopt {s['seconds_in_xeopt']:.3f}, in the front end {s['seconds_in_frontend']:.2f}, "
          f"in the driver's builds {s['seconds_in_driver_build']:.2f}")
    for p in s['program_list']:
        passes = collections.Counter(r['pass'] for r in p['remarks'] if r['kind'] == 'applied')
        print(f"    program {p['id']} ({p['origin']}, {len(p['kernels'])} kernels): {p['result']}; "
              f"rewrites applied: {dict(passes) or 'none'}")
PY
