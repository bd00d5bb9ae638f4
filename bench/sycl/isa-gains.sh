#!/usr/bin/env bash
# IGC-visible gains of xeopt -O2 on the SYCL check sample (issue 31): for
# every module of a `scripts/sycl-corpus.sh --check` run whose -O2 output
# (check/<id>/o2.spv) differs from its input, both are compiled with ocloc
# for each device (bench/isa --stats: instructions, SIMD width, IGC 2.x's
# numCycles) and compared per kernel.
#
#   XEOPT_OCLOC=build/toolchains/bin/ocloc-26 \
#     bench/sycl/isa-gains.sh [--jobs=N] [--devices=dg2,pvc,bmg] CORPUS_DIR
#   bench/sycl/isa-gains.sh --summary CORPUS_DIR   (the tables again, from
#                                                   the TSV of an earlier run)
#
# CORPUS_DIR is the --out of the check (manifest, modules, check/,
# remarks.tsv).  Writes CORPUS_DIR/isa-gains.tsv (module kernel device
# in_instructions out_instructions in_simd out_simd in_cycles out_cycles;
# `-` where IGC rejected the module for the device, e.g. fp64 on dg2) and
# prints per device: kernels compared, fewer / equal / more instructions,
# fewer / equal / more IGC cycles, the instruction totals, kernels whose
# SIMD width changed; once over all changed modules and once over the
# modules where a pass other than canonicalize applied (remarks.tsv; by
# module: simplify-cfg names the function it changed, not the kernel).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jobs=2 devices=dg2,pvc,bmg summary_only=0
for a in "$@"; do
  case "$a" in
    --jobs=*) jobs="${a#--jobs=}" ;;
    --devices=*) devices="${a#--devices=}" ;;
    --summary) summary_only=1 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "isa-gains.sh: unknown option $a" >&2; exit 2 ;;
    *) dir="$a" ;;
  esac
done
[ -n "${dir:-}" ] && [ -f "$dir/check/modules.txt" ] || { echo "isa-gains.sh: no check in ${dir:-?} (--help)" >&2; exit 2; }
dir="$(cd "$dir" && pwd)"
export root dir devices LC_ALL=C
one() {
  m="$1"; id="${m//\//__}"; id="${id%.spv}"; o="$dir/check/$id/o2.spv"
  [ -f "$o" ] || return 0
  cmp -s "$dir/$m" "$o" && return 0
  t=$(mktemp -d); shorten "$dir/$m" "$t/in.spv" > "$t/map"; shorten "$o" "$t/out.spv" > /dev/null
  for dev in ${devices//,/ }; do
    a=$("$root/bench/isa" --stats "$t/in.spv" "$dev" 2>/dev/null)
    b=$("$root/bench/isa" --stats "$t/out.spv" "$dev" 2>/dev/null)
    # kernel instructions sends divergent scattered block private loop simd isa_est igc_cycles
    join -a1 -e- -o '0,1.2,2.2,1.9,2.9,1.11,2.11' <(echo "$a" | awk 'NF' | sort) <(echo "$b" | awk 'NF' | sort) 2>/dev/null |
      awk -v m="$m" -v d="$dev" -v map="$t/map" 'BEGIN { while ((getline l < map) > 0) { split(l, f, "\t"); full[f[1]] = f[2] } }
                                                { if ($1 in full) $1 = full[$1]; printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m, $1, d, $2, $3, $4, $5, $6, $7 }'
    [ -n "$a" ] || printf '%s\t-\t%s\t-\t-\t-\t-\t-\t-\n' "$m" "$dev"
  done
  rm -rf "$t"
}
# A kernel name longer than a file name may be (DPC++'s mangled template
# names reach 300 bytes) leaves ocloc disasm without its .text.NAME.asm:
# such names are shortened to k_<sha1 prefix> in a copy of the module, in
# OpEntryPoint and OpName alike, the same way for input and output.
shorten() {
  python3 - "$1" "$2" <<'PY'
import hashlib, struct, sys
w = list(struct.unpack("<%dI" % (len(open(sys.argv[1], "rb").read()) // 4), open(sys.argv[1], "rb").read()))
def dec(ws):
    b = b"".join(struct.pack("<I", x) for x in ws)
    return b[:b.index(b"\0")].decode("utf-8", "replace"), len(b[:b.index(b"\0")]) // 4 + 1
def enc(s):
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 4)
    return list(struct.unpack("<%dI" % (len(b) // 4), b))
out, i = w[:5], 5
while i < len(w):
    n, op = w[i] >> 16, w[i] & 0xffff
    ins = w[i:i + n]
    pre = 3 if op == 15 else 2 if op == 5 else 0
    if pre:
        name, nw = dec(ins[pre:])
        if len(name) > 200:
            short = "k_" + hashlib.sha1(name.encode()).hexdigest()[:16]
            if op == 15:
                print("%s\t%s" % (short, name))
            ins = ins[:pre] + enc(short) + ins[pre + nw:]
            ins[0] = (len(ins) << 16) | op
    out += ins
    i += n
open(sys.argv[2], "wb").write(struct.pack("<%dI" % len(out), *out))
PY
}
export -f one shorten
[ "$summary_only" = 1 ] || { printf '#module\tkernel\tdevice\tin_instructions\tout_instructions\tin_simd\tout_simd\tin_cycles\tout_cycles\n'
  xargs -a "$dir/check/modules.txt" -P "$jobs" -I{} bash -c 'one "$@"' _ {} | sort; } > "$dir/isa-gains.tsv"
changed=$(awk -F'\t' '!/^#/ { print $1 }' "$dir/isa-gains.tsv" | sort -u | wc -l)
echo "modules whose -O2 output differs from the input: $changed of $(wc -l < "$dir/check/modules.txt")"
summary() {
  awk -F'\t' -v only="$1" -v devlist="$devices" '
    NR == FNR { if ($4 == "applied" && $3 != "canonicalize") pass[$1] = 1; next }
    /^#/ { next }
    only && !($1 in pass) { next }
    { d = $3; devs[d] = 1
      if ($4 == "-" || $5 == "-") { rej[d]++; next }
      n[d]++; ti[d] += $4; to[d] += $5
      if ($5 < $4) fi[d]++; else if ($5 > $4) mi[d]++; else ei[d]++
      if ($6 != $7) simd[d]++
      if ($8 != "-" && $9 != "-" && $8 + 0 > 0) { if ($9 < $8) fc[d]++; else if ($9 > $8) mc[d]++; else ec[d]++ } }
    END { print "| device | kernels | fewer instr. | equal | more | fewer IGC cycles | equal | more | instructions in -> out | SIMD width changed | IGC rejects (input) |"
          print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
          nd = split(devlist, dl, ",")
          for (k = 1; k <= nd; k++) if ((d = dl[k]) in devs) printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d -> %d | %d | %d |\n", d, n[d], fi[d], ei[d], mi[d], fc[d], ec[d], mc[d], ti[d], to[d], simd[d], rej[d] }' \
    "$dir/remarks.tsv" "$dir/isa-gains.tsv"
}
echo; echo "All kernels of the changed modules:"; summary 0
echo; echo "Kernels of the modules where a pass other than canonicalize applied:"; summary 1
