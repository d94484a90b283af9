# Sourced on the machine a folder staged by tools/gpu-stage.sh was carried to, from the tree's
# root: `. tools/gpu-env.sh DIR`. Unpacks Debian's Vulkan loader (DIR/debs/libvulkan1_*.deb,
# into /, as the device tool's README says) and validation layer
# (DIR/debs/vulkan-validationlayers_*.deb, into /tmp/vvl), both fetched here with
# `apt-get download` for amd64, then sets PATH, VK_LAYER_PATH, LD_LIBRARY_PATH and, where the
# NVIDIA ICD is mounted outside the loader's search path, VK_DRIVER_FILES.
h=$(cd "$1" && pwd)
for f in "$h"/debs/libvulkan1_*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/vvl
for f in "$h"/debs/vulkan-validationlayers_*.deb; do dpkg -x "$f" /tmp/vvl; done
export PATH=$h/bin:$PATH
export VK_LAYER_PATH=$h/manifests:/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH=$h/lib:/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export PYTHONUNBUFFERED=1
