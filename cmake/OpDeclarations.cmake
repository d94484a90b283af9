# SPDX-License-Identifier: MIT
#
# The operator declarations (graph/ops/tosa_ops.def, docs/adding-an-op.md) at
# configure time: cmake/gen_ops.c is compiled and run with try_run, checks the
# declarations and writes, into ${VMEL_OPS_GENERATED_DIR}:
#   dg_kernels.cmake  the kernel variants shaders/CMakeLists.txt compiles;
#   dg_op_abi.h       the kernel ABI shared by C and GLSL.
# A declaration that is not consistent (a type row naming a kernel variant no
# DG_KERNEL declares, among others) fails the configure step with the
# generator's message, so it never reaches a user. Editing the declarations or
# the generator re-runs it.

set(VMEL_OPS_GENERATED_DIR ${VMEL_GENERATED_DIR}/ops)
# The generator writes into a staging folder; the outputs are copied only when
# their content changed, so a re-configure does not recompile every kernel.
set(_vmel_ops_staging ${CMAKE_BINARY_DIR}/gen_ops_out)
file(MAKE_DIRECTORY ${VMEL_OPS_GENERATED_DIR} ${_vmel_ops_staging})
set(_vmel_ops_sources
  ${CMAKE_SOURCE_DIR}/cmake/gen_ops.c
  ${CMAKE_SOURCE_DIR}/graph/ops/dg_decl_expand.h
  ${CMAKE_SOURCE_DIR}/graph/ops/tosa_ops.def
  ${CMAKE_SOURCE_DIR}/graph/ops/me_ops.def)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${_vmel_ops_sources})

unset(VMEL_GEN_OPS_RUN CACHE)
unset(VMEL_GEN_OPS_COMPILE CACHE)
try_run(VMEL_GEN_OPS_RUN VMEL_GEN_OPS_COMPILE
  ${CMAKE_BINARY_DIR}/gen_ops ${CMAKE_SOURCE_DIR}/cmake/gen_ops.c
  CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CMAKE_SOURCE_DIR}/graph/ops"
  COMPILE_DEFINITIONS -D_DEFAULT_SOURCE
  C_STANDARD 11
  COMPILE_OUTPUT_VARIABLE _vmel_ops_compile_out
  RUN_OUTPUT_VARIABLE _vmel_ops_run_out
  ARGS ${CMAKE_SOURCE_DIR} ${_vmel_ops_staging})
if(NOT VMEL_GEN_OPS_COMPILE)
  message(FATAL_ERROR "cmake/gen_ops.c does not compile with the declarations:\n"
                      "${_vmel_ops_compile_out}")
endif()
if(NOT VMEL_GEN_OPS_RUN EQUAL 0)
  message(FATAL_ERROR "The operator declarations are not consistent:\n${_vmel_ops_run_out}")
endif()
foreach(_f dg_kernels.cmake dg_op_abi.h)
  configure_file(${_vmel_ops_staging}/${_f} ${VMEL_OPS_GENERATED_DIR}/${_f} COPYONLY)
endforeach()
unset(_vmel_ops_staging)
unset(_vmel_ops_compile_out)
unset(_vmel_ops_run_out)
