#!/usr/bin/env bash
# The test command: install dependencies, build with -Werror, run every test
# under AddressSanitizer/UndefinedBehaviorSanitizer (build-asan/), then run
# every test of the normal build. CTest's summary of the normal build is the
# last thing printed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="${VMEL_BUILD_DIR:-$here/build}"
asan="${VMEL_ASAN_BUILD_DIR:-$here/build-asan}"
bash "$here/tools/build.sh" -DVMEL_WERROR=ON

# The sanitizer build runs a 400-case conformance subset; the normal build runs every case.
# The sanitizer build copies the kernels the first build compiled (same sources).
cmake -S "$here" -B "$asan" -G Ninja -DVMEL_WERROR=ON -DVMEL_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  -DVMEL_CONFORMANCE_CTEST_CASES=400 -DVMEL_PREBUILT_KERNELS_DIR="$build/generated/kernels"
cmake --build "$asan" -j "$(nproc)"
# Leak checking stays on for the unit tests; the loader and lavapipe keep
# allocations past exit, so the end-to-end tests run without it.
(cd "$asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc)" -L unit)
(cd "$asan" && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc)" -LE unit)

cd "$build"
exec ctest --output-on-failure -j "$(nproc)"
