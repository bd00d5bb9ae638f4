#!/usr/bin/env bash
# Quick start (2): install what is missing, build, and run all tests.
# IGC (ocloc 22 and 26), Oclgrind and Chromium are installed by deps.sh, so their tests are required
# to run, not skipped.
#   scripts/test.sh             the normal build (build/), all tests
#   scripts/test.sh --sanitize  an ASan+UBSan build (build-asan/), all tests
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
export XEOPT_REQUIRE_OCLOC=1 XEOPT_REQUIRE_OCLGRIND=1 XEOPT_REQUIRE_CHROMIUM=1 XEOPT_REQUIRE_OCLCPU=1
skip=()
if [ "${1:-}" = "--sanitize" ]; then
  cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DXEOPT_SANITIZE=ON >/dev/null
  cmake --build "$root/build-asan" -j "$(nproc)"
  cd "$root/build-asan"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  # The real-code corpus (label corpus), the front-end suites (frontends)
  # and the CPU-runtime comparison (oclcpu) run in the normal build only:
  # their time is in compilers, IGC and a second executor, not in our code,
  # and under ASan the corpus's multi-megabyte modules would take most of
  # CI's time.  The README's commands (readme) are a user's, on the normal
  # build: under ASan the Level Zero loader's dlopen(RTLD_DEEPBIND) aborts.
  skip=(-LE 'corpus|frontends|oclcpu|readme')
  # The interpreter runs 3 to 5 times slower under ASan: Check's per-case
  # limits (test_o2_all's --verify of private_arrays_hist17) scale with it.
  export CK_TIMEOUT_MULTIPLIER=3
else
  "$root/scripts/build.sh"
  cd "$root/build"
fi
ctest --output-on-failure -j "$(nproc)" "${skip[@]}"
