# SPDX-License-Identifier: MIT
# vmel_add_layer(target SOURCES ...): a Vulkan layer shared library.
# Symbols are hidden except the loader entry points (LYR_EXPORT), and the
# library binds its own symbols first (-Bsymbolic): without it the loader's
# vkGetInstanceProcAddr interposes the layer's and instance creation deadlocks
# (tests/unit/test_layer_exports.c checks both).
function(vmel_add_layer target)
  cmake_parse_arguments(L "" "" "SOURCES" ${ARGN})
  # lyr_entry.c holds the exported entry points; it answers from the layer's
  # lyr_layer_hooks, so it is compiled into each layer, not taken from the lyr archive.
  add_library(${target} SHARED ${L_SOURCES} ${CMAKE_SOURCE_DIR}/layers/lyr_entry.c)
  target_link_libraries(${target} PRIVATE lyr)
  target_link_options(${target} PRIVATE
    -Wl,-Bsymbolic -Wl,--no-undefined -Wl,-z,relro -Wl,-z,now -Wl,--exclude-libs,ALL)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()
