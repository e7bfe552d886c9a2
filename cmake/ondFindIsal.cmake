# ISA-L (the codec's CRC-32, OND_CRC_ISAL) as the imported target ond::isal: from ISA-L's
# pkg-config file when there is one, else by header and library name. The build and the installed
# package config both use this file, so the installed targets name ond::isal and hold no path.
if(NOT TARGET ond::isal)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(OND_ISAL QUIET IMPORTED_TARGET libisal)
  endif()
  if(TARGET PkgConfig::OND_ISAL)
    add_library(ond::isal INTERFACE IMPORTED)
    target_link_libraries(ond::isal INTERFACE PkgConfig::OND_ISAL)
  else()
    find_path(OND_ISAL_INCLUDE_DIR isa-l/crc.h)
    find_library(OND_ISAL_LIBRARY NAMES isal)
    if(OND_ISAL_INCLUDE_DIR AND OND_ISAL_LIBRARY)
      add_library(ond::isal UNKNOWN IMPORTED)
      set_target_properties(ond::isal PROPERTIES IMPORTED_LOCATION "${OND_ISAL_LIBRARY}"
                                                 INTERFACE_INCLUDE_DIRECTORIES "${OND_ISAL_INCLUDE_DIR}")
    endif()
  endif()
endif()
