# SPDX-License-Identifier: MIT
# vmel_tool_doc(target SUMMARY "one line" [INSTALL]): the tool's manual page, made at build
# time from its --help (build/man/man1/<target>.1, tools/helpdoc), installed with the tool
# when INSTALL is given; and the test docs.help.<target>: --help exits 0 and names every
# option literal of the tool's own sources (docs/decisions.md D54).
function(vmel_tool_doc target)
  cmake_parse_arguments(D "INSTALL" "SUMMARY" "" ${ARGN})
  set(man ${CMAKE_BINARY_DIR}/man/man1/${target}.1)
  # Installed compressed, as Debian's policy asks (gzip -n: no name or time stamp inside).
  add_custom_command(OUTPUT ${man} ${man}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man/man1
    COMMAND vmel_help_doc man $<TARGET_FILE:${target}> ${target} ${PROJECT_VERSION}
            ${D_SUMMARY} ${man}
    COMMAND gzip -9nkf ${man}
    DEPENDS ${target} vmel_help_doc
    COMMENT "Manual page ${target}.1 from ${target} --help"
    VERBATIM)
  add_custom_target(${target}_man ALL DEPENDS ${man} ${man}.gz)
  if(D_INSTALL)
    install(FILES ${man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
  if(VMEL_BUILD_TESTS)
    get_target_property(dir ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    set(files)
    foreach(s ${sources})
      cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY ${dir} OUTPUT_VARIABLE abs)
      cmake_path(IS_PREFIX CMAKE_BINARY_DIR ${abs} generated)
      if(abs MATCHES "\\.c$" AND NOT generated)
        list(APPEND files ${abs})
      endif()
    endforeach()
    add_test(NAME docs.help.${target} COMMAND vmel_help_doc check $<TARGET_FILE:${target}> ${files})
    set_tests_properties(docs.help.${target} PROPERTIES LABELS unit TIMEOUT 60)
  endif()
endfunction()
