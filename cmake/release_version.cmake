# Reads the release's one version from the file VERSION (one line, MAJOR.MINOR.PATCH) into
# OND_RELEASE_VERSION, before project() takes it: the tool's --version, the CMake package's
# version, the .deb's version and the corpus manifest's corpus_version all come from it.
set(OND_VERSION_FILE ${CMAKE_CURRENT_LIST_DIR}/../VERSION)
file(STRINGS ${OND_VERSION_FILE} OND_RELEASE_VERSION LIMIT_COUNT 1)
if(NOT OND_RELEASE_VERSION MATCHES "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$")
  message(FATAL_ERROR "VERSION must hold one line MAJOR.MINOR.PATCH, not '${OND_RELEASE_VERSION}'")
endif()
# A new version reconfigures.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${OND_VERSION_FILE})
