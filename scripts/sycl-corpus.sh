#!/usr/bin/env bash
# Builds the SYCL corpus: the SPIR-V device images DPC++ (icpx -fsycl) put into
# the shared objects of PyPI's `dpctl` and `dpnp` wheels.  No third-party
# binary is ever committed: the wheels are fetched with `pip download --no-deps`
# into a cache, their .so files unzipped (nothing is installed), and
# scripts/sycl_extract.py reads the offload wrapper's descriptors in each
# (sycl_device_binaries -> sycl_device_binary structs -> BinaryStart/End,
# through the .rela.dyn relocations; .tgtimg as a cross-check) and writes one
# module per device image.
#
#   scripts/sycl-corpus.sh [options]
#     --out=DIR        output directory (default build/corpus/sycl, next to
#                      scripts/corpus.sh's darktable/ and hashcat/)
#     --subset         only the fixed CI subset (below)
#     --dpctl=VER      dpctl version (default 0.22.1)
#     --dpnp=VER       dpnp version (default 0.20.0)
#     --check[=N]      then run xeopt over the modules (all, or N of them by the
#                      sample rule below): check.tsv, check-summary.md
#     --xeopt=PATH     the xeopt --check runs (default build/xeopt)
#     --no-ocloc       the check without ocloc (xeopt and spirv-val only: fast)
#     --check-only     only the check, on the modules DIR/manifest.tsv lists
#     --jobs=N         parallel checks (default 2)
#     --verify-timeout=S  time limit of one --verify run (default 120; exit 124)
#     --strict         exit 1 when the check finds an input xeopt cannot read, a
#                      crash, an invalid output, an output IGC rejects where it
#                      took the input, or a --verify difference (the ctest entry)
#     -h, --help
#
# Output (DIR):
#   cache/*.whl            the wheels
#   src/<pkg>/...so        the shared objects unzipped from them
#   <lib>/<NNNN>.spv       one module per device image; <lib> is the .so path in
#                          the wheel, '/' -> '.', without the CPython suffix
#                          (e.g. dpnp.tensor._tensor_impl); NNNN the image's
#                          index in the library's descriptor
#   manifest.tsv           one line per module, scripts/corpus.sh's columns:
#                          module  front_end  source  kernels  status
#                          front_end is dpcpp; source <lib>#<NNNN>; kernels the
#                          OpEntryPoint names, comma-separated; status ok
#   images.tsv, kernels.tsv, elf.tsv  what sycl_extract.py found (see there):
#                          per image (format, compression, bytes, entries,
#                          property sets), per kernel (mangled, demangled), per
#                          library (sections, descriptor version, .tgtimg check)
#
# Subset (--subset, for CI): from every library whose images have kernels, its
# first two such images (descriptor order) and the one with the most kernels
# (the first such), each written once.  dpnp 0.20.0 / dpctl 0.22.1: 26 modules,
# 35 kernels from 14 libraries (DPC++ split the device code per kernel: one
# kernel per image, except dpctl's libDPCTLSyclInterface, 10 in one).
# Check sample (--check=N): every module when N >= the count, else in
# manifest order (library, index) every k-th module, k = count / N, with each
# library's first module always included.
#
# The check, per module M (in check.tsv, one line each):
#   xeopt -O2 --validate --remarks M -o O     exit status, first error line
#   spirv-val O   (build/toolchains/bin/spirv-val-2026 when present, else
#                  spirv-val; the input is validated too)
#   xeopt -O2 --verify M -o V                 differences, NOT verified kernels
#   ocloc compile -spirv_input -file M|O -device dg2   on input and output
# and per kernel the remarks (remarks.tsv: module kernel pass status message).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build/corpus/sycl"
subset=0 check="" jobs=2 check_only=0 no_ocloc=0 vtime=120 strict=0
dpctl_ver=0.22.1 dpnp_ver=0.20.0
xeopt="$root/build/xeopt"
for a in "$@"; do
  case "$a" in
    --out=*) out="${a#--out=}" ;;
    --subset) subset=1 ;;
    --strict) strict=1 ;;
    --dpctl=*) dpctl_ver="${a#--dpctl=}" ;;
    --dpnp=*) dpnp_ver="${a#--dpnp=}" ;;
    --check) check=all ;;
    --no-ocloc) no_ocloc=1 ;;
    --check-only) check_only=1; [ -n "$check" ] || check=all ;;
    --check=*) check="${a#--check=}" ;;
    --xeopt=*) xeopt="${a#--xeopt=}" ;;
    --jobs=*) jobs="${a#--jobs=}" ;;
    --verify-timeout=*) vtime="${a#--verify-timeout=}" ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "sycl-corpus.sh: unknown option $a (--help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out" && out="$(cd "$out" && pwd)"
venv="${XEOPT_SYCL_VENV:-$root/build/sycl-venv}"
py="$venv/bin/python"

