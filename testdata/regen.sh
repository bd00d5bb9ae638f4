#!/usr/bin/env bash
# Regenerate testdata/spv/NAME.spv from testdata/kernels/NAME.{cl,spvasm}.
#
# Each .cl file starts with a line `// xeopt-test: FLAGS` where FLAGS is an
# optimization level (-O0 or -O2, default -O2) and optionally `subgroups`
# (adds -cl-ext=+cl_intel_subgroups to clang and
# --spirv-ext=+SPV_INTEL_subgroups to llvm-spirv) or `fp64` (the kernel uses
# double, which IGC cannot compile for dg2: the module goes to testdata/exec/
# instead, out of the tests that compile every testdata/spv module for dg2)
# or `spirv13` (adds --spirv-max-version=1.3 to llvm-spirv: read_imagei/ui
# and write_imagei/ui then carry no SPIR-V 1.4 SignExtend/ZeroExtend image
# operands, which IGC cannot compile).
# A .cl file is built with
#   clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 OPT
#     -no-opaque-pointers -emit-llvm-bc -finclude-default-header [EXT] k.cl -o k.bc
#   llvm-spirv-15 [SPVEXT] k.bc -o k.spv
# A .spvasm file is assembled with `spirv-as --target-env spv1.4` (IGC rejects
# SPIR-V 1.5 and later).
#
# Usage: testdata/regen.sh [NAME...]   (default: every kernel)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kdir=$here/kernels
odir=$here/spv
CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
SPIRV_AS=${SPIRV_AS:-spirv-as}
mkdir -p "$odir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -gt 0 ]; then
    srcs=()
    for n in "$@"; do
        n=${n%.cl}; n=${n%.spvasm}; n=${n##*/}
        if [ -f "$kdir/$n.cl" ]; then srcs+=("$kdir/$n.cl")
        elif [ -f "$kdir/$n.spvasm" ]; then srcs+=("$kdir/$n.spvasm")
        else echo "regen.sh: no kernel named $n" >&2; exit 1; fi
    done
else
    shopt -s nullglob
    srcs=("$kdir"/*.cl "$kdir"/*.spvasm)
fi

for src in "${srcs[@]}"; do
    base=${src##*/}
    name=${base%.*}
    out=$odir/$name.spv
    case $base in
    *.spvasm)
        "$SPIRV_AS" --target-env spv1.4 "$src" -o "$tmp/$name.spv"
        mv "$tmp/$name.spv" "$out"
        echo "$name: spirv-as --target-env spv1.4"
        ;;
    *.cl)
        flags=$(awk 'NR == 1 && /^\/\/ *xeopt-test:/ { sub(/^\/\/ *xeopt-test:/, ""); print; exit }' "$src")
        opt=-O2 ext=() spvext=() desc=
        for f in $flags; do
            case $f in
            -O0|-O1|-O2|-O3) opt=$f ;;
            fp64) out=$here/exec/$name.spv; desc="$desc fp64" ;;
            subgroups) ext=(-cl-ext=+cl_intel_subgroups)
                       spvext=(--spirv-ext=+SPV_INTEL_subgroups)
                       desc=" subgroups" ;;
            spirv13) spvext+=(--spirv-max-version=1.3)
                     desc="$desc spirv13" ;;
            *) echo "regen.sh: $base: unknown flag '$f'" >&2; exit 1 ;;
            esac
        done
        "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 "$opt" \
            -no-opaque-pointers -emit-llvm-bc -finclude-default-header \
            ${ext[@]+"${ext[@]}"} "$src" -o "$tmp/$name.bc"
        "$LLVM_SPIRV" ${spvext[@]+"${spvext[@]}"} "$tmp/$name.bc" -o "$tmp/$name.spv"
        mv "$tmp/$name.spv" "$out"
        echo "$name: clang-15 $opt$desc"
        ;;
    esac
done
