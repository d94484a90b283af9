# SPDX-License-Identifier: MIT
#
# Build-time GLSL kernels (design.md §5, style.md §10.6-10.7). Every declared
# variant is compiled with glslangValidator when the project builds, so a broken
# template fails our build, not an application's pipeline creation; the SPIR-V
# is embedded as const uint32_t arrays in a generated C file with a registry
# (include/vmel_kernel.h) and built into a static library. Generated files live
# in ${VMEL_GENERATED_DIR}/kernels, never in the source tree. No Python.
#
#   vmel_kernel(<group> <name> <template> [DEFINES <NAME[=VALUE]>...] [INCLUDES <dir>...]
#               [SPIRV_REWRITE coop_khr|coop_khr_bf16|int_dot])
#     One variant: <template> (relative to the calling CMakeLists.txt) compiled with
#     -D<NAME[=VALUE]> for each define. Include paths: include/, shaders/common/,
#     then INCLUDES. Variant names are C identifiers, unique within the group.
#     SPIRV_REWRITE: the compiled module goes through cmake/spirv_rewrite.c (D51): coop_khr,
#     GL_NV_cooperative_matrix into SPV_KHR_cooperative_matrix; coop_khr_bf16, that and the
#     matrices' 16-bit float components made bfloat16 (cmake/spirv_bf16.c); int_dot, calls of
#     dg_sdot4() into OpSDot (compiled with names, which the rewrite drops; then spirv-val).
#
#   vmel_kernel_library(<target> GROUP <group> PREFIX <c_prefix>)
#     A static library of every variant of <group>, declared in the same directory.
#     Consumers link it and include "<target>.h": enum <c_prefix>_id with
#     <C_PREFIX>_<NAME> and <C_PREFIX>_COUNT, and const struct vmel_kernel
#     <c_prefix>s[<C_PREFIX>_COUNT].
#
# Cache settings: VMEL_GLSLANG_VALIDATOR (the compiler), VMEL_KERNEL_TARGET_ENV
# (Vulkan environment) and VMEL_KERNEL_SPIRV_VERSION (SPIR-V version emitted).

find_program(VMEL_GLSLANG_VALIDATOR glslangValidator
  DOC "glslangValidator, the GLSL to SPIR-V compiler (Debian: glslang-tools)")
if(NOT VMEL_GLSLANG_VALIDATOR)
  message(FATAL_ERROR "glslangValidator not found: apt install glslang-tools "
                      "(or set VMEL_GLSLANG_VALIDATOR)")
endif()

set(VMEL_KERNEL_TARGET_ENV vulkan1.3 CACHE STRING
  "glslangValidator --target-env for embedded kernels (the layers need Vulkan 1.3)")
# SPIR-V 1.5 loads on every Vulkan 1.2+ driver (1.3 would imply 1.6).
set(VMEL_KERNEL_SPIRV_VERSION spirv1.5 CACHE STRING
  "SPIR-V version of embedded kernels (a second --target-env)")

execute_process(COMMAND ${VMEL_GLSLANG_VALIDATOR} --help
  OUTPUT_VARIABLE _vmel_glslang_help ERROR_VARIABLE _vmel_glslang_help RESULT_VARIABLE _ignored)
string(FIND "${_vmel_glslang_help}" "--depfile" _vmel_has_depfile)
string(FIND "${_vmel_glslang_help}" "--spirv-val" _vmel_has_spirv_val)
unset(_vmel_glslang_help)

# A second build of the same sources (the sanitizer build of tools/run-tests.sh) can take
# the kernels another build compiled: SPIR-V does not depend on the C build type.
set(VMEL_PREBUILT_KERNELS_DIR "" CACHE PATH
  "generated/kernels of another build of this source tree to copy kernels from (empty: compile)")

set(VMEL_KERNEL_COMMON_INCLUDES ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/shaders/common)
set(VMEL_KERNEL_OUT_DIR ${VMEL_GENERATED_DIR}/kernels)
set(VMEL_KERNEL_INCLUDE_DIR ${VMEL_KERNEL_OUT_DIR}/include)
file(MAKE_DIRECTORY ${VMEL_KERNEL_INCLUDE_DIR})

