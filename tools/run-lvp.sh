#!/usr/bin/env bash
# Runs a command with the build tree's layers on lavapipe, the way the tests do:
#   tools/run-lvp.sh [--build DIR] COMMAND [ARGS...]
# Layers come from DIR/manifests (default: build); the command enables them
# itself (vmel-run, vmel-info and the tests do), or set VK_INSTANCE_LAYERS=VK_LAYER_ML_Emulation.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--build DIR] COMMAND [ARGS...]" >&2; exit 2; }

icd=""
for f in /usr/share/vulkan/icd.d/lvp_icd.x86_64.json /usr/share/vulkan/icd.d/lvp_icd.json; do
  [ -f "$f" ] && icd="$f" && break
done
[ -n "$icd" ] || { echo "lavapipe not found: run tools/install-deps.sh" >&2; exit 1; }

export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"
export VK_LAYER_PATH="$build/manifests:/usr/share/vulkan/explicit_layer.d"
export NODEVICE_SELECT=1 MESA_VK_IGNORE_CONFORMANCE_WARNING=1
exec "$@"
