#!/usr/bin/env bash
# The main job: build, then run vmel-run with no arguments on this machine's default
# Vulkan device (lavapipe here), through both layers: the built-in int8 and fp32 example
# networks (conv -> rescale/clamp -> pool -> matmul) run as SPIR-V graphs and are checked
# against the CPU reference; the exit status is non-zero if either fails. Extra arguments go to
# vmel-run (e.g. --dispatches 10 --profile). vmel-info (what the layers expose) stays available:
#   tools/run-lvp.sh build/tools/vmel-info/vmel-info
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="${VMEL_BUILD_DIR:-$here/build}"
bash "$here/tools/build.sh"
exec "$here/tools/run-lvp.sh" --build "$build" "$build/tools/vmel-run/vmel-run" "$@"
