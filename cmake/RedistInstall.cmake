# Install rules and the CMake package: after `cmake --install`, a project
# uses redist with
#   find_package(Redist REQUIRED)
#   redist_translate(TARGET app SOURCES main.cpp)   # redistc + the runtime
# or links redist::runtime / redist::schedule directly. Include this file at
# the end of the top-level CMakeLists.txt, after every target is defined.
include(CMakePackageConfigHelpers)

set(REDIST_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Redist CACHE STRING
    "Where the Redist CMake package is installed, relative to the prefix")

# Exported as redist::schedule, redist::runtime and redist::redistc (and
# redist::scalapack below), the names the in-tree aliases use too.
set(_redist_exported redist_schedule redistc)
set_target_properties(redist_schedule PROPERTIES EXPORT_NAME schedule)
if(TARGET redist_runtime)
  set_target_properties(redist_runtime PROPERTIES EXPORT_NAME runtime)
  list(APPEND _redist_exported redist_runtime)
endif()

# libredist_scalapack (where ScaLAPACK was found), as redist::scalapack.
if(TARGET redist_scalapack)
  set_target_properties(redist_scalapack PROPERTIES EXPORT_NAME scalapack)
  list(APPEND _redist_exported redist_scalapack)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/scalapack/include/redist
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # pkg-config's redist-scalapack, relocatable: its prefix is found from
  # where the file lies.
  set(_redist_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  file(RELATIVE_PATH REDIST_PC_TO_PREFIX /${_redist_pc_dir} /)
  string(REGEX REPLACE "/$" "" REDIST_PC_TO_PREFIX "${REDIST_PC_TO_PREFIX}")
  # A REDIST_SANITIZE build's users need its sanitizers too.
  string(JOIN " " REDIST_PC_SANITIZE_FLAGS ${REDIST_SANITIZE_FLAGS})
  configure_file(${PROJECT_SOURCE_DIR}/runtime/scalapack/redist-scalapack.pc.in
    ${PROJECT_BINARY_DIR}/redist-scalapack.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/redist-scalapack.pc
    DESTINATION ${_redist_pc_dir})
endif()

install(TARGETS ${_redist_exported}
  EXPORT RedistTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/redist
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET redist_runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/redist
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

install(EXPORT RedistTargets
  NAMESPACE redist::
  FILE RedistTargets.cmake
  DESTINATION ${REDIST_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/RedistConfig.cmake.in
  ${PROJECT_BINARY_DIR}/RedistConfig.cmake
  INSTALL_DESTINATION ${REDIST_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/RedistConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/RedistConfig.cmake
  ${PROJECT_BINARY_DIR}/RedistConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/RedistTranslate.cmake
  DESTINATION ${REDIST_INSTALL_CMAKEDIR})
