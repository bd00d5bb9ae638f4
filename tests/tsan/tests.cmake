# --isa-check from 8 threads under ThreadSanitizer (tests/tsan/isa_threads.c).
# TSan cannot share a process with ASan, so in the sanitizer build
# (XEOPT_SANITIZE, scripts/test.sh --sanitize) this one executable compiles
# the library's sources again with -fsanitize=thread instead of the
# directory's -fsanitize=address,undefined.  Skipped (77) without ocloc and
# iga64.
if(XEOPT_SANITIZE)
  set(tsan_srcs ${CMAKE_BINARY_DIR}/opnames.c ${CMAKE_BINARY_DIR}/opinfo_table.c)
  foreach(layer ${XEOPT_LAYERS})
    file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${layer}/*.c
         ${CMAKE_SOURCE_DIR}/src/${layer}/*.cpp)
    list(APPEND tsan_srcs ${srcs})
  endforeach()
  add_executable(isa_threads_tsan ${CMAKE_CURRENT_LIST_DIR}/isa_threads.c ${tsan_srcs})
  add_dependencies(isa_threads_tsan xeopt_ir)   # its generated tables
  target_include_directories(isa_threads_tsan PRIVATE ${XEOPT_LAYER_INCLUDES})
  target_compile_definitions(isa_threads_tsan PRIVATE XEOPT_VERSION="${PROJECT_VERSION}")
  target_link_libraries(isa_threads_tsan PRIVATE SPIRV-Tools-static PkgConfig::CJSON m Threads::Threads)
  # Replaces the sanitizer flags the directory gives every target.
  set_property(TARGET isa_threads_tsan PROPERTY COMPILE_OPTIONS
    -Wall -Wextra -O1 -g -fsanitize=thread -fno-omit-frame-pointer)
  set_property(TARGET isa_threads_tsan PROPERTY LINK_OPTIONS -fsanitize=thread)
  set_target_properties(isa_threads_tsan PROPERTIES LINKER_LANGUAGE CXX)
  add_test(NAME isa_threads_tsan
    COMMAND isa_threads_tsan ${CMAKE_SOURCE_DIR}/testdata/spv/barrier_local.spv)
  set_tests_properties(isa_threads_tsan PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1:exitcode=66")
endif()
