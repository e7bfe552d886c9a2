# The `ond` tool as a Debian package (cpack -G DEB in a build of the `tool` preset): the binary in
# bin/ and the golden corpus in share/ond/corpus/, where an installed `ond` finds it by itself
# (cli/main.cpp: <prefix>/bin/ond -> <prefix>/share/ond/corpus). Only the `tool` component goes
# into the package: the codec's library, headers and CMake files stay out of it.
set(OND_CORPUS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/ond/corpus)

# The corpus is installed as `ond corpus export` writes it (with its listings), by the built
# `ond` at install time: what a consumer vendors (the corpus with its licence, changelog, changes
# files and stdlib Python tools, links that work away from the repository), with a VERSION file
# naming the commit, so that an export of the installed corpus names it too.
install(CODE "
  set(dest \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${OND_CORPUS_INSTALL_DIR}\")
  execute_process(COMMAND \"$<TARGET_FILE:ond>\" corpus --corpus \"${PROJECT_SOURCE_DIR}/corpus\" export \"\${dest}\"
    RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR \"ond corpus export into \${dest} failed\")
  endif()
  message(STATUS \"Installing: the corpus as exported, \${dest}\")
" COMPONENT tool)
# The licences, machine-readable (Debian copyright format 1.0): Apache-2.0 for the tool, CC0-1.0
# for the corpus.
install(FILES cmake/debian-copyright RENAME copyright
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ond COMPONENT tool)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ond)
set(CPACK_PACKAGE_VENDOR "ond-conform")
set(CPACK_PACKAGE_CONTACT "ond-conform maintainers <ond-conform@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ONDC/ONDB reference codec tool, golden corpus and conformance runner")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tool)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_PACKAGE_NAME ond)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The package's Depends: the shared libraries' packages (libssl3, zlib1g or libisal2, libstdc++6), as
# dpkg-shlibdeps finds them for the one binary at packaging time (cmake/deb_depends.cmake).
# CPack's own CPACK_DEBIAN_PACKAGE_SHLIBDEPS would run `file` on each of the 1,500 installed files
# of the corpus to find that binary, 80 s of a 90 s packaging.
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake CONTENT
  "set(OND_DEB_BINARY \"$<TARGET_FILE:ond>\")\nset(OND_DEB_WORK \"${CMAKE_BINARY_DIR}/deb-depends\")\ninclude(\"${PROJECT_SOURCE_DIR}/cmake/deb_depends.cmake\")\n")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake)
include(CPack)
