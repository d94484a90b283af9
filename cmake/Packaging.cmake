# SPDX-License-Identifier: MIT
#
# What an installation holds besides the layers, manifests and tools (installed where they
# are built): the public headers, a CMake package config and a pkg-config file for them, and
# the Debian package (`cpack -G DEB` in the build directory). docs/decisions.md D54.
include(CMakePackageConfigHelpers)

# The public headers: the ARM extension API, the SPIR-V numbers of the ARM instruction sets,
# the graph layer's own pipeline property.
install(FILES ${CMAKE_SOURCE_DIR}/include/vulkan/vulkan_arm_ml.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vulkan)
install(FILES ${CMAKE_SOURCE_DIR}/include/spirv/spirv_arm_ml.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/spirv)
install(FILES ${CMAKE_SOURCE_DIR}/include/vmel_graph.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# find_package(VulkanArmML): the INTERFACE target VulkanArmML::Headers (include directory
# and Vulkan::Headers). Located relative to the config file, so the tree can move.
set(_pkg_dir ${CMAKE_BINARY_DIR}/generated/package)
set(_cmake_dest ${CMAKE_INSTALL_DATADIR}/cmake/VulkanArmML)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/package/VulkanArmMLConfig.cmake.in
  ${_pkg_dir}/VulkanArmMLConfig.cmake
  INSTALL_DESTINATION ${_cmake_dest}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# The headers carry no ABI of their own: any architecture may use them.
write_basic_package_version_file(${_pkg_dir}/VulkanArmMLConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${_pkg_dir}/VulkanArmMLConfig.cmake ${_pkg_dir}/VulkanArmMLConfigVersion.cmake
        DESTINATION ${_cmake_dest})

# pkg-config: vulkan-arm-ml.pc, prefix relative to the file's folder (pcfiledir).
file(RELATIVE_PATH VMEL_PC_PREFIX_FROM_PCDIR /${CMAKE_INSTALL_DATADIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" VMEL_PC_PREFIX_FROM_PCDIR "${VMEL_PC_PREFIX_FROM_PCDIR}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/package/vulkan-arm-ml.pc.in
               ${_pkg_dir}/vulkan-arm-ml.pc @ONLY)
install(FILES ${_pkg_dir}/vulkan-arm-ml.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)

# The licence and the README where Debian keeps a package's (share/doc/<package>/copyright).
set(_doc_dir ${CMAKE_INSTALL_DATADIR}/doc/vulkan-ml-emulation-layers)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${_doc_dir} RENAME copyright)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${_doc_dir})

# The Debian package: everything above under /usr, one binary package (D54 says why one).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vulkan-ml-emulation-layers)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The vmel authors")
set(CPACK_PACKAGE_CONTACT "The vmel authors <vmel@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "ML emulation layers for Vulkan: VK_ARM_tensors and VK_ARM_data_graph (TOSA)")
set(CPACK_PACKAGE_DESCRIPTION
    "Two Vulkan layers that emulate the Arm machine-learning extensions on any Vulkan 1.3 \
device, the meta layer VK_LAYER_ML_Emulation that stacks them in the right order, the tools \
vmel-run, vmel-info, vmel-as, vmel-lower and vmel-ops, and the C headers of the ARM API \
(CMake package VulkanArmML, pkg-config vulkan-arm-ml).")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# Runtime libraries from what the binaries link (dpkg-shlibdeps); a Vulkan driver is needed
# to do anything, any will do.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers | vulkan-icd")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libvulkan-dev")
include(CPack)
