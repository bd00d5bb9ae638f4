#!/bin/sh
# Rebuilds testdata/spv/padding_*.spv from these kernels.  Line tables are
# kept as OpLine (the guard's source line goes to remarks and the manifest);
# the OpenCL.DebugInfo.100 instructions llvm-spirv-15 emits with them are
# dropped because spirv-val rejects them.  padding_two is built without -g
# to cover guards without a source line.
set -e
cd "$(dirname "$0")"
for k in padding_*.cl; do
  n=${k%.cl}
  g=-debug-info-kind=line-tables-only
  [ "$n" = padding_two ] && g=
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -O2 -no-opaque-pointers \
    -emit-llvm-bc -finclude-default-header $g "$k" -o "/tmp/$n.bc"
  llvm-spirv-15 "/tmp/$n.bc" -o "/tmp/$n.spv"
  spirv-dis --raw-id "/tmp/$n.spv" |
    grep -v 'OpExtInst %[0-9a-z_]* %[0-9]* Debug\|OpExtInstImport "OpenCL.DebugInfo.100"' |
    sed 's|OpString "/[^"]*/\([^"/]*\)"|OpString "\1"|' > "/tmp/$n.spvasm"
  spirv-as --target-env spv1.4 "/tmp/$n.spvasm" -o "../spv/$n.spv"
  spirv-val "../spv/$n.spv"
done
# Hand-written modules.
for s in padding_*.spvasm; do
  spirv-as --target-env spv1.4 "$s" -o "../spv/${s%.spvasm}.spv"
  spirv-val "../spv/${s%.spvasm}.spv"
done
