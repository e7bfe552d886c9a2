# ond_label_discovered_tests(TARGET <test executable> LABELS <labels> TESTS <names>...)
# Gives tests that gtest_discover_tests finds in that executable at build time the labels given
# (in place of theirs), e.g. "slow" for the whole runs that the ASan job skips. Call it after
# gtest_discover_tests, in the same directory: CTest reads the file written here after the
# discovered tests. A name the built executable no longer has fails every CTest run of the build,
# so a renamed test cannot quietly lose its label; an executable not built yet has no list of tests
# (CTest shows its <target>_NOT_BUILT placeholder) and nothing to label.
function(ond_label_discovered_tests)
  cmake_parse_arguments(arg "" "TARGET" "LABELS;TESTS" ${ARGN})
  set(text "if(NOT DEFINED ${arg_TARGET}_TESTS)\n  return()\nendif()\n")
  foreach(name IN LISTS arg_TESTS)
    string(APPEND text "list(FIND ${arg_TARGET}_TESTS \"${name}\" at)\n"
      "if(at EQUAL -1)\n"
      "  message(FATAL_ERROR \"${CMAKE_CURRENT_LIST_FILE}: ${arg_TARGET} has no test ${name} to label\")\n"
      "endif()\n"
      "set_tests_properties(\"${name}\" PROPERTIES LABELS \"${arg_LABELS}\")\n")
  endforeach()
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}-labels.cmake")
  file(WRITE "${file}" "${text}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
endfunction()
