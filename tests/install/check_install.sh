#!/usr/bin/env bash
# Installs the build into a fresh prefix and runs the installed vmel-info with
# only the installed manifests on the layer path: both layers must load from
# there and offer their extensions (vmel-info exits 0 only then). Then the
# installed vmel-run, from outside the source and build trees: its example
# networks are embedded, so the main job must pass there too.
#   check_install.sh BUILD_DIR LVP_ICD
set -euo pipefail
build=$1
icd=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
layers="$prefix/share/vulkan/explicit_layer.d"
for f in VkLayer_Tensor.json VkLayer_Graph.json VkLayer_ML_Emulation.json; do
  [ -f "$layers/$f" ] || { echo "missing $layers/$f"; exit 1; }
done
for lib in libVkLayer_Tensor.so libVkLayer_Graph.so; do
  [ -n "$(find "$prefix" -name "$lib")" ] || { echo "$lib not installed"; exit 1; }
done
env -u VK_INSTANCE_LAYERS VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd" \
  VK_LAYER_PATH="$layers" NODEVICE_SELECT=1 "$prefix/bin/vmel-info" > "$prefix/info.txt"
grep -q "VK_ARM_tensors  *version 2" "$prefix/info.txt"
grep -q "VK_ARM_data_graph  *version 1" "$prefix/info.txt"
(cd "$prefix" && env -u VK_INSTANCE_LAYERS VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd" \
  VK_LAYER_PATH="$layers" NODEVICE_SELECT=1 "$prefix/bin/vmel-run" > "$prefix/run.txt") ||
  { cat "$prefix/run.txt"; exit 1; }
grep -q "3 of 3 example networks passed" "$prefix/run.txt"
echo "installed layers load from $layers; installed vmel-run passes"
