#!/usr/bin/env bash
# The test command: install dependencies, build with -Werror, run every test.
# CTest's summary is the last thing printed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="${VMEL_BUILD_DIR:-$here/build}"
bash "$here/tools/build.sh" -DVMEL_WERROR=ON
cd "$build"
exec ctest --output-on-failure -j "$(nproc)"
