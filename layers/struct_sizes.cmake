# SPDX-License-Identifier: MIT
#
# The core struct-size table for pNext cloning (lyr_struct_size_core), generated
# at build time from the system vk.xml by a small C host tool. Sets
# LYR_STRUCT_SIZES_C to the generated source for the lyr library.
# The ARM ML structs are not in it; lyr_pnext.c lists those by hand.

get_filename_component(_lyr_vk_prefix "${Vulkan_INCLUDE_DIR}" DIRECTORY)
find_file(VMEL_VK_XML vk.xml
  HINTS ${_lyr_vk_prefix}/share/vulkan/registry
  PATHS /usr/share/vulkan/registry /usr/local/share/vulkan/registry
  DOC "vk.xml of the Vulkan headers the build uses (Debian: libvulkan-dev)")
if(NOT VMEL_VK_XML)
  message(FATAL_ERROR "vk.xml not found (Debian: apt install libvulkan-dev); "
                      "set VMEL_VK_XML to the vk.xml that matches ${Vulkan_INCLUDE_DIR}")
endif()

set(VMEL_VULKAN_CORE_H ${Vulkan_INCLUDE_DIR}/vulkan/vulkan_core.h)
if(NOT EXISTS ${VMEL_VULKAN_CORE_H})
  message(FATAL_ERROR "vulkan_core.h not found at ${VMEL_VULKAN_CORE_H}")
endif()

add_executable(vmel_gen_struct_sizes ${CMAKE_CURRENT_LIST_DIR}/gen_struct_sizes.c)

set(LYR_STRUCT_SIZES_C ${VMEL_GENERATED_DIR}/lyr_struct_sizes.c)
add_custom_command(
  OUTPUT ${LYR_STRUCT_SIZES_C}
  COMMAND vmel_gen_struct_sizes ${VMEL_VK_XML} ${VMEL_VULKAN_CORE_H} ${LYR_STRUCT_SIZES_C}
  DEPENDS vmel_gen_struct_sizes ${VMEL_VK_XML} ${VMEL_VULKAN_CORE_H}
  COMMENT "Generating lyr_struct_sizes.c from ${VMEL_VK_XML}"
  VERBATIM)
