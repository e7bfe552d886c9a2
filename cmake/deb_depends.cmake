# Included by CPack (CPACK_PROJECT_CONFIG_FILE, written by cmake/packaging.cmake) before it makes
# a package: for the .deb, sets Depends to what dpkg-shlibdeps finds the `ond` binary needs, as
# CPACK_DEBIAN_PACKAGE_SHLIBDEPS would, without running `file` on every installed file first.
if(CPACK_GENERATOR STREQUAL "DEB")
  # dpkg-shlibdeps reads debian/control in its working directory: an empty one will do.
  file(MAKE_DIRECTORY "${OND_DEB_WORK}/debian")
  file(WRITE "${OND_DEB_WORK}/debian/control" "")
  execute_process(COMMAND dpkg-shlibdeps -O "${OND_DEB_BINARY}" WORKING_DIRECTORY "${OND_DEB_WORK}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^shlibs:Depends=([^\n]+)")
    message(FATAL_ERROR "dpkg-shlibdeps on ${OND_DEB_BINARY} failed (${rc}): ${err}${out}")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CMAKE_MATCH_1}")
endif()