# The registry generator, a host tool built first.
add_executable(vmel_gen_kernel_registry ${CMAKE_CURRENT_LIST_DIR}/gen_kernel_registry.c)
# The SPIR-V rewrites of SPIRV_REWRITE kernels (D51).
add_executable(vmel_spirv_rewrite ${CMAKE_CURRENT_LIST_DIR}/spirv_rewrite.c
  ${CMAKE_CURRENT_LIST_DIR}/spirv_coop_khr.c ${CMAKE_CURRENT_LIST_DIR}/spirv_bf16.c
  ${CMAKE_CURRENT_LIST_DIR}/spirv_int_dot.c)
find_program(VMEL_SPIRV_VAL spirv-val DOC "spirv-val (SPIRV-Tools), for rewritten kernels")

function(vmel_kernel group name template)
  cmake_parse_arguments(K "" "SPIRV_REWRITE" "DEFINES;INCLUDES" ${ARGN})
  if(K_SPIRV_REWRITE AND NOT K_SPIRV_REWRITE MATCHES "^(coop_khr|coop_khr_bf16|int_dot)$")
    message(FATAL_ERROR "vmel_kernel(${group} ${name}): unknown SPIRV_REWRITE ${K_SPIRV_REWRITE}")
  endif()
  if(K_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "vmel_kernel(${group} ${name}): unexpected ${K_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT name MATCHES "^[a-z_][a-z0-9_]*$")
    message(FATAL_ERROR "vmel_kernel(${group} ${name}): the name must be [a-z_][a-z0-9_]*")
  endif()
  get_property(names GLOBAL PROPERTY VMEL_KERNELS_${group}_NAMES)
  if(name IN_LIST names)
    message(FATAL_ERROR "vmel_kernel(${group} ${name}): declared twice")
  endif()
  get_property(dir GLOBAL PROPERTY VMEL_KERNELS_${group}_DIR)
  if(dir AND NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "vmel_kernel(${group} ${name}): the group's variants are declared in "
                        "${dir}; a group lives in one directory")
  endif()

  get_filename_component(src ${template} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${src})
  set(out_dir ${VMEL_KERNEL_OUT_DIR}/${group})
  set(spv ${out_dir}/${name}.spv)
  file(MAKE_DIRECTORY ${out_dir})

  set(args --target-env ${VMEL_KERNEL_TARGET_ENV} --target-env ${VMEL_KERNEL_SPIRV_VERSION}
           --quiet -g0)
  if(_vmel_has_spirv_val GREATER -1)
    list(APPEND args --spirv-val)
  endif()
  foreach(inc ${VMEL_KERNEL_COMMON_INCLUDES} ${K_INCLUDES})
    get_filename_component(inc ${inc} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND args -I${inc})
  endforeach()
  foreach(def ${K_DEFINES})
    list(APPEND args -D${def})
  endforeach()

  set(depends ${src})
  set(depfile_args "")
  set(depfile_opt "")
  if(_vmel_has_depfile GREATER -1)
    set(depfile_args --depfile ${spv}.d)
    set(depfile_opt DEPFILE ${spv}.d)
  else()
    # No depfile support: depend on every shared header instead.
    foreach(inc ${VMEL_KERNEL_COMMON_INCLUDES} ${K_INCLUDES})
      get_filename_component(inc ${inc} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${inc}/*.h ${inc}/*.glsl)
      list(APPEND depends ${headers})
    endforeach()
  endif()

  set(prebuilt "")
  if(VMEL_PREBUILT_KERNELS_DIR)
    set(prebuilt ${VMEL_PREBUILT_KERNELS_DIR}/${group}/${name}.spv)
    if(NOT EXISTS ${prebuilt})
      # A kernel the other build does not have (a new one, or one removed
      # from the copy because its source changed) is compiled here.
      set(prebuilt "")
    endif()
  endif()
  if(prebuilt)
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${CMAKE_COMMAND} -E copy ${prebuilt} ${spv}
      DEPENDS ${prebuilt}
      COMMENT "Copying kernel ${group}/${name} from ${VMEL_PREBUILT_KERNELS_DIR}"
      VERBATIM)
  elseif(K_SPIRV_REWRITE)
    # glslang's module (validated by --spirv-val in its NV form), then the rewrite in place,
    # whose own structural checks stand in for a validator that knows the KHR extension (it
    # removes the file when it fails, so the next build compiles again).
    set(validate "")
    if(K_SPIRV_REWRITE STREQUAL "int_dot")
      list(REMOVE_ITEM args -g0) # the rewrite finds dg_sdot4() by its name
      if(VMEL_SPIRV_VAL)
        set(validate COMMAND ${VMEL_SPIRV_VAL} --target-env ${VMEL_KERNEL_TARGET_ENV} ${spv})
      endif()
    endif()
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${VMEL_GLSLANG_VALIDATOR} ${args} ${depfile_args} -o ${spv} ${src}
      COMMAND vmel_spirv_rewrite ${K_SPIRV_REWRITE} ${spv} ${spv}
      ${validate}
      DEPENDS ${depends} vmel_spirv_rewrite
      ${depfile_opt}
      COMMENT "Compiling kernel ${group}/${name} (${rel} ${K_DEFINES}, ${K_SPIRV_REWRITE})"
      VERBATIM)
  else()
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${VMEL_GLSLANG_VALIDATOR} ${args} ${depfile_args} -o ${spv} ${src}
      DEPENDS ${depends}
      ${depfile_opt}
      COMMENT "Compiling kernel ${group}/${name} (${rel} ${K_DEFINES})"
      VERBATIM)
  endif()

  set_property(GLOBAL APPEND PROPERTY VMEL_KERNELS_${group}_NAMES ${name})
  set_property(GLOBAL APPEND PROPERTY VMEL_KERNELS_${group}_SPVS ${spv})
  set_property(GLOBAL APPEND PROPERTY VMEL_KERNELS_${group}_SOURCES ${rel})
  string(JOIN " " defines ${K_DEFINES})
  if(NOT defines)
    set(defines "-")
  endif()
  set_property(GLOBAL APPEND PROPERTY VMEL_KERNELS_${group}_DEFINES "${defines}")
  set_property(GLOBAL PROPERTY VMEL_KERNELS_${group}_DIR ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

function(vmel_kernel_library target)
  cmake_parse_arguments(L "" "GROUP;PREFIX" "" ${ARGN})
  if(NOT L_GROUP OR NOT L_PREFIX OR L_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: vmel_kernel_library(<target> GROUP <group> PREFIX <c_prefix>)")
  endif()
  get_property(names GLOBAL PROPERTY VMEL_KERNELS_${L_GROUP}_NAMES)
  get_property(spvs GLOBAL PROPERTY VMEL_KERNELS_${L_GROUP}_SPVS)
  get_property(sources GLOBAL PROPERTY VMEL_KERNELS_${L_GROUP}_SOURCES)
  get_property(defines GLOBAL PROPERTY VMEL_KERNELS_${L_GROUP}_DEFINES)
  get_property(dir GLOBAL PROPERTY VMEL_KERNELS_${L_GROUP}_DIR)
  if(NOT names)
    message(FATAL_ERROR "vmel_kernel_library(${target}): group ${L_GROUP} has no kernels")
  endif()
  if(NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "vmel_kernel_library(${target}): declare it where group ${L_GROUP} "
                        "is declared (${dir})")
  endif()

  # The list the generator reads; rewritten only when it changes.
  set(content "")
  foreach(name spv source def IN ZIP_LISTS names spvs sources defines)
    string(APPEND content "${name}\t${spv}\t${source}\t${def}\n")
  endforeach()
  set(list_file ${VMEL_KERNEL_OUT_DIR}/${target}.list)
  file(CONFIGURE OUTPUT ${list_file} CONTENT "${content}" @ONLY)

  set(out_c ${VMEL_KERNEL_OUT_DIR}/${target}.c)
  set(out_h ${VMEL_KERNEL_INCLUDE_DIR}/${target}.h)
  add_custom_command(
    OUTPUT ${out_c} ${out_h}
    COMMAND vmel_gen_kernel_registry ${L_PREFIX} ${list_file} ${out_c} ${out_h}
    DEPENDS vmel_gen_kernel_registry ${list_file} ${spvs}
    COMMENT "Embedding ${L_GROUP} kernels into ${target}"
    VERBATIM)

  add_library(${target} STATIC ${out_c} ${out_h})
  target_include_directories(${target} PUBLIC ${VMEL_KERNEL_INCLUDE_DIR})
  target_link_libraries(${target} PUBLIC vmel_headers)
endfunction()
