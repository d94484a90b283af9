#!/usr/bin/env bash
# Installs the Debian packages the project needs, then configures and builds
# into build/ (or $VMEL_BUILD_DIR). Extra arguments go to cmake's configure.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="${VMEL_BUILD_DIR:-$here/build}"
bash "$here/tools/install-deps.sh"
cmake -S "$here" -B "$build" -G Ninja "$@"
cmake --build "$build" -j "$(nproc)"
