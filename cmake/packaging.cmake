# The `ond` tool as a Debian package (cpack -G DEB in a build of the `tool` preset): the binary in
# bin/ and the golden corpus in share/ond/corpus/, where an installed `ond` finds it by itself
# (cli/main.cpp: <prefix>/bin/ond -> <prefix>/share/ond/corpus). Only the `tool` component goes
# into the package: the codec's library, headers and CMake files stay out of it.
set(OND_CORPUS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/ond/corpus)

# The corpus is installed as `ond corpus export` writes it (with its listings), made at build
# time: what a consumer vendors (the corpus with its licence, changelog, changes files and stdlib
# Python tools, links that work away from the repository), with a VERSION file naming the commit,
# so that an export of the installed corpus names it too.
set(OND_CORPUS_EXPORT_DIR ${CMAKE_BINARY_DIR}/corpus-export)
file(GLOB_RECURSE ond_corpus_export_inputs CONFIGURE_DEPENDS LIST_DIRECTORIES false
  ${PROJECT_SOURCE_DIR}/corpus/*.md ${PROJECT_SOURCE_DIR}/corpus/*.json ${PROJECT_SOURCE_DIR}/corpus/LICENSE
  ${PROJECT_SOURCE_DIR}/corpus/cases/* ${PROJECT_SOURCE_DIR}/corpus/regressions/* ${PROJECT_SOURCE_DIR}/corpus/tools/*.py)
add_custom_command(OUTPUT ${OND_CORPUS_EXPORT_DIR}/VERSION
  COMMAND ond corpus --corpus ${PROJECT_SOURCE_DIR}/corpus export ${OND_CORPUS_EXPORT_DIR}
  DEPENDS ond ${ond_corpus_export_inputs}
  COMMENT "Exporting the corpus for installation"
  VERBATIM)
add_custom_target(ond_corpus_export ALL DEPENDS ${OND_CORPUS_EXPORT_DIR}/VERSION)
install(DIRECTORY ${OND_CORPUS_EXPORT_DIR}/ DESTINATION ${OND_CORPUS_INSTALL_DIR} COMPONENT tool)
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
# The shared libraries' packages (libssl3, zlib1g or libisal2, libstdc++6), as dpkg-shlibdeps finds them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
