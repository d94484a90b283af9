#!/usr/bin/env bash
# Unpacks lavapipe from Mesa 25 (Debian bookworm-backports: Vulkan 1.4, VK_EXT_descriptor_buffer)
# into a private directory, without touching the system's apt state or packages:
#   tools/get-lavapipe25.sh [DIR]          (default DIR: .lvp25 in the repository root)
# Writes DIR/lvp_icd.json (absolute library path) and DIR/root/ (the unpacked packages).
# Run a program on it with: tools/run-lvp.sh --lvp25 DIR [--build BUILD] COMMAND [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-"$here/.lvp25"}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

apt="$dir/apt"
mkdir -p "$apt/state/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$dir/root"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$apt/sources.list" <<SRC
deb [signed-by=$keyring] http://deb.debian.org/debian bookworm-backports main
deb [signed-by=$keyring] http://deb.debian.org/debian bookworm main
SRC
: > "$apt/status"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
      -o "Dir::Etc::Preferences=/dev/null" -o "Dir::Etc::PreferencesParts=/dev/null"
      -o "Dir::State=$apt/state" -o "Dir::State::status=$apt/status"
      -o "Dir::Cache=$apt/cache" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")

echo "get-lavapipe25: apt-get update (private state in $apt)"
apt-get -q "${opts[@]}" update >/dev/null

fetch() { # fetch PKG[/SUITE]...: download into $apt/debs and unpack into $dir/root
  (cd "$apt/debs" && apt-get -q "${opts[@]}" download "$@" >/dev/null)
}
fetch mesa-vulkan-drivers/bookworm-backports libdrm2/bookworm-backports \
      libdrm-amdgpu1/bookworm-backports
for deb in "$apt"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done

libdir="$dir/root/usr/lib/x86_64-linux-gnu"
lib="$libdir/libvulkan_lvp.so"
[ -f "$lib" ] || { echo "get-lavapipe25: $lib missing after unpacking" >&2; exit 1; }

# Whatever the library needs and the system lacks: LLVM by its package name, others reported.
missing() { LD_LIBRARY_PATH="$libdir" ldd "$lib" | awk '/not found/ {print $1}'; }
for so in $(missing); do
  case "$so" in
    libLLVM-*.so.1) v=${so#libLLVM-}; v=${v%%.*}; fetch "libllvm$v" ;;
    *) echo "get-lavapipe25: $so not found (install its package or add it here)" >&2 ;;
  esac
done
for deb in "$apt"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
left=$(missing)
[ -z "$left" ] || { echo "get-lavapipe25: still missing: $left" >&2; exit 1; }

api=$(sed -n 's/.*"api_version": *"\([0-9.]*\)".*/\1/p' \
      "$dir"/root/usr/share/vulkan/icd.d/lvp_icd*.json | head -n1)
cat > "$dir/lvp_icd.json" <<JSON
{
    "file_format_version": "1.0.0",
    "ICD": {
        "library_path": "$lib",
        "api_version": "${api:-1.4.305}"
    }
}
JSON
echo "get-lavapipe25: lavapipe $(dpkg-deb -f "$apt"/debs/mesa-vulkan-drivers_*.deb Version)" \
     "(Vulkan ${api:-?}) in $dir"
