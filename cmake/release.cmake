# The release's version and commit where the tools need them, and the release's tests. Included
# by the top CMakeLists.txt after the folders, so the targets below exist.

# The corpus generator writes the release's version as the manifest's corpus_version
# (corpus/gen/generator.hpp).
target_compile_definitions(ond_corpus_gen_lib PUBLIC OND_RELEASE_VERSION="${PROJECT_VERSION}")

# `ond corpus export` names the commit of the corpus it exports: the build's, found at build time
# (cmake/source_commit.cmake). The header changes only with the commit.
set(OND_SOURCE_COMMIT_HEADER ${CMAKE_BINARY_DIR}/release/ond_source_commit.hpp)
add_custom_target(ond_source_commit
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUT=${OND_SOURCE_COMMIT_HEADER}
    -P ${PROJECT_SOURCE_DIR}/cmake/source_commit.cmake
  BYPRODUCTS ${OND_SOURCE_COMMIT_HEADER}
  COMMENT "Finding the source commit"
  VERBATIM)
add_dependencies(ond_cli_corpus ond_source_commit)
target_include_directories(ond_cli_corpus PRIVATE ${CMAKE_BINARY_DIR}/release)

if(OND_BUILD_TESTS)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(release_tests ${PROJECT_SOURCE_DIR}/tests/release)
  # VERSION, `ond --version`, the manifest's corpus_version, the CMake package and the .deb agree.
  add_test(NAME release.versions-agree
    COMMAND Python3::Interpreter ${release_tests}/versions_agree.py --ond $<TARGET_FILE:ond> --build ${CMAKE_BINARY_DIR})
  # The corpus against its recorded releases: a changed case needs a new version with a changelog
  # entry and a changes file (scripts/corpus_release_check.py).
  add_test(NAME release.corpus-check
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/scripts/corpus_release_check.py check)
  add_test(NAME release.corpus-check-script
    COMMAND Python3::Interpreter ${release_tests}/test_corpus_release_check.py)
  # `ond corpus export` and corpus/tools/export.py write the same tree, with and without listings,
  # and every relative link in it resolves inside it.
  add_test(NAME release.export-identical
    COMMAND Python3::Interpreter ${release_tests}/test_export.py --ond $<TARGET_FILE:ond>)
  # The .deb's copyright file is Debian's machine-readable format (scripts/package-test.sh checks
  # the installed one too).
  add_test(NAME release.debian-copyright
    COMMAND Python3::Interpreter ${release_tests}/check_copyright.py ${PROJECT_SOURCE_DIR}/cmake/debian-copyright)
  set_tests_properties(release.versions-agree release.corpus-check release.corpus-check-script
    release.export-identical release.debian-copyright PROPERTIES LABELS release TIMEOUT 300)
  # scripts/release.sh twice gives the same bytes (no build involved: not for the sanitizer build).
  add_test(NAME release.reproducible COMMAND bash ${release_tests}/release_reproducible.sh)
  set_tests_properties(release.reproducible PROPERTIES LABELS "release;slow" TIMEOUT 300)
endif()
