#!/usr/bin/env bash
# `-g` changes nothing that is optimized (issue 47, item 5): a few testdata
# kernels built as testdata/regen.sh builds them (clang-15 + llvm-spirv-15)
# and again with full debug info (-debug-info-kind=constructor, what
# `clang -g` passes: OpenCL.DebugInfo.100 DebugValue/DebugDeclare), then
# for each pair:
#   - `xeopt -O2 --remarks --assume-padded` prints the same remarks (source
#     locations and numeric ids, which -g shifts, left out).  Where clang-15
#     itself emits other code under -g (the inputs' instructions, debug
#     info and OpLine aside, differ: it keeps loops' preheader and exit
#     blocks), simplify-cfg's and block-order's remarks, which are about
#     those blocks, are left out too;
#   - `xeopt --cost=dg2,pvc` prints the same estimates;
#   - the -g output validates as well as its input: spirv-val's first
#     error, if any, is the input's, or llvm-spirv-15's own debug-type
#     error (DebugTypePointer or DebugTypeQualifier of a typedef: spirv-val
#     checks debug instructions' operands after every id is defined and
#     dominates its uses, so such an output has no DebugValue naming what
#     a pass deleted or moved; an input whose DebugValue names a value
#     defined after it, as llvm-spirv-15 writes some, fails earlier);
#   - the -g output compiles with IGC (ocloc, dg2).
# The kernels: ones clang-15 compiles to the same code with and without -g,
# and three it does not, or xeopt once differed on: generic_address
# (generic-address read an OpLine's column as an id), priv_len64 (a
# DebugValue before its value's definition) and loop_spec_constants_halves
# (DebugScope between phis stopped simplify-cfg's phi walks: an undefined
# id).  KERNELS="..." runs others (all of testdata/kernels).
# Usage: debug_info.sh XEOPT WORKDIR SOURCE_DIR.  Exit 77 (skipped) without
# clang-15 or llvm-spirv-15; without ocloc the IGC step is skipped unless
# XEOPT_REQUIRE_OCLOC=1.
set -uo pipefail

xeopt=$1 work=$2 src=$3
CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
OCLOC=${OCLOC:-$(command -v ocloc || true)}
kernels=${KERNELS:-"guarded_copy pad_2d pad_early_return padding_stencil sg_copy sg_guarded exec_generic priv_volatile block_io_types generic_address priv_len64 loop_spec_constants_halves"}

for t in "$CLANG" "$LLVM_SPIRV" spirv-val spirv-dis; do
    command -v "$t" >/dev/null || { echo "skip: $t not found"; exit 77; }
done
if [ -z "$OCLOC" ] && [ "${XEOPT_REQUIRE_OCLOC:-0}" = 1 ]; then
    echo "FAIL: ocloc not found (XEOPT_REQUIRE_OCLOC=1)"; exit 1
fi
mkdir -p "$work"
export XEOPT_CHECK_PASSES=1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Remarks without what -g may change: "at k.cl:7" and "(line 7)" exist
# only with line info, and -g numbers ids differently.
# With a second argument (the inputs' code differs), without the remarks
# of the passes that act on clang's extra blocks.
normalize() {
    sed -E -e 's/ at [^ ]+:[0-9]+(:[0-9]+)?//g' -e 's/ \(line [0-9]+\)//g' -e 's/%[0-9]+/%N/g' "$1" |
        if [ -n "${2:-}" ]; then grep -v '\[simplify-cfg\]\|\[block-order\]'; else cat; fi
}

# The opcodes of the functions' instructions, OpLine and debug info aside.
code() {
    spirv-dis --raw-id --no-header "$1" | awk '
        /OpExtInstImport/ && /DebugInfo|SPIRV\.debug/ { dbg[$1] = 1 }
        { op = $2 == "=" ? $3 : $1 }
        op == "OpFunction" { f = 1 }
        f && op != "OpLine" && op != "OpNoLine" && !(op == "OpExtInst" && ($5 in dbg)) {
            print op (op == "OpExtInst" ? " " $6 : "") }
        op == "OpFunctionEnd" { f = 0 }'
}

