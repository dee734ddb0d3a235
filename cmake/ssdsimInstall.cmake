# cmake --install [--prefix DIR]: what another project needs to build a
# virtual platform on the drive model, found with find_package(ssdsim):
#   lib/libssdsim_model.a, libssdsim_tlm.a, libssdsim_traces.a
#   include/ssdsim/{model,tlm,traces}/...   the headers, at their repository paths
#   include/ssdsim/testing/golden.h          GoogleTest golden-value helper
#   bin/ssdsim                               the simulator (golden tests run it)
#   share/ssdsim/configs/                    the drive and workload presets
#   lib/cmake/ssdsim/                        ssdsimConfig.cmake and the targets:
#     ssdsim::model   the drive model (links its archive whole: FTL plug-ins register)
#     ssdsim::golden  golden.h with the installed simulator's path
#     ssdsim::ftl_plugin_api  headers only, for FTL plug-ins (--ftl.plugin)
#     ssdsim::ssdsim  the simulator executable
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SSDSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ssdsim)

# Golden-value tests (tests/golden/golden.h) run the simulator binary; its
# path is compiled in, so a test binary also works outside ctest. They
# include "testing/golden.h", in the build tree as in the install.
configure_file(${PROJECT_SOURCE_DIR}/tests/golden/golden.h ${PROJECT_BINARY_DIR}/include/testing/golden.h COPYONLY)
add_library(ssdsim_golden INTERFACE)
target_include_directories(ssdsim_golden INTERFACE
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include> $<INSTALL_INTERFACE:include/ssdsim>)
target_link_libraries(ssdsim_golden INTERFACE nlohmann_json::nlohmann_json)
target_compile_definitions(ssdsim_golden INTERFACE
  $<BUILD_INTERFACE:SSDSIM_GOLDEN_BIN="$<TARGET_FILE:ssdsim>">
  $<INSTALL_INTERFACE:SSDSIM_GOLDEN_BIN="$<INSTALL_PREFIX>/${CMAKE_INSTALL_BINDIR}/ssdsim">)
set_target_properties(ssdsim_golden PROPERTIES EXPORT_NAME golden)
add_library(ssdsim::golden ALIAS ssdsim_golden)

# FTL plug-ins (shared libraries loaded with --ftl.plugin) compile against
# model/ftl/ftl.h but link no model code: the model's symbols (FlashMedia,
# the registry) resolve against the ssdsim executable, which exports them,
# when the library is loaded. A plug-in linking the archive would carry a
# second copy of the model, with a registry of its own. So: the include
# directory, the model's compile definitions and its dependencies' include
# directories (other model headers include SystemC and nlohmann/json), but no
# library.
add_library(ssdsim_ftl_plugin_api INTERFACE)
target_include_directories(ssdsim_ftl_plugin_api INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<INSTALL_INTERFACE:include/ssdsim>
  $<TARGET_PROPERTY:PkgConfig::SYSTEMC,INTERFACE_INCLUDE_DIRECTORIES>)
target_link_libraries(ssdsim_ftl_plugin_api INTERFACE nlohmann_json::nlohmann_json)  # header-only
target_compile_definitions(ssdsim_ftl_plugin_api INTERFACE
  SPDLOG_ACTIVE_LEVEL=$<IF:$<CONFIG:Debug>,SPDLOG_LEVEL_TRACE,SPDLOG_LEVEL_DEBUG>)
target_compile_features(ssdsim_ftl_plugin_api INTERFACE cxx_std_17)
set_target_properties(ssdsim_ftl_plugin_api PROPERTIES EXPORT_NAME ftl_plugin_api)
add_library(ssdsim::ftl_plugin_api ALIAS ssdsim_ftl_plugin_api)

set_target_properties(ssdsim_tlm PROPERTIES EXPORT_NAME tlm)
set_target_properties(ssdsim_traces PROPERTIES EXPORT_NAME traces)
install(TARGETS ssdsim_model_archive ssdsim_model_whole ssdsim_tlm ssdsim_traces ssdsim_golden ssdsim_ftl_plugin_api ssdsim
        EXPORT ssdsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT ssdsimTargets NAMESPACE ssdsim:: DESTINATION ${SSDSIM_CMAKE_DIR})

# Headers keep their repository paths, so #include "model/ftl/ftl.h" works
# against the install as it does in the tree. The trace readers stay
# internal but for trace_reader.h, which model/sim/replay.h includes.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/model ${PROJECT_SOURCE_DIR}/tlm
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ssdsim FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/traces/trace_reader.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ssdsim/traces)
install(FILES ${PROJECT_SOURCE_DIR}/tests/golden/golden.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ssdsim/testing)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdsim/configs
        FILES_MATCHING PATTERN "*.ini")

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ssdsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ssdsimConfig.cmake
                              INSTALL_DESTINATION ${SSDSIM_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ssdsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ssdsimConfig.cmake ${PROJECT_BINARY_DIR}/ssdsimConfigVersion.cmake
        DESTINATION ${SSDSIM_CMAKE_DIR})
