#!/usr/bin/env bash
# tests/corpus.sh SRC_DIR BUILD_DIR: the ctest entry `corpus`.  xeopt -O2 on a
# bounded, deterministic subset of the real-code corpus (scripts/corpus.sh):
#   - every darktable kernel file, through the two Debian 12 front ends
#     (clang15: clang-15 + llvm-spirv-15, and ocloc22: ocloc -spv_only), as far
#     as each front end compiles it (scripts/corpus.sh's other three front
#     ends are bench/frontends' business);
#   - four hashcat files through ocloc (llvm-spirv-15 rejects hashcat's -O2
#     bitcode, and clang takes ~25 s of CPU per file): one pure and one
#     optimized fast-hash kernel of different attack modes, a brute-force
#     SIMD-style kernel and a slow hash (init/loop/comp kernels).
# For every module, the output of `xeopt -O2 M -o OUT`:
#   1. spirv-val accepts OUT.  An input that does not validate itself is
#      reported; its output must still validate, except that ocloc's modules
#      built with -cl-fast-relaxed-math declare the FPFastMathModeINTEL
#      capability without its extension (an ocloc 22.43 bug), which xeopt
#      keeps: for those OUT must fail with that same error and no other.
#   2. IGC (ocloc compile -spirv_input) accepts OUT for dg2 and for pvc.  Where
#      IGC rejects the input module too (some llvm-spirv-15 output), that is
#      reported, not failed.
#   3. `xeopt -O2 --verify` finds no difference.  --verify needs a valid input:
#      an invalid one is first repaired (the missing OpExtension added) and/or
#      normalised (`--passes=block-order,interface-vars`, which only reorders
#      blocks and completes entry-point interfaces); kernels the interpreter
#      cannot run (images, say) are counted and reported, not failed.
# Exit 0 pass, 1 fail, 77 skip (a tool or the network is missing, unless
# XEOPT_REQUIRE_OCLOC=1, then that is a failure).
set -uo pipefail

# ---- worker: one module ------------------------------------------------------
if [ "${1:-}" = "--module" ]; then
  xeopt="$2" corpus="$3" work="$4" mod="$5"
  in="$corpus/$mod"
  t="$work/$(echo "$mod" | tr / _)"
  t="${t%.spv}"
  res() { printf '%s\t%s\n' "$mod" "$*" >> "$t.result"; }
  rm -f "$t.result"
  if ! "$xeopt" -O2 -q "$in" -o "$t.o2.spv" 2> "$t.xeopt.log"; then
    res "FAIL xeopt -O2 exits non-zero: $(tail -1 "$t.xeopt.log")"; exit 0
  fi
  ref="$in" fastmath=0
  if ! spirv-val "$in" > "$t.inval" 2>&1; then
    res "note input does not validate: $(head -1 "$t.inval" | cut -c1-160)"
    grep -q 'FPFastMathModeINTEL.*requires one of these extensions' "$t.inval" && fastmath=1
  fi
  if ! spirv-val "$t.o2.spv" > "$t.outval" 2>&1; then
    if [ $fastmath = 1 ] && [ "$(grep -c '^error' "$t.outval")" = 1 ] &&
       grep -q 'FPFastMathModeINTEL.*requires one of these extensions' "$t.outval"; then
      res "note output keeps the input's FPFastMathModeINTEL error"
    else
      res "FAIL spirv-val rejects the output: $(head -1 "$t.outval" | cut -c1-200)"
    fi
  fi
  for dev in dg2 pvc; do
    ok=0
    ocloc compile -q -spirv_input -file "$t.o2.spv" -device "$dev" -output "$t.$dev" \
      -output_no_suffix > "$t.$dev.log" 2>&1 && ok=1
    rm -f "$t.$dev"
    if [ $ok = 0 ]; then
      # not xeopt's doing when IGC rejects the input as well
      # (without -q, so the log has IGC's message)
      if ocloc compile -spirv_input -file "$in" -device "$dev" -output "$t.$dev.in" \
           -output_no_suffix > "$t.$dev.in.log" 2>&1; then
        ocloc compile -spirv_input -file "$t.o2.spv" -device "$dev" -output "$t.$dev" \
          -output_no_suffix > "$t.$dev.log" 2>&1
        res "FAIL IGC ($dev) rejects the output and accepts the input: $(grep -i error "$t.$dev.log" | head -1 | cut -c1-200)"
      else
        res "note IGC ($dev) rejects the input too: $(grep -i error "$t.$dev.in.log" | head -1 | cut -c1-160)"
      fi
      rm -f "$t.$dev.in"
    fi
  done
  # --verify needs a valid input: add the OpExtension ocloc forgets, then
  # normalise what llvm-spirv-15 / ocloc get wrong (block order, interfaces)
  if [ -s "$t.inval" ] && grep -q '^error' "$t.inval"; then
    ref="" cand="$in" how=""
    if [ $fastmath = 1 ]; then
      ver="$(spirv-dis --raw-id "$in" | sed -n 's/^; Version: //p')"
      spirv-dis --raw-id "$in" | awk '!done && !/^ *OpCapability/ && seen { print "OpExtension \"SPV_INTEL_fp_fast_math_mode\""; done = 1 }
                                      /^ *OpCapability/ { seen = 1 } { print }' > "$t.fix.spvasm"
      spirv-as --preserve-numeric-ids --target-env "spv$ver" "$t.fix.spvasm" -o "$t.fix.spv" 2>/dev/null &&
        cand="$t.fix.spv" how="the missing OpExtension added"
      spirv-val "$cand" >/dev/null 2>&1 && ref="$cand"
    fi
    if [ -z "$ref" ]; then
      "$xeopt" --passes=block-order,interface-vars -q "$cand" -o "$t.norm.spv" 2>/dev/null &&
        spirv-val "$t.norm.spv" >/dev/null 2>&1 && ref="$t.norm.spv" &&
        how="${how:+$how, }block-order,interface-vars"
    fi
    [ -n "$ref" ] && res "note verified on a repaired input: $how"
  fi
  if [ -z "$ref" ]; then
    res "unverified module: no valid form of the input"
  else
    # not -q: the "NOT verified" warnings are what is counted
    "$xeopt" -O2 --verify "$ref" -o "$t.v.spv" > "$t.verify.log" 2>&1
    rc=$?
    if grep -q 'differs' "$t.verify.log" || { [ $rc != 0 ] && ! grep -q 'could not run' "$t.verify.log"; }; then
      res "FAIL --verify: $(grep -v '^ *$' "$t.verify.log" | head -3 | tr '\n' ' ' | cut -c1-300)"
    elif [ $rc != 0 ]; then
      res "unverified module: $(grep -v '^ *$' "$t.verify.log" | head -1 | cut -c1-200)"
    fi
    n=$(grep -c 'NOT verified' "$t.verify.log")
    [ "$n" = 0 ] || res "unverified kernels $n: $(grep 'NOT verified' "$t.verify.log" | sed 's/.*NOT verified: //; s/^kernel [^:]*: //; s/ at Op.*//' | sort | uniq -c | sort -rn | head -1 | sed 's/^ *//')"
  fi
  res "done"
  rm -f "$t".*.spv "$t".*.spvasm
  exit 0
