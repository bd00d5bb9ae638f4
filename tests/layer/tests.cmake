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

# dpnp's own tests, a part of them, on Intel's CPU OpenCL runtime without and
# with the OpenCL layer (docs/oclcpu.md, "dpnp under the layer"): the same
# test ids must pass, fail and be skipped, and the layer's summary must show
# optimized programs and no failed one.  dpnp, dpctl and the runtime come from
# PyPI into ${CMAKE_BINARY_DIR}/oclcpu/dpnp-venv (dpnp_suite.py --setup, or
# automatically when XEOPT_REQUIRE_OCLCPU=1); skipped (77) without them unless
# XEOPT_REQUIRE_OCLCPU=1.  Label oclcpu: the sanitizer build leaves it out.
# The planted test counts one passed test failed under the layer (on one
# small file, test_absolute.py) and must see the difference.
# Registered only when the layer's target exists: it must be defined before
# tests/ is added.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND AND TARGET xeopt_cl_layer)
  add_test(NAME layer_dpnp
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layer/dpnp_suite.py
            --runtime ${CMAKE_BINARY_DIR}/oclcpu --layer $<TARGET_FILE:xeopt_cl_layer>)
  add_test(NAME layer_dpnp_planted
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layer/dpnp_suite.py
            --runtime ${CMAKE_BINARY_DIR}/oclcpu --layer $<TARGET_FILE:xeopt_cl_layer>
            --tests test_absolute.py --expect-difference)
  # The same with a variant for every launch whose facts allow one
  # (XEOPT_LAYER_SPECIALIZE=always, docs/layer.md "Launch facts and
  # variants"); --target=dg2 so that the promises change modules on this CPU
  # device.
  add_test(NAME layer_dpnp_always
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layer/dpnp_suite.py
            --runtime ${CMAKE_BINARY_DIR}/oclcpu --layer $<TARGET_FILE:xeopt_cl_layer>
            --layer-env SPECIALIZE=always "--layer-env" "OPTIONS=-O2 --target=dg2")
  # Two runs of about 70 s each (2 min 17 s together with other jobs running);
  # a pytest run gives up at 600 s.
  set_tests_properties(layer_dpnp layer_dpnp_planted layer_dpnp_always PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 1500 LABELS oclcpu)
  set_tests_properties(layer_dpnp_always PROPERTIES DEPENDS layer_dpnp)
  set_tests_properties(layer_dpnp_planted PROPERTIES ENVIRONMENT XEOPT_DPNP_PLANT=1)
  # Both install dpnp into the same directory when it is missing.
  set_tests_properties(layer_dpnp_planted PROPERTIES DEPENDS layer_dpnp)
endif()
