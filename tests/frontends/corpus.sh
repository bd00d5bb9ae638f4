#!/usr/bin/env bash
# tests/frontends/corpus.sh SRC_DIR BUILD_DIR: the ctest entry frontends_corpus
# (issue 29: the front-end invariance matrix on a corpus subset).  Builds a
# fixed subset of the real-code corpus through the five front ends
# (scripts/corpus.sh into BUILD_DIR/corpus-frontends), then runs
#   bench/frontends --exceptions=tests/frontends/corpus-exceptions.txt
# which fails when a (kernel, pass) applied under clang15 or ocloc22 is
# missing under clang21, clang21-backend or ocloc26 and no exception line
# covers it.  XEOPT (set by ctest to the built xeopt) is the binary checked.
#
# The subset: darktable files where rewrites apply under the reference front
# ends, and between them every miss the whole 40-file corpus of bench/notes/front-ends-2026.md
# shows (measured 2026-11-27):
#   bilateral            padding, subgroup-versioning and loop-spec-constants
#                        under all five (the quick start's file)
#   colorreconstruction  padding, subgroup-versioning, loop-spec-constants
#                        under all five
#   extended             generic-address (clang), private-arrays (ocloc),
#                        simplify-cfg on clang 21; clang21-backend crashes on it
#   liquify              generic-address (clang 15, 21 and the backend)
#   diffuse              private arrays (clang 15 and 21)
#   demosaic_rcd         subgroup-versioning on 45 ocloc kernels
#   demosaic_markesteijn private arrays (ocloc) and 19 sub-group copies
# and one hashcat file, m00400-pure (a slow hash, private arrays under
# ocloc and the backend), through clang21-backend, ocloc22 and ocloc26 only:
# clang 15 and 21 + llvm-spirv reject it ("InvalidBitWidth", as every hashcat
# file of the corpus) after ~3 minutes of CPU.
# Exit 0 pass, 1 fail, 77 skip (toolchains or the network missing, unless
# XEOPT_REQUIRE_OCLOC=1).  EXCEPTIONS=FILE replaces the exceptions file (an
# empty one must make this fail: the planted check).
set -uo pipefail
src="${1:?usage: corpus.sh SRC_DIR BUILD_DIR}" build="${2:?usage: corpus.sh SRC_DIR BUILD_DIR}"
corpus="$build/corpus-frontends"
exceptions="${EXCEPTIONS:-$src/tests/frontends/corpus-exceptions.txt}"
DARKTABLE=bilateral.cl,colorreconstruction.cl,extended.cl,liquify.cl,diffuse.cl,demosaic_rcd.cl,demosaic_markesteijn.cl
HASHCAT=m00400-pure.cl

skip() {
  if [ "${XEOPT_REQUIRE_OCLOC:-0}" = 1 ]; then echo "frontends_corpus: FAIL (required): $*"; exit 1; fi
  echo "frontends_corpus: SKIP: $*"; exit 77
}
tc="${XEOPT_TOOLCHAINS:-$src/build/toolchains}/bin"
for t in clang-21 llvm-spirv-21 ocloc-26 spirv-val-2026; do
  [ -x "$tc/$t" ] || skip "the sid toolchains are missing in $tc (scripts/toolchains.sh)"
done
for t in clang-15 llvm-spirv-15 ocloc apt-get dpkg python3; do
  command -v "$t" >/dev/null || skip "$t not found"
done
[ -n "${XEOPT:-}" ] && [ -x "$XEOPT" ] || { echo "frontends_corpus: FAIL: XEOPT is not an executable"; exit 1; }

mkdir -p "$corpus"
log="$build/corpus-frontends.log"
"$src/scripts/corpus.sh" --out="$corpus" --darktable="$DARKTABLE" --hashcat=0 \
  --front-ends=clang15,clang21,clang21-backend,ocloc22,ocloc26 > "$log" 2>&1 ||
  skip "scripts/corpus.sh failed (no network for apt-get download?): $(tail -1 "$log")"
"$src/scripts/corpus.sh" --out="$corpus" --no-darktable --hashcat="$HASHCAT" \
  --front-ends=clang21-backend,ocloc22,ocloc26 >> "$log" 2>&1 ||
  skip "scripts/corpus.sh (hashcat) failed: $(tail -1 "$log")"

# the corpus directory may hold more (an earlier, wider run): compare this
# subset only, through a manifest of its own files
sub="$build/corpus-frontends-subset"
rm -rf "$sub" && mkdir -p "$sub"
for d in darktable hashcat cache; do ln -s "$corpus/$d" "$sub/$d"; done
want="darktable/${DARKTABLE//,/|darktable/}|hashcat/$HASHCAT"
awk -F'\t' -v want="^($want)\$" 'NR == 1 || $3 ~ want' "$corpus/manifest.tsv" > "$sub/manifest.tsv"
[ -f "$corpus/failures.tsv" ] && cp "$corpus/failures.tsv" "$sub/"
mkdir -p "$corpus/bench-cache" && ln -s "$corpus/bench-cache" "$sub/bench-cache"
n=$(awk -F'\t' 'NR > 1' "$sub/manifest.tsv" | wc -l)
[ "$n" = 38 ] || { echo "frontends_corpus: FAIL: $n (file, front end) lines in the manifest, not 38"; cat "$sub/manifest.tsv"; exit 1; }

python3 "$src/bench/frontends" --corpus="$sub" --sets=darktable,hashcat \
  --exceptions="$exceptions"
