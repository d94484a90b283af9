# SPDX-License-Identifier: MIT
# vmel-run (tools/vmel-run) through the build-tree layers on lavapipe, in the end-to-end
# environment (VMEL_E2E_ENV):
#   e2e.vmel_run_examples          the main job: `vmel-run` with no arguments runs the built-in
#                                  int8, fp32 and elementwise networks and exits non-zero unless
#                                  each matches the CPU reference;
#   e2e.vmel_run_examples_profile  the same with --dispatches 3 --profile
#                                  (VMEL_GRAPH_PROFILING=1 must not change the results);
#   e2e.vmel_run_npy               a command-line run of tests/data/spirv/graph_clamp.spvasm with
#                                  .npy input, constant and output files (test_vmel_run_npy.c).
function(vmel_add_vmel_run_test name)
  add_test(NAME e2e.${name} COMMAND ${ARGN})
  set_tests_properties(e2e.${name} PROPERTIES
    LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "${VMEL_E2E_ENV}"
    ENVIRONMENT_MODIFICATION "${VMEL_E2E_UNSET}")
endfunction()

vmel_add_vmel_run_test(vmel_run_examples $<TARGET_FILE:vmel-run>)
vmel_add_vmel_run_test(vmel_run_examples_profile $<TARGET_FILE:vmel-run> --dispatches 3 --profile)

add_executable(test_vmel_run_npy test_vmel_run_npy.c run_tool.c)
target_link_libraries(test_vmel_run_npy PRIVATE vmel_test_harness vmel_npy)
add_dependencies(test_vmel_run_npy vmel-run)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/vmel_run_npy)
vmel_add_vmel_run_test(vmel_run_npy test_vmel_run_npy $<TARGET_FILE:vmel-run>
  ${CMAKE_SOURCE_DIR}/tests/data/spirv/graph_clamp.spvasm ${CMAKE_CURRENT_BINARY_DIR}/vmel_run_npy)

# vmel-run --optical-flow (test_vmel_run_of.c):
#   e2e.vmel_run_optical_flow_usage  command-line errors, before any Vulkan work;
#   e2e.vmel_run_optical_flow        two synthetic PNG frames through the optical-flow
#                                    pipeline, the flow checked for end-point error; only with
#                                    -DVMEL_TEST_OPTICAL_FLOW_RUN=ON (it needs the engine).
add_executable(test_vmel_run_of test_vmel_run_of.c run_tool.c)
target_link_libraries(test_vmel_run_of PRIVATE vmel_test_harness vmel_npy vmel_png vmel_of_ref)
add_dependencies(test_vmel_run_of vmel-run)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/vmel_run_of/usage
  ${CMAKE_CURRENT_BINARY_DIR}/vmel_run_of/run)
vmel_add_vmel_run_test(vmel_run_optical_flow_usage test_vmel_run_of $<TARGET_FILE:vmel-run>
  ${CMAKE_CURRENT_BINARY_DIR}/vmel_run_of/usage usage)
if(VMEL_TEST_OPTICAL_FLOW_RUN)
  vmel_add_vmel_run_test(vmel_run_optical_flow test_vmel_run_of $<TARGET_FILE:vmel-run>
    ${CMAKE_CURRENT_BINARY_DIR}/vmel_run_of/run run)
endif()
