#!/usr/bin/env bash
# Builds the fuzz targets (clang-15, libFuzzer, ASan, UBSan) in build-fuzz/
# and runs one for a given time:  fuzz/run.sh fuzz_reader 600
# (further arguments go to libFuzzer, e.g. -fork=1 -ignore_crashes=1 to
# keep going after a finding)
# The corpus lives in build-fuzz/corpus/TARGET, seeded from testdata/spv;
# crashes are written to build-fuzz/crashes/TARGET.  The last lines printed
# give the executions and time (libFuzzer's "Done N runs in S second(s)").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:?usage: fuzz/run.sh TARGET SECONDS [libFuzzer options]}"
seconds="${2:?usage: fuzz/run.sh TARGET SECONDS [libFuzzer options]}"
shift 2
b="$root/build-fuzz"
if [ ! -f "$b/CMakeCache.txt" ]; then
  CC=clang-15 CXX=clang++-15 cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DXEOPT_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
fi
cmake --build "$b" --target "$target" -j 2 >/dev/null
mkdir -p "$b/corpus/$target" "$b/crashes/$target"
if [ "$target" = fuzz_manifest ]; then
  cp -n "$root"/testdata/golden/*.json "$b/corpus/$target/" 2>/dev/null || true
else
  cp -n "$root"/testdata/spv/*.spv "$b/corpus/$target/" 2>/dev/null || true
fi
extra=()
[ "$target" = fuzz_exec ] && extra=(-timeout=10)
cd "$b/crashes/$target"
"$b/fuzz/$target" "$b/corpus/$target" -max_total_time="$seconds" -max_len=65536 \
  -print_final_stats=1 "${extra[@]}" "$@" 2>&1 | tail -n 25
