#!/usr/bin/env bash
# Installs the Debian 12 packages xeopt needs to build, test and benchmark,
# skipping those already present, then the 2026 toolchains (clang 21, llvm-spirv 21,
# ocloc 26 / IGC 2.x, SPIRV-Tools 2026) in a Debian sid root (scripts/toolchains.sh).  Needs root (or sudo) when something is
# missing.
set -euo pipefail
pkgs=(
  cmake make gcc g++ pkg-config          # build
  spirv-tools spirv-headers libcjson-dev # SPIR-V parsing/validation, grammar, JSON
  libxxhash-dev                          # the OpenCL layer's cache keys (src/layer/cache.c)
  check libsubunit-dev                   # unit tests
  intel-opencl-icd libigc-tools          # ocloc (IGC) and iga64: ISA acceptance and statistics
  clang-15 llvm-spirv-15 llvm-15-tools   # regenerating test inputs, FileCheck
  libze-dev                              # Level Zero headers (host support)
  python3 time valgrind                  # benchmark scripts, memcheck tests
  oclgrind llvm-spirv-14                 # the independent executor (tests/oclgrind): Oclgrind
                                         # 21.10 is built on LLVM 14, so SPIR-V goes back to
                                         # LLVM IR with the matching llvm-spirv-14 -r
  debootstrap                            # the 2026 toolchains' Debian sid root (toolchains.sh)
  chromium                               # tests/report: the HTML report opened as a person would
  clpeak hashcat                         # applications under the OpenCL layer: the demo's, bench/'s
  ocl-icd-libopencl1 ocl-icd-opencl-dev  # tests/oclcpu: the OpenCL ICD loader and headers for the
  opencl-headers clinfo python3-venv     # host that runs kernels on Intel's CPU runtime (PyPI,
                                         # installed into build/oclcpu by tests/oclcpu/compare.py)
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "xeopt: installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
"$(dirname "$0")/toolchains.sh"
