# Our interpreter against Intel's CPU OpenCL runtime (docs/oclcpu.md): every
# testdata kernel, sub-group ones included, as given, at required sub-group
# sizes 8/16/32, and as xeopt -O2 writes it (versioned, block I/O), on
# uniform and partial work-groups with a global offset.  The runtime comes
# from PyPI into ${CMAKE_BINARY_DIR}/oclcpu/venv (compare.py --setup, or
# automatically when XEOPT_REQUIRE_OCLCPU=1); skipped (77) without it or
# without the OpenCL headers/loader unless XEOPT_REQUIRE_OCLCPU=1.  The
# planted test flips one bit of the runtime's result and must see it.
find_package(OpenCL QUIET)
find_path(OCLCPU_CJSON_INCLUDE cjson/cJSON.h)
find_library(OCLCPU_CJSON_LIB cjson)
set(_oclcpu_host "")
if(OpenCL_FOUND AND OCLCPU_CJSON_INCLUDE AND OCLCPU_CJSON_LIB)
  add_executable(oclcpu-host ${CMAKE_CURRENT_SOURCE_DIR}/oclcpu/host.c ${CMAKE_CURRENT_SOURCE_DIR}/oclcpu/launch_args.c)
  target_include_directories(oclcpu-host PRIVATE ${OpenCL_INCLUDE_DIRS} ${OCLCPU_CJSON_INCLUDE})
  target_link_libraries(oclcpu-host PRIVATE ${OpenCL_LIBRARIES} ${OCLCPU_CJSON_LIB})
  set(_oclcpu_host --host $<TARGET_FILE:oclcpu-host>)
endif()
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME oclcpu_compare
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/oclcpu/compare.py
            --xeopt $<TARGET_FILE:xeopt> ${_oclcpu_host} --runtime ${CMAKE_BINARY_DIR}/oclcpu
            --suite ${CMAKE_SOURCE_DIR}/testdata)
  add_test(NAME oclcpu_compare_planted
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/oclcpu/compare.py
            --xeopt $<TARGET_FILE:xeopt> ${_oclcpu_host} --runtime ${CMAKE_BINARY_DIR}/oclcpu
            --expect-difference ${CMAKE_SOURCE_DIR}/testdata/spv/sg_copy_block.spv)
  set_tests_properties(oclcpu_compare oclcpu_compare_planted PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
    LABELS oclcpu)
  set_tests_properties(oclcpu_compare_planted PROPERTIES ENVIRONMENT XEOPT_OCLCPU_PLANT=1)
  # Both install the runtime into the same directory when it is missing.
  set_tests_properties(oclcpu_compare_planted PROPERTIES DEPENDS oclcpu_compare)
endif()
