#!/usr/bin/env bash
# Quick start (2): install what is missing, build, and run all tests.
# IGC (ocloc) is installed by deps.sh, so its acceptance tests are required
# to run, not skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
export XEOPT_REQUIRE_OCLOC=1
cd "$root/build"
ctest --output-on-failure -j "$(nproc)"
