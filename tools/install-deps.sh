#!/usr/bin/env bash
# Installs every Debian 12 package needed to build and test the ML emulation layers.
# Nothing is downloaded from anywhere but Debian's package archive.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libvulkan-dev libvulkan1 vulkan-tools vulkan-validationlayers
  mesa-vulkan-drivers
  spirv-tools spirv-headers
  glslang-dev glslang-tools
  libspirv-cross-c-shared-dev spirv-cross
  libpng-dev # vmel-run --optical-flow: PNG frames in, flow pictures out
  clang-14 libclang-rt-14-dev # tools/fuzz.sh: libFuzzer and clang's sanitizers
  python3 # e2e.vmel_info_why parses vmel-info --json
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
