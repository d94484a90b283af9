#!/usr/bin/env bash
# Installs the build into a scratch prefix and builds a tiny application against the installed
# ARM API headers twice: with find_package(VulkanArmML) (CMAKE_PREFIX_PATH) and with pkg-config
# vulkan-arm-ml (PKG_CONFIG_PATH); each must compile, link and print the extension names.
#   check_dev.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work="$build/tests/install/dev"
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
expect="VK_ARM_tensors VK_ARM_data_graph"
for mode in config pkg-config; do
  flag=OFF
  [ "$mode" = pkg-config ] && flag=ON
  env -u CMAKE_PREFIX_PATH PKG_CONFIG_PATH="$prefix/share/pkgconfig" \
    cmake -S "$src/tests/install/consumer" -B "$work/$mode" -G Ninja -DUSE_PKG_CONFIG=$flag \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="-Wall -Werror" >"$work/$mode.log" 2>&1 ||
    { cat "$work/$mode.log"; exit 1; }
  cmake --build "$work/$mode" >>"$work/$mode.log" 2>&1 || { cat "$work/$mode.log"; exit 1; }
  out=$("$work/$mode/consumer")
  case "$out" in
    "$expect "*) echo "$mode: $out" ;;
    *) echo "$mode: unexpected output: $out"; exit 1 ;;
  esac
done
# The include flag points into the scratch prefix (relative to the .pc file), not at the
# source tree.
inc=$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags-only-I vulkan-arm-ml |
  sed -n 's/^-I\([^ ]*\).*/\1/p')
[ "$(realpath "$inc")" = "$(realpath "$prefix/include")" ] ||
  { echo "pkg-config --cflags names $inc, not $prefix/include"; exit 1; }
echo "find_package(VulkanArmML) and pkg-config vulkan-arm-ml build against $prefix"
