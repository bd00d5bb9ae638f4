# The OpenCL loader layer (docs/layer.md) in a real OpenCL application:
# tests/layer/harness.c on Intel's CPU runtime (the runtime that
# tests/oclcpu installs), with and without libxeopt_cl_layer.so, results
# compared byte for byte, under threads, cache damage and injected faults
# (tests/layer/harness.py).  Label oclcpu: the sanitizer run skips it.
if(TARGET xeopt_cl_layer AND TARGET oclcpu-host AND Python3_Interpreter_FOUND)
  add_executable(layer-harness ${CMAKE_CURRENT_SOURCE_DIR}/layer/harness.c
                 ${CMAKE_CURRENT_SOURCE_DIR}/oclcpu/launch_args.c)
  target_include_directories(layer-harness PRIVATE ${OpenCL_INCLUDE_DIRS} ${OCLCPU_CJSON_INCLUDE}
                             ${CMAKE_CURRENT_SOURCE_DIR}/oclcpu)
  target_link_libraries(layer-harness PRIVATE ${OpenCL_LIBRARIES} ${OCLCPU_CJSON_LIB} pthread)
  add_test(NAME layer_harness
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layer/harness.py
            --harness $<TARGET_FILE:layer-harness> --layer $<TARGET_FILE:xeopt_cl_layer>
            --runtime ${CMAKE_BINARY_DIR}/oclcpu --testdata ${CMAKE_SOURCE_DIR}/testdata)
  set_tests_properties(layer_harness PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200 LABELS oclcpu)
  # The runtime is installed by oclcpu_compare when missing.
  set_tests_properties(layer_harness PROPERTIES DEPENDS oclcpu_compare)
endif()