if [ "$check_only" = 0 ]; then
# 1. a venv with the extractor's two packages (nothing system-wide)
if ! "$py" -c 'import elftools, zstandard' 2>/dev/null; then
  python3 -m venv "$venv" || { echo "sycl-corpus.sh: python3 -m venv failed" >&2; exit 1; }
  "$py" -m pip install -q pyelftools zstandard ||
    { echo "sycl-corpus.sh: pip install pyelftools zstandard failed" >&2; exit 1; }
fi

# 2. the wheels, and their shared objects
mkdir -p "$out/cache" "$out/src"
for spec in "dpctl==$dpctl_ver" "dpnp==$dpnp_ver"; do
  name="${spec%%==*}" ver="${spec#*==}"
  if ! ls "$out/cache/$name-$ver-"*.whl >/dev/null 2>&1; then
    "$py" -m pip download -q --no-deps -d "$out/cache" "$spec" ||
      { echo "sycl-corpus.sh: pip download $spec failed" >&2; exit 1; }
  fi
done
"$py" - "$out" "$dpctl_ver" "$dpnp_ver" <<'EOF' || exit 1
import glob, os, sys, zipfile
out, vers = sys.argv[1], {"dpctl": sys.argv[2], "dpnp": sys.argv[3]}
for name, ver in vers.items():
    whl = sorted(glob.glob(os.path.join(out, "cache", "%s-%s-*.whl" % (name, ver))))[0]
    z = zipfile.ZipFile(whl)
    for n in z.namelist():
        if n.endswith(".so") or ".so." in n:
            dst = os.path.join(out, "src", n)
            if not os.path.exists(dst) or os.path.getsize(dst) != z.getinfo(n).file_size:
                z.extract(n, os.path.join(out, "src"))
EOF

# 3. the device images
mapfile -t sos < <(find "$out/src" -name '*.so' -o -name '*.so.*' | LC_ALL=C sort)
if [ "$subset" = 1 ]; then   # drop the modules of an earlier full run
  find "$out" -mindepth 2 -name '*.spv' ! -path "$out/src/*" ! -path "$out/check/*" -delete
fi
"$py" "$root/scripts/sycl_extract.py" --out="$out" --label-root="$out/src" \
  $([ "$subset" = 1 ] && echo --subset) "${sos[@]}" || exit 1
# manifest.tsv in scripts/corpus.sh's columns
awk -F'\t' 'NR == FNR { if (!/^#/) k[$1] = (k[$1] == "" ? "" : k[$1] ",") $3; next }
            !/^#/ && $1 != "-" { src = $11; sub(/\.spv$/, "", src); sub(/\/[^\/]*$/, "#&", src); sub(/#\//, "#", src)
                                 print $1 "\tdpcpp\t" src "\t" k[$1] "\tok" }' \
  "$out/kernels.tsv" "$out/images.tsv" > "$out/manifest.tsv"
echo "sycl-corpus.sh: $(wc -l < "$out/manifest.tsv") modules, $(awk -F'\t' '{n += split($4, a, ",")} END {print n+0}' "$out/manifest.tsv") kernels in $out/manifest.tsv"

fi
[ -n "$check" ] || exit 0