# spirv-val's first error without its line number, or "valid".
val() {
    local out
    if out=$(spirv-val "$1" 2>&1); then echo valid; else echo "$out" | head -1 | sed -E 's/line [0-9]+: //'; fi
}

for k in $kernels; do
    cl=$src/testdata/kernels/$k.cl
    flags=$(awk 'NR == 1 && /^\/\/ *xeopt-test:/ { sub(/^\/\/ *xeopt-test:/, ""); print; exit }' "$cl")
    opt=-O2 ext=() spvext=()
    for f in $flags; do
        case $f in
        -O*) opt=$f ;;
        subgroups) ext=(-cl-ext=+cl_intel_subgroups); spvext=(--spirv-ext=+SPV_INTEL_subgroups) ;;
        spirv13) spvext+=(--spirv-max-version=1.3) ;;
        esac
    done
    for g in plain g; do
        dbg=()
        [ $g = g ] && dbg=(-debug-info-kind=constructor -dwarf-version=5)
        base=$work/$k.$g
        "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 "$opt" -no-opaque-pointers \
            -emit-llvm-bc -finclude-default-header ${ext[@]+"${ext[@]}"} ${dbg[@]+"${dbg[@]}"} \
            "$cl" -o "$base.bc" || { fail "$k: $CLANG $g"; continue 2; }
        "$LLVM_SPIRV" ${spvext[@]+"${spvext[@]}"} "$base.bc" -o "$base.spv" || { fail "$k: $LLVM_SPIRV $g"; continue 2; }
        "$xeopt" -O2 --remarks --assume-padded "$base.spv" -o "$base.out.spv" 2> "$base.remarks" ||
            { fail "$k ($g): xeopt -O2 exited $?:"; cat "$base.remarks"; continue 2; }
        "$xeopt" --cost=dg2,pvc "$base.spv" > "$base.cost" 2>&1 || { fail "$k ($g): xeopt --cost"; continue 2; }
    done
    p=$work/$k.plain g=$work/$k.g
    spirv-dis "$g.spv" -o "$g.spvasm"
    grep -q 'DebugValue\|DebugDeclare\|DebugScope' "$g.spvasm" || fail "$k: the -g module has no debug instructions (DebugValue, DebugDeclare, DebugScope)"
    other=
    if ! diff -q <(code "$p.spv") <(code "$g.spv") > /dev/null; then
        other=1
        echo "$k: clang-15 -g emits other code (simplify-cfg's and block-order's remarks left out)"
    fi
    if ! diff <(normalize "$p.remarks" $other) <(normalize "$g.remarks" $other) > "$work/$k.remarks.diff"; then
        fail "$k: -g changes the remarks (< without, > with -g):"; cat "$work/$k.remarks.diff"
    fi
    if ! diff "$p.cost" "$g.cost" > "$work/$k.cost.diff"; then
        fail "$k: -g changes the cost estimates (< without, > with -g):"; cat "$work/$k.cost.diff"
    fi
    vin=$(val "$g.spv") vout=$(val "$g.out.spv")
    [ "$vin" = "$vout" ] || [[ $vout == *"OpenCL.DebugInfo.100 DebugType"*"Base Type must be a result id of DebugTypeBasic"* ]] || fail "$k: the -g output validates worse than its input: input: $vin; output: $vout"
    if [ -n "$OCLOC" ]; then
        # ocloc writes beside the working directory: one of its own.
        mkdir -p "$work/ocloc-$k"
        if ! (cd "$work/ocloc-$k" && "$OCLOC" compile -spirv_input -file "$g.out.spv" -device dg2 \
                > log.txt 2>&1); then
            fail "$k: IGC rejects the -g output:"; tail -5 "$work/ocloc-$k/log.txt"
        fi
    fi
    echo "$k: same remarks and estimates with -g${OCLOC:+, IGC compiles the -g output}"
done
[ -z "$OCLOC" ] && echo "note: ocloc not found, IGC not run"
echo "debug_info: $fails failure(s)"
[ $fails = 0 ]
