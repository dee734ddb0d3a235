# ctest -L package: cmake --install BUILD_DIR --prefix WORK_DIR/prefix, then
# configure and build SOURCE_DIR/examples/vp and tests/lib/consumer against
# that prefix (find_package(ssdsim) through CMAKE_PREFIX_PATH only); run the
# platform, which exits 0 only if it read back what it wrote, and the
# consumer's golden test: record, then check.
cmake_minimum_required(VERSION 3.24)
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "package_test.cmake: -D${v}=... is required")
  endif()
endforeach()

function(run what)
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: ${what} failed (${rc}):\n${out}")
  endif()
  string(TIMESTAMP t1 "%s")
  math(EXPR seconds "${t1} - ${t0}")
  message(STATUS "${what}: ok (${seconds} s)")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# Only the prefix: nothing of the source or build tree may be needed.
foreach(project vp consumer)
  if(project STREQUAL vp)
    set(src ${SOURCE_DIR}/examples/vp)
  else()
    set(src ${SOURCE_DIR}/tests/lib/consumer)
  endif()
  run("configure ${project}" ${CMAKE_COMMAND} -S ${src} -B ${WORK_DIR}/${project} -G ${GENERATOR}
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
  run("build ${project}" ${CMAKE_COMMAND} --build ${WORK_DIR}/${project} -j2)
endforeach()

# A small drive so the run takes a moment; the platform turns --store-data on.
run("run vp" ${WORK_DIR}/vp/ssdsim_vp --config ${prefix}/share/ssdsim/configs/intel-x25m-g1.ini
    --nand.blocks_per_plane=64)
message("${last_output}")

run("record golden" ${CMAKE_COMMAND} -E env SSDSIM_UPDATE_GOLDEN=1 ${WORK_DIR}/consumer/golden_test)
if(NOT EXISTS ${WORK_DIR}/consumer/golden/InstalledPreset.golden.json)
  message(FATAL_ERROR "package test: the golden test recorded nothing")
endif()
run("check golden" ${WORK_DIR}/consumer/golden_test)
