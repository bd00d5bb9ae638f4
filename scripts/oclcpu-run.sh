#!/usr/bin/env bash
# Runs an OpenCL application on Intel's CPU OpenCL runtime (PyPI
# intel-opencl-rt, installed into build/oclcpu/venv by
# tests/oclcpu/compare.py --setup, which this does when it is missing),
# through Debian's ICD loader (ocl-icd), and with --layer through xeopt's
# OpenCL layer (build/libxeopt_cl_layer.so, on every device):
#
#   scripts/oclcpu-run.sh [--layer] COMMAND [ARG...]
#
# The runtime's own libraries come first on the library path, except the
# wheel's copy of Khronos' loader, which does not load layers (docs/layer.md).
# XEOPT_LAYER_* variables set by the caller are kept.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rt="$root/build/oclcpu"
layer=0
[ "${1:-}" = "--layer" ] && { layer=1; shift; }
[ $# -ge 1 ] || { echo "usage: oclcpu-run.sh [--layer] COMMAND [ARG...]" >&2; exit 2; }
if [ ! -e "$rt/venv/lib/libintelocl.so" ]; then
  python3 "$root/tests/oclcpu/compare.py" --setup --runtime "$rt" >&2
fi
mkdir -p "$rt/vendors" "$rt/rtlib"
echo "$rt/venv/lib/libintelocl.so" > "$rt/vendors/intel-cpu.icd"
for f in "$rt"/venv/lib/*; do
  case "${f##*/}" in libOpenCL*) ;; *) ln -sfn "$f" "$rt/rtlib/" ;; esac
done
export OCL_ICD_VENDORS="$rt/vendors" LD_LIBRARY_PATH="$rt/rtlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset OCL_ICD_FILENAMES
if [ "$layer" = 1 ]; then
  export OPENCL_LAYERS="$root/build/libxeopt_cl_layer.so" XEOPT_LAYER_DEVICES="${XEOPT_LAYER_DEVICES:-all}"
fi
exec "$@"
