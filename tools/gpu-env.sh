# Sourced on the machine a folder staged by tools/gpu-stage.sh was carried to, from the tree's
# root: `. tools/gpu-env.sh DIR`. Unpacks Debian's Vulkan loader and the GL vendor-neutral
# dispatch libraries the NVIDIA ICD (libGLX_nvidia) needs (every DIR/debs/*.deb but the
# validation layer, into /, as the device tool's README says; without libglvnd0 the loader
# reports "Could not get 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr'") and the validation
# layer (DIR/debs/vulkan-validationlayers_*.deb, into /tmp/vvl), all fetched here with
# `apt-get download` for amd64 (docs/testing.md), then sets PATH, VK_LAYER_PATH,
# LD_LIBRARY_PATH and, where the NVIDIA ICD is mounted outside the loader's search path,
# VK_DRIVER_FILES.
h=$(cd "$1" && pwd)
for f in "$h"/debs/*.deb; do
  case $f in */vulkan-validationlayers_*) ;; *) dpkg -x "$f" / ;; esac
done
ldconfig
mkdir -p /tmp/vvl
for f in "$h"/debs/vulkan-validationlayers_*.deb; do dpkg -x "$f" /tmp/vvl; done
export PATH=$h/bin:$PATH
export VK_LAYER_PATH=$h/manifests:/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH=$h/lib:/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
export PYTHONUNBUFFERED=1
