# Install rules: libraries, headers, the command line, the man page, a CMake
# package (find_package(xeopt CONFIG): xeopt::xeopt, xeopt::xeopt_static,
# xeopt::xeopt_cli and xeopt_optimize_spirv()) and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS xeopt_shared xeopt_static xeopt EXPORT xeoptTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/xeopt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES docs/xeopt.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# Exported names: xeopt::xeopt (shared), xeopt::xeopt_static, xeopt::xeopt_cli.
set_target_properties(xeopt_shared PROPERTIES EXPORT_NAME xeopt)
set_target_properties(xeopt_static PROPERTIES EXPORT_NAME xeopt_static)
set_target_properties(xeopt PROPERTIES EXPORT_NAME xeopt_cli)
set(XEOPT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/xeopt)
install(EXPORT xeoptTargets NAMESPACE xeopt:: DESTINATION ${XEOPT_CMAKE_DIR})
configure_package_config_file(cmake/xeoptConfig.cmake.in
  ${CMAKE_BINARY_DIR}/xeoptConfig.cmake INSTALL_DESTINATION ${XEOPT_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/xeoptConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/xeoptConfig.cmake ${CMAKE_BINARY_DIR}/xeoptConfigVersion.cmake
  cmake/XeoptOptimizeSpirv.cmake cmake/XeoptEmptyManifest.cmake DESTINATION ${XEOPT_CMAKE_DIR})

configure_file(cmake/xeopt.pc.in ${CMAKE_BINARY_DIR}/xeopt.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/xeopt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
