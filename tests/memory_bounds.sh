#!/usr/bin/env bash
# Memory follows the module, not its id bound (issue 47 item 4).
#  1. barrier_local.spv (4.2 KB) with one id renumbered to 4,000,000 and to
#     60,000,000: -O0, -O2 and -O2 --verify stay under 100 MB of peak RSS
#     (were 250 MB to 8.9 GB: every per-id table sized by the largest id),
#     and the output validates.
#  2. A 4 MB module of gen_kernels under `ulimit -v 150000`: exit 2 with
#     "xeopt: error: FILE: out of memory" (was SIGABRT with no message).
#     With --verify under 300 and 350 MB, the same: there the input's
#     validation runs out of memory inside SPIRV-Tools, whose std::bad_alloc
#     ended in std::terminate (SIGABRT, "terminate called after throwing an
#     instance of 'std::bad_alloc'") before src/ir/spirv_tools.cpp caught it.
#     (Under 150 MB xeopt's own allocations fail first; from about 450 MB
#     the validation passes and --verify runs every kernel for minutes.)
# Under the sanitizers (SANITIZE=1) only the outputs are checked: their
# shadow memory makes RSS and address-space limits meaningless.
#
#   tests/memory_bounds.sh XEOPT GEN_KERNELS SOURCE_DIR SANITIZE
set -euo pipefail
xeopt="$1" gen="$2" src="$3" sanitize="${4:-0}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset XEOPT_CHECK_PASSES
fail=0
spirv-dis --raw-id "$src/testdata/spv/barrier_local.spv" -o "$tmp/bl.spvasm"
for id in 4000000 60000000; do
  sed "s/%21\b/%$id/g" "$tmp/bl.spvasm" >"$tmp/big.spvasm"
  spirv-as --preserve-numeric-ids --target-env spv1.4 "$tmp/big.spvasm" -o "$tmp/big.spv"
  for flags in -O0 -O2 "-O2 --verify"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f %M -o "$tmp/rss" "$xeopt" $flags "$tmp/big.spv" -o "$tmp/out.spv" 2>"$tmp/err" ||
      { echo "FAIL: id $id, $flags: exit $?"; cat "$tmp/err"; fail=1; continue; }
    spirv-val "$tmp/out.spv" || { echo "FAIL: id $id, $flags: output does not validate"; fail=1; }
    rss=$(tail -1 "$tmp/rss")
    echo "id $id, $flags: peak RSS $((rss / 1024)) MB"
    if [ "$sanitize" = 0 ] && [ "$rss" -gt 102400 ]; then
      echo "FAIL: id $id, $flags: peak RSS $((rss / 1024)) MB > 100 MB"; fail=1
    fi
  done
done
if [ "$sanitize" = 0 ]; then
  "$gen" 4M "$tmp/k4.spv" >/dev/null
  for case in "150000 -O2" "300000 -O2 --verify" "350000 -O2 --verify"; do
    read -r limit flags <<<"$case"
    set +e
    # shellcheck disable=SC2086
    (ulimit -v "$limit"; exec timeout 120 "$xeopt" $flags "$tmp/k4.spv" -o "$tmp/k4.out.spv") 2>"$tmp/err"
    rc=$?
    set -e
    echo "ulimit -v $limit, $flags: exit $rc: $(tail -2 "$tmp/err")"
    if [ "$rc" != 2 ] || ! grep -qx "xeopt: error: $tmp/k4.spv: out of memory" "$tmp/err"; then
      echo "FAIL: ulimit -v $limit, $flags: expected exit 2 and 'xeopt: error: $tmp/k4.spv: out of memory'"
      fail=1
    fi
  done
fi
exit $fail
