#!/usr/bin/env bash
# The main job: build, then run the layers on this machine's default Vulkan
# device (lavapipe here) and print what they expose: vmel-info, through both
# layers. Later issues make vmel-run (a graph through both layers) the main job.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="${VMEL_BUILD_DIR:-$here/build}"
bash "$here/tools/build.sh"
exec "$here/tools/run-lvp.sh" --build "$build" "$build/tools/vmel-info/vmel-info"
