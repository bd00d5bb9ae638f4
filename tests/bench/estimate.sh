#!/usr/bin/env bash
# tests/bench/estimate.sh ROOT: bench/reach/estimate on a made-up corpus of
# 8 hashcat file names in 2 strata, whose estimate was worked by hand:
#   census: darktable x.cl (both front ends) 10 candidates 1 gain, m1 2/2;
#   sample: _a0-pure m2 2/1, m3 2/2 (4 files left, 2 sampled);
#           -pure m6 3/0, m7 failed 0/0, m8 skipped (not in the sample)
#           (3 files left, 2 sampled);
#   C = 12 + 4/2*4 + 3/2*3 = 24.5, G = 3 + 4/2*3 + 0 = 9, R = 9/24.5 = 0.367;
#   variance by linearization: 16*(1-2/4)*0.5/2 + 9*(1-2/3)*0.6072/2 = 2.911,
#   se = sqrt(2.911)/24.5 = 0.0696, interval 0.231 to 0.504.
# And --pick=3: 2 of each stratum (at least 2), m1 (in the manifest) never,
# by the SHA-256 of the name.
set -euo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hc="$tmp/c/src/usr/share/hashcat/OpenCL"
mkdir -p "$hc"
for f in m1_a0-pure m2_a0-pure m3_a0-pure m4_a0-pure m5_a0-pure m6-pure m7-pure m8-pure; do
  : > "$hc/$f.cl"
done
printf 'hashcat/ocloc/m1_a0-pure.spv\tocloc\thashcat/m1_a0-pure.cl\tk\tok\n' > "$tmp/c/manifest.tsv"
printf '# source\tfront end\tstatus\tmeasured\tcandidates\tgains\n' > "$tmp/census.tsv"
printf 'darktable/x.cl\tclang\tok\t12\t6\t1\ndarktable/x.cl\tocloc\tok\t12\t4\t0\n' >> "$tmp/census.tsv"
printf 'hashcat/m1_a0-pure.cl\tocloc\tok\t2\t2\t2\n' >> "$tmp/census.tsv"
printf 'hashcat/m2_a0-pure.cl\tocloc\tok\t2\t2\t1\nhashcat/m3_a0-pure.cl\tocloc\tok\t3\t2\t2\n' > "$tmp/sample.tsv"
printf 'hashcat/m6-pure.cl\tocloc\tok\t3\t3\t0\nhashcat/m7-pure.cl\tocloc\tfail:ocloc\t0\t0\t0\n' >> "$tmp/sample.tsv"
printf 'hashcat/m8-pure.cl\tocloc\tskipped\t0\t0\t0\n' >> "$tmp/sample.tsv"
cat > "$tmp/want" <<'WANT'
| part | files | candidates | with a gain | fraction |
|---|---:|---:|---:|---:|
| darktable, measured | 1 | 10 | 1 | 0.100 |
| hashcat, default corpus, measured | 1 | 2 | 2 | 1.000 |
| hashcat, random sample, measured | 4 | 7 | 3 | 0.429 |
| hashcat, the other 3 files, estimated | 3 | 6 | 3 | 0.545 |
| **whole corpus, estimated** | 9 | 24 | 9 | **0.367** (95%: 0.231 to 0.504) |

| hashcat stratum | files outside the default corpus | sampled | candidates | with a gain | fraction |
|---|---:|---:|---:|---:|---:|
| -pure | 3 | 2 | 3 | 0 | 0.000 |
| _a0-pure | 4 | 2 | 4 | 3 | 0.750 |
WANT
"$root/bench/reach/estimate" --corpus="$tmp/c" --census="$tmp/census.tsv" \
  --sample="$tmp/sample.tsv" --strata > "$tmp/got"
diff -u "$tmp/want" "$tmp/got"
got=$("$root/bench/reach/estimate" --corpus="$tmp/c" --pick=3)
[ "$got" = "m4_a0-pure.cl,m5_a0-pure.cl,m6-pure.cl,m8-pure.cl" ] ||
  { echo "--pick=3 gave $got" >&2; exit 1; }
echo "estimate: ok"
