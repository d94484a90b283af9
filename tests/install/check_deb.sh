#!/usr/bin/env bash
# Builds the Debian package with cpack, checks its metadata, unpacks it with dpkg -x into a
# scratch root under the build tree and runs the unpacked tools from there, the Vulkan
# loader finding the layers only through VK_LAYER_PATH=<root>/usr/share/vulkan/explicit_layer.d.
# The manifests' library_path is relative to the manifest (../../../lib/<multiarch>/...), so it
# resolves inside the scratch root as it does under /usr: nothing is rewritten and
# LD_LIBRARY_PATH is left as the caller has it (a driver may need it), never pointed into the
# root (docs/decisions.md D54).
#   check_deb.sh BUILD_DIR LVP_ICD LIBDIR
set -euo pipefail
build=$1
icd=$2
libdir=$3
work="$build/tests/install/deb"
rm -rf "$work"
mkdir -p "$work"
# cpack installs the build into its own staging folder under $work and packs it.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/*.deb)
dpkg-deb --field "$deb" Package Version Architecture Depends | tee "$work/fields.txt"
grep -q "^Package: vulkan-ml-emulation-layers$" "$work/fields.txt"
grep -q "^Depends: .*libvulkan1" "$work/fields.txt" ||
  { echo "Depends lacks libvulkan1"; exit 1; }

root="$work/root"
dpkg -x "$deb" "$root"
layers="$root/usr/share/vulkan/explicit_layer.d"
for f in VkLayer_Tensor.json VkLayer_Graph.json VkLayer_ML_Emulation.json; do
  [ -f "$layers/$f" ] || { echo "missing /usr/share/vulkan/explicit_layer.d/$f"; exit 1; }
done
# Each library_path names a file of the package, relative to its manifest.
for f in VkLayer_Tensor.json VkLayer_Graph.json; do
  rel=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$layers/$f")
  case "$rel" in /*) echo "$f: absolute library_path $rel"; exit 1 ;; esac
  lib=$(cd "$layers" && realpath -e "$rel") || { echo "$f: $rel does not exist"; exit 1; }
  [ "$lib" = "$(realpath "$root/usr/$libdir")/$(basename "$rel")" ] ||
    { echo "$f: $rel is not in /usr/$libdir"; exit 1; }
done
for h in vulkan/vulkan_arm_ml.h spirv/spirv_arm_ml.h vmel_graph.h; do
  [ -f "$root/usr/include/$h" ] || { echo "missing /usr/include/$h"; exit 1; }
done
[ -f "$root/usr/share/doc/vulkan-ml-emulation-layers/copyright" ] || { echo "no copyright"; exit 1; }
[ -f "$root/usr/share/cmake/VulkanArmML/VulkanArmMLConfig.cmake" ] &&
  [ -f "$root/usr/share/pkgconfig/vulkan-arm-ml.pc" ] || { echo "missing package config"; exit 1; }

# Every tool has a manual page and a --help that exits 0.
tools=0
for tool in "$root"/usr/bin/*; do
  name=$(basename "$tool")
  [ -f "$root/usr/share/man/man1/$name.1.gz" ] || { echo "no manual page for $name"; exit 1; }
  zcat "$root/usr/share/man/man1/$name.1.gz" | grep -q "^\.TH ${name^^} 1" ||
    { echo "$name.1.gz is not its manual page"; exit 1; }
  "$tool" --help >/dev/null || { echo "$name --help failed"; exit 1; }
  tools=$((tools + 1))
done
[ "$tools" -ge 5 ] || { echo "only $tools tools in /usr/bin"; exit 1; }

# Run from the scratch root, outside the source and build trees.
run() {
  (cd "$root" && env -u VK_INSTANCE_LAYERS -u VK_ADD_LAYER_PATH -u VK_LOADER_LAYERS_ENABLE \
     VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd" VK_LAYER_PATH="$layers" NODEVICE_SELECT=1 \
     "$@")
}
run usr/bin/vmel-run >"$work/run.txt" 2>&1 || { cat "$work/run.txt"; exit 1; }
grep -q "3 of 3 example networks passed" "$work/run.txt" || { cat "$work/run.txt"; exit 1; }
# The meta layer of the package stacks graph above tensor.
run usr/bin/vmel-info --layers VK_LAYER_ML_Emulation >"$work/info.txt" 2>&1 ||
  { cat "$work/info.txt"; exit 1; }
grep -q "VK_ARM_data_graph  *version 1" "$work/info.txt"
echo "$(basename "$deb"): $tools tools, vmel-run passes from $root with only VK_LAYER_PATH set"
