#!/usr/bin/env bash
# isa_counts.sh M.spv DEVICE KERNEL: compiles M.spv with IGC (ocloc) for
# DEVICE (dg2 or pvc) and prints `instructions sends scattered block` for
# KERNEL.  Exit 77 when ocloc or iga64 is missing.  The ocloc is
# $XEOPT_OCLOC, else ocloc on PATH: ocloc 22.x (kernel heaps, disassembled
# by iga64) or ocloc 26 (.text.KERNEL.asm, no iga64 needed; compiles for
# bmg, lnl, ptl too).
#
# Counting (IGC 22.43, iga64 text): instructions are the code lines up to
# and including the EOT send (the heap's nop/illegal padding is not code).
# The payload prologue (sends whose address is r127, the indirect payload
# pointer, or the bti[255] surface) and fences/gateway messages count as
# sends only.  A data send is `block` when its description says block (dg2
# oword/hword/media block) or has an LSC transposed size dNxMt (pvc
# load.ugm.d32x16t.a64), else `scattered` (dg2 untyped surface / a64
# gathering / scattering, pvc load.ugm.d32.a64 and friends).
set -euo pipefail
spv=$1 dev=$2 kernel=$3
case $dev in dg2) plat=12p71 ;; pvc) plat=12p72 ;; bmg|lnl|ptl) plat= ;; *) echo "unknown device $dev" >&2; exit 2 ;; esac
ocloc=${XEOPT_OCLOC:-$(command -v ocloc || true)}
[ -n "$ocloc" ] && [ -x "$ocloc" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ocloc" compile -q -spirv_input -file "$spv" -device "$dev" -output "$tmp/bin" -output_no_suffix >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; exit 1; }
bin=$tmp/bin; [ -f "$bin" ] || bin=$tmp/bin.bin   # ocloc 26 appends .bin anyway
"$ocloc" disasm -file "$bin" -dump "$tmp/d" -device "$dev" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
if [ -f "$tmp/d/.text.${kernel}.asm" ]; then
    cat "$tmp/d/.text.${kernel}.asm"
else
    command -v iga64 >/dev/null && [ -n "$plat" ] || exit 77
    iga64 -d -p=$plat "$tmp/d/${kernel}_KernelHeap.dat" 2>/dev/null
fi | awk '
    /^[ \t]*\/\// || /^[ \t]*$/ || /^[A-Za-z_0-9]+:/ { next }
    done { next }
    { n++ }
    /send/ {
        s++
        if ($0 ~ /EOT/) { done = 1; next }
        if ($0 ~ /r127[ \t]/ || $0 ~ /bti\[255\]/ || $0 ~ /fence|end of thread|barrier|gateway/) next
        if ($0 ~ /block/ || $0 ~ /\.d[0-9]+x[0-9]+t\./) b++
        else if ($0 ~ /untyped surface|gathering|scattering|scattered|\.(ugm|slm|tgm)/) sc++
    }
    END { printf "%d %d %d %d\n", n, s, sc, b }'