# 4. the check
case "$xeopt" in /*) ;; *) xeopt="$PWD/$xeopt" ;; esac
[ -x "$xeopt" ] || { echo "sycl-corpus.sh: no xeopt at $xeopt (--xeopt=PATH)" >&2; exit 1; }
val=spirv-val
[ -x "$root/build/toolchains/bin/spirv-val-2026" ] && val="$root/build/toolchains/bin/spirv-val-2026"
ck="$out/check"; mkdir -p "$ck"
total=$(wc -l < "$out/manifest.tsv")
n=$total; [ "$check" != all ] && [ "$check" -lt "$total" ] && n=$check
awk -F'\t' -v n="$n" -v t="$total" '
  { lib = $1; sub(/\/[^\/]*$/, "", lib)
    step = t / n; take = (NR - 1 >= next_at) || !(lib in seen); seen[lib] = 1
    if (take && NR - 1 >= next_at) next_at += step
    if (take) print $1 }' "$out/manifest.tsv" > "$ck/modules.txt"
export xeopt val ck out no_ocloc vtime
one() {
  m="$1"; id="${m//\//__}"; id="${id%.spv}"; d="$ck/$id"; mkdir -p "$d"
  in="$out/$m"
  k=$(awk -F'\t' -v m="$m" '$1 == m { print split($4, a, ",") }' "$out/manifest.tsv")
  "$val" "$in" > "$d/inval.log" 2>&1; inval=$?
  timeout 300 "$xeopt" -O2 --validate --remarks "$in" -o "$d/o2.spv" > "$d/o2.log" 2>&1; o2=$?
  outval=-
  if [ "$o2" = 0 ]; then "$val" "$d/o2.spv" > "$d/outval.log" 2>&1; outval=$?; fi
  timeout "$vtime" "$xeopt" -O2 --verify "$in" -o "$d/verify.spv" > "$d/verify.log" 2>&1; vf=$?
  notv=$(grep -c 'NOT verified' "$d/verify.log"); rm -f "$d/verify.spv"
  # dg2 has no fp64: a kernel IGC rejects there for "Double type is not
  # supported" is compiled for pvc instead (input and output alike)
  dev=dg2 oin=- oout=-
  ocl() { ( cd "$d" && timeout 300 ocloc compile -spirv_input -file "$1" -device "$dev" -output "$2" -out_dir "$d/ocl" > "$d/ocloc-$2.log" 2>&1 ); }
  [ "$no_ocloc" = 1 ] || { ocl "$in" in; oin=$?; }
  if [ "$oin" != 0 ] && [ "$oin" != - ] && grep -q 'Double type is not supported' "$d/ocloc-in.log"; then
    dev=pvc; ocl "$in" in; oin=$?
  fi
  if [ "$o2" = 0 ] && [ "$no_ocloc" = 0 ]; then ocl "$d/o2.spv" out; oout=$?; fi
  rm -rf "$d/ocl"
  why=""
  if [ "$o2" != 0 ]; then
    why=$(grep -m1 -E '^xeopt: error|Assertion|Sanitizer' "$d/o2.log" | tr '\t' ' ' | cut -c1-200)
    [ -n "$why" ] || why="xeopt exit $o2: $(grep -v 'remark:' "$d/o2.log" | tail -1 | tr '\t' ' ' | cut -c1-200)"
  fi
  [ "$vf" = 124 ] && [ -z "$why" ] && why="verify: timed out after ${vtime}s"
  [ "$vf" != 0 ] && [ -z "$why" ] && why="verify: $(grep -v 'remark:' "$d/verify.log" | grep -m1 -E 'error|differ|race' | tr '\t' ' ' | cut -c1-200)"
  [ "$oin" != 0 ] && [ "$oin" != - ] && [ -z "$why" ] && why="ocloc: $(grep -m1 -E 'error' "$d/ocloc-in.log" | tr '\t' ' ' | cut -c1-200)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$k" "$inval" "$o2" "$outval" "$vf" "$notv" "$dev" "$oin" "$oout" "${why:--}"
}
export -f one
echo "sycl-corpus.sh: checking $(wc -l < "$ck/modules.txt") modules with $xeopt, $val, ocloc (jobs $jobs)"
{ printf '#module\tkernels\tinput_val\txeopt_o2\toutput_val\tverify\tnot_verified\tdevice\tocloc_in\tocloc_out\tmessage\n'
  xargs -a "$ck/modules.txt" -P "$jobs" -I{} bash -c 'one "$@"' _ {}; } > "$out/check.tsv"
# remarks.tsv: module  kernel  pass  status (applied|missed|...)  message, from
# "xeopt: remark: KERNEL: [PASS] STATUS: MESSAGE"; notverified.tsv: module  reason
while read -r m; do
  id="${m//\//__}"; id="${id%.spv}"
  sed -n 's/^xeopt: remark: \([^:]*\): \[\([^]]*\)\] \([a-z -]*\): \(.*\)$/\1\t\2\t\3\t\4/p' \
    "$ck/$id/o2.log" 2>/dev/null | sed "s|^|$m\t|"
done < "$ck/modules.txt" > "$out/remarks.tsv"
while read -r m; do
  id="${m//\//__}"; id="${id%.spv}"
  grep -h 'NOT verified' "$ck/$id/verify.log" 2>/dev/null | sed 's/.*NOT verified: *//; s/kernel [^ :]*: *//' | sed "s|^|$m\t|"
done < "$ck/modules.txt" > "$out/notverified.tsv"
awk -F'\t' '!/^#/ { mods++; k += $2; lib = $1; sub(/\/.*/, "", lib); libs[lib] = 1
                    if ($3 != 0) badin++
                    if ($4 == 1) parse++; else if ($4 != 0) crash++
                    if ($5 != "-" && $5 != 0) inval++
                    if ($9 == 0 && $10 != "-" && $10 != 0) igc++
                    if ($9 != 0 && $9 != "-") igcin++
                    if ($8 == "pvc") pvc++
                    if ($6 == 124) vto++; else if ($6 != 0) vdiff++
                    nv += $7 }
  END { nl = 0; for (l in libs) nl++
        printf "| modules | kernels | libraries | inputs spirv-val rejects | xeopt exit 1 (invalid input) | xeopt crashes (exit >= 2) | invalid outputs | IGC rejects input | IGC rejects output, took input | compiled for pvc (fp64) | --verify exit != 0 | --verify timeouts | kernels NOT verified |\n"
        printf "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
        printf "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", mods, k, nl, badin, parse, crash, inval, igcin, igc, pvc, vdiff, vto, nv
        print parse + crash + inval + igc + vdiff > "/dev/stderr" }' \
  "$out/check.tsv" > "$out/check-summary.md" 2> "$out/check-failures"
"$py" "$root/scripts/sycl_extract.py" --summarize="$out" >> "$out/check-summary.md"
cat "$out/check-summary.md"
if [ "$strict" = 1 ] && [ "$(cat "$out/check-failures")" != 0 ]; then
  echo "sycl-corpus.sh: $(cat "$out/check-failures") module(s) failed the check (check.tsv)" >&2
  exit 1
fi
