# SPDX-License-Identifier: MIT
# e2e.test_tensor_descriptors and its kernel, compiled with glslangValidator
# into a C header (uint32_t array). Self-contained until cmake/EmbedKernels.cmake
# takes over test kernels.
find_program(VMEL_GLSLANG_VALIDATOR glslangValidator REQUIRED)
set(_spv_header ${CMAKE_CURRENT_BINARY_DIR}/spv/tensor_descriptors_spv.h)
add_custom_command(
  OUTPUT ${_spv_header}
  COMMAND ${VMEL_GLSLANG_VALIDATOR} -V --target-env vulkan1.3 --quiet
          -I${PROJECT_SOURCE_DIR}/include --vn tensor_descriptors_spv
          -o ${_spv_header} ${CMAKE_CURRENT_SOURCE_DIR}/tensor_descriptors.comp
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tensor_descriptors.comp
          ${PROJECT_SOURCE_DIR}/include/kernel_abi/tensor_record.h
  COMMENT "glslangValidator tensor_descriptors.comp"
  VERBATIM)
vmel_add_e2e_test(test_tensor_descriptors SOURCES test_tensor_descriptors.c ${_spv_header})
target_include_directories(test_tensor_descriptors PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/spv)
