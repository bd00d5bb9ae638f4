#!/usr/bin/env bash
# xeopt -O2's time must grow linearly with a module of many kernels (issue
# 47: a per-function walk of every kernel in simplify-cfg made a 4 MB module
# take 32 s).  Two modules of gen_kernels (tools/gen_kernels.c), SMALL and
# 8 times SMALL; the fastest of three runs of each, in CPU time (user + sys:
# preemption by other load on the machine does not count, only the process's
# own work).  Linear is 8x; the bound is 24x, quadratic would be 64x.  The
# larger run is stopped at 40 times the smaller one's time (and 2 s): a
# quadratic xeopt fails quickly instead of running for minutes.
#
#   tests/scale_linear.sh XEOPT GEN_KERNELS [SMALL_KB]
set -euo pipefail
xeopt="$1" gen="$2" small="${3:-512}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$gen" "${small}K" "$tmp/small.spv" >/dev/null
"$gen" "$((8 * small))K" "$tmp/large.spv" >/dev/null
unset XEOPT_CHECK_PASSES   # the checks between passes are not what is timed

# cpu MODULE LIMIT: the fastest of three runs' CPU seconds, or "timeout".
cpu() {
  local best="" t
  for r in 1 2 3; do
    if ! /usr/bin/time -f "%U %S" -o "$tmp/t" timeout "$2" "$xeopt" -O2 "$1" -o "$tmp/out.spv"; then
      grep -q "status 124" "$tmp/t" && { echo timeout; return; }
      echo "scale_linear: xeopt -O2 $1 failed" >&2; cat "$tmp/t" >&2; exit 1
    fi
    t=$(awk '{ print $1 + $2 }' "$tmp/t" | tail -1)
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}

s=$(cpu "$tmp/small.spv" 600)
limit=$(awk -v s="$s" 'BEGIN { printf "%.1f", 40 * s + 2 }')
l=$(cpu "$tmp/large.spv" "$limit")
if [ "$l" = timeout ]; then
  echo "FAIL: ${small} KB: ${s} s CPU; 8x the size ran past ${limit} s"
  exit 1
fi
ratio=$(awk -v s="$s" -v l="$l" 'BEGIN { printf "%.1f", l / (s > 0.01 ? s : 0.01) }')
echo "${small} KB: ${s} s CPU; $((8 * small)) KB: ${l} s CPU; growth ${ratio}x (linear 8x, bound 24x)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 24) }' || { echo "FAIL: growth ${ratio}x > 24x"; exit 1; }