fi

# ---- driver ------------------------------------------------------------------
src="$1" build="$2"
self="$src/tests/corpus.sh"
xeopt="$build/xeopt"
skip() {
  if [ "${XEOPT_REQUIRE_OCLOC:-0}" = 1 ]; then echo "corpus: FAIL (required): $*"; exit 1; fi
  echo "corpus: SKIP: $*"; exit 77
}
for t in clang-15 llvm-spirv-15 ocloc spirv-val spirv-as spirv-dis apt-get dpkg; do
  command -v "$t" >/dev/null || skip "$t not found"
done
corpus="$build/corpus-test"
hashcat="m00000_a0-pure.cl,m00010_a1-optimized.cl,m01400_a3-optimized.cl,m00400-pure.cl"
start=$(date +%s)
"$src/scripts/corpus.sh" --out="$corpus" --hashcat=0 --front-ends=clang15,ocloc22 \
  > "$build/corpus-test.log" 2>&1 ||
  skip "scripts/corpus.sh failed (no network for apt-get download?): $(tail -1 "$build/corpus-test.log")"
"$src/scripts/corpus.sh" --out="$corpus" --no-darktable --hashcat="$hashcat" --front-ends=ocloc22 \
  >> "$build/corpus-test.log" 2>&1 || skip "scripts/corpus.sh (hashcat) failed"
built=$(date +%s)
tail -4 "$build/corpus-test.log"
work="$build/corpus-test-work"
rm -rf "$work"; mkdir -p "$work"
awk -F'\t' '!/^#/ && $5 == "ok" { print $1 }' "$corpus/manifest.tsv" |
  grep -v '^hashcat/clang' | tr '\n' '\0' |
  xargs -0 -n1 -P 2 "$self" --module "$xeopt" "$corpus" "$work"
cat "$work"/*.result > "$work/all.tsv" 2>/dev/null
nmod=$(awk -F'\t' '!/^#/ && $5 == "ok"' "$corpus/manifest.tsv" | grep -vc $'^hashcat/clang')
ndone=$(grep -c $'\tdone$' "$work/all.tsv")
nkern=$(awk -F'\t' '!/^#/ && $5 == "ok" && $1 !~ /^hashcat\/clang/ { n += split($4, x, ",") } END { print n + 0 }' "$corpus/manifest.tsv")
nfail=$(grep -c $'\tFAIL' "$work/all.tsv")
echo "corpus: $nmod modules ($nkern kernels), $ndone checked, $nfail failures; corpus build $((built - start)) s, checks $(( $(date +%s) - built )) s"
echo "  inputs that do not validate: $(grep -c $'\tnote input does not validate' "$work/all.tsv")"
echo "  verified on a repaired input: $(grep -c $'\tnote verified on a repaired' "$work/all.tsv")"
echo "  modules --verify could not run: $(grep -c $'\tunverified module' "$work/all.tsv")"
echo "  kernels the interpreter could not run: $(awk -F'\t' '$2 ~ /^unverified kernels/ { split($2, w, " "); n += w[3] } END { print n + 0 }' "$work/all.tsv")"
echo "  why (first reason per module -> modules):"
awk -F'\t' '$2 ~ /^unverified kernels/ { sub(/^unverified kernels [0-9]+: [0-9]+ /, "", $2); print $2 }' "$work/all.tsv" |
  sort | uniq -c | sort -rn | sed 's/^/    /'
echo "  IGC rejects the input itself (dg2+pvc): $(grep -c $'\tnote IGC ([a-z0-9]*) rejects the input' "$work/all.tsv")"
grep $'\tunverified module\|\tnote IGC' "$work/all.tsv" | sed 's/^/  /' | head -40
if [ "$nfail" != 0 ] || [ "$ndone" != "$nmod" ]; then
  grep $'\tFAIL' "$work/all.tsv" | sed 's/^/  /'
  [ "$ndone" = "$nmod" ] || echo "  only $ndone of $nmod modules finished their checks"
  echo "corpus: FAIL"
  exit 1
fi
echo "corpus: PASS"
