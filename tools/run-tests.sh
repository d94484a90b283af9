#!/usr/bin/env bash
# The test command: install dependencies, build with -Werror, run every test
# under AddressSanitizer/UndefinedBehaviorSanitizer (build-asan/), the
# concurrency tests under ThreadSanitizer (build-tsan/), run the
# end-to-end tests again on the lavapipe of Mesa 25 from bookworm-backports
# (build-lvp25/: Vulkan 1.4, descriptor buffers, update-after-bind; skipped
# with a warning when the Debian archive cannot be reached), then run every
# test of the normal build. CTest's summary of the normal build is the last
# thing printed.
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
# Left out here (they run in the normal build, and the kernel choices on lavapipe 25 too): the
# package and manual-page tests and vmel-info's JSON check (tools, not layer memory), the
# flatc-made .tosa files (the reader is fuzzed under sanitizers: tests/fuzz), and the runs of
# a test under another kernel choice (same layer code, other kernels).
asan_skip='^(install\.|docs\.help\.|e2e\.vmel_info_why$|e2e\.tosa\.)|\.(reference|gpu_tiles|gpu|off|nv|khr|split_k)$'
(cd "$asan" && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc)" -LE unit -E "$asan_skip")

# ThreadSanitizer (build-tsan/): the layers, the concurrency stress test (8 threads per scenario)
# and the map's concurrent unit cases, built alone with the first build's kernels. Reports
# whose racing accesses or locks all lie in the loader, lavapipe, the validation layer or
# glslang (not instrumented) are suppressed in tests/tsan.supp, each with the reason; any other
# report fails the stage (halt_on_error). VMEL_TEST_CONCURRENCY_ITERATIONS stays at the test's
# short default here; docs/testing.md gives the longer run by hand.
tsan="${VMEL_TSAN_BUILD_DIR:-$here/build-tsan}"
cmake -S "$here" -B "$tsan" -G Ninja -DVMEL_WERROR=ON -DVMEL_TSAN=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVMEL_PREBUILT_KERNELS_DIR="$build/generated/kernels"
cmake --build "$tsan" -j "$(nproc)" --target vmel_manifests test_concurrency test_map
(cd "$tsan" &&
   TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$here/tests/tsan.supp" \
   ctest --output-on-failure -j "$(nproc)" -R '^(unit\.test_map|e2e\.test_concurrency)$')

# The second lavapipe: unpacked into a private folder (the system driver stays), the layers
# built again only for the test environment's ICD path, with the first build's kernels.
lvp25="${VMEL_LVP25_DIR:-$here/.lvp25}"
lvp25_build="${VMEL_LVP25_BUILD_DIR:-$here/build-lvp25}"
if [ -f "$lvp25/lvp_icd.json" ] || bash "$here/tools/get-lavapipe25.sh" "$lvp25"; then
  cmake -S "$here" -B "$lvp25_build" -G Ninja -DVMEL_WERROR=ON -DVMEL_LVP_ICD="$lvp25/lvp_icd.json" \
    -DVMEL_PREBUILT_KERNELS_DIR="$build/generated/kernels"
  cmake --build "$lvp25_build" -j "$(nproc)"
  (cd "$lvp25_build" &&
     LD_LIBRARY_PATH="$lvp25/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
     ctest --output-on-failure -j "$(nproc)" -L e2e -E '^e2e\.tosa\.|\.(reference|gpu_tiles|gpu|off|split_k)$')
else
  echo "run-tests: WARNING: lavapipe 25 (bookworm-backports) could not be fetched;" \
       "its end-to-end stage is skipped" >&2
fi

cd "$build"
exec ctest --output-on-failure -j "$(nproc)"
