# ctest -L package: cmake --install BUILD_DIR --prefix WORK_DIR/prefix, then
# configure and build SOURCE_DIR/examples/vp, examples/ftl-plugin and
# tests/lib/consumer against that prefix (find_package(ssdsim) through
# CMAKE_PREFIX_PATH only); run the platform, which exits 0 only if it read
# back what it wrote, the installed simulator on the FTL plug-in with every
# read checked, and the consumer's golden test: record, then check.
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
foreach(project vp ftl-plugin consumer)
  if(project STREQUAL consumer)
    set(src ${SOURCE_DIR}/tests/lib/consumer)
  else()
    set(src ${SOURCE_DIR}/examples/${project})
  endif()
  run("configure ${project}" ${CMAKE_COMMAND} -S ${src} -B ${WORK_DIR}/${project} -G ${GENERATOR}
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
  run("build ${project}" ${CMAKE_COMMAND} --build ${WORK_DIR}/${project} -j2)
endforeach()

# A small drive so the run takes a moment; the platform turns --store-data on.
run("run vp" ${WORK_DIR}/vp/ssdsim_vp --config ${prefix}/share/ssdsim/configs/drives/intel-x25m-g1.ini
    --nand.blocks_per_plane=64)
message("${last_output}")

# The plug-in takes the model from the executable, not a copy of its own.
set(plugin ${WORK_DIR}/ftl-plugin/libcircular_ftl.so)
find_program(NM nm REQUIRED)
run("plug-in symbols" ${NM} -C -D --defined-only ${plugin})
if(last_output MATCHES "FlashMedia::(program|erase)|FtlRegistry::(add|instance)")
  message(FATAL_ERROR "package test: ${plugin} defines model functions (linked the model archive?):\n${last_output}")
endif()
# The installed simulator on the plug-in's FTL, its option set, every read
# checked against what was last written (exit 3 on a mismatch), GC running.
set(report ${WORK_DIR}/plugin-report.json)
run("run plug-in" ${prefix}/bin/ssdsim --ftl.plugin ${plugin} --ftl.name=circular --ftl.circular_idle_free=3 --ftl.idle_after=1ms
    --check.content=true --nand.channels=2 --nand.dies_per_channel=1 --nand.planes_per_die=1
    --nand.blocks_per_plane=64 --nand.pages_per_block=32 --ftl.op=0.25 --precondition=used
    --workload.rw=randrw --workload.number_ios=4000 --report ${report})
file(READ ${report} json)
string(JSON name GET "${json}" device ftl name)
string(JSON unit GET "${json}" device ftl stats fifo_full_victims unit)
string(JSON checked GET "${json}" device content_check pages_checked)
string(JSON reads GET "${json}" jobs 0 read total_ios)
string(JSON gc_runs GET "${json}" device gc_runs)
if(NOT name STREQUAL "circular" OR NOT unit STREQUAL "count" OR NOT checked EQUAL reads OR checked LESS 1000
   OR gc_runs EQUAL 0)
  message(FATAL_ERROR "package test: plug-in run: ftl ${name}, stat unit '${unit}', ${checked} pages checked "
                      "of ${reads} reads, ${gc_runs} GC runs")
endif()
message(STATUS "plug-in run: ${checked} reads checked, ${gc_runs} GC runs")

run("record golden" ${CMAKE_COMMAND} -E env SSDSIM_UPDATE_GOLDEN=1 ${WORK_DIR}/consumer/golden_test)
if(NOT EXISTS ${WORK_DIR}/consumer/golden/InstalledPreset.golden.json)
  message(FATAL_ERROR "package test: the golden test recorded nothing")
endif()
run("check golden" ${WORK_DIR}/consumer/golden_test)
