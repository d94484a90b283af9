#!/usr/bin/env bash
# Runs a command with the build tree's layers on lavapipe, the way the tests do:
#   tools/run-lvp.sh [--build DIR] [--lvp25 DIR] COMMAND [ARGS...]
# Layers come from DIR/manifests (default: build); the command enables them
# itself (vmel-run, vmel-info and the tests do), or set VK_INSTANCE_LAYERS=VK_LAYER_ML_Emulation.
# --lvp25 DIR: the lavapipe of Mesa 25 that tools/get-lavapipe25.sh unpacked into DIR (Vulkan 1.4,
# descriptor buffers) instead of the system's.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build"
lvp25=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --lvp25) lvp25=$(cd "$2" && pwd); shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--build DIR] [--lvp25 DIR] COMMAND [ARGS...]" >&2; exit 2; }

icd=""
if [ -n "$lvp25" ]; then
  icd="$lvp25/lvp_icd.json"
  [ -f "$icd" ] || { echo "$icd not found: run tools/get-lavapipe25.sh $lvp25" >&2; exit 1; }
  export LD_LIBRARY_PATH="$lvp25/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  for f in /usr/share/vulkan/icd.d/lvp_icd.x86_64.json /usr/share/vulkan/icd.d/lvp_icd.json; do
    [ -f "$f" ] && icd="$f" && break
  done
  [ -n "$icd" ] || { echo "lavapipe not found: run tools/install-deps.sh" >&2; exit 1; }
fi

export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"
export VK_LAYER_PATH="$build/manifests:/usr/share/vulkan/explicit_layer.d"
export NODEVICE_SELECT=1 MESA_VK_IGNORE_CONFORMANCE_WARNING=1
exec "$@"
