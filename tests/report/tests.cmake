# The HTML report (docs/report.md), included by tests/CMakeLists.txt.
# report_html: the page's content (kernels, remarks beside their source
# lines or instructions, escaping, nothing loaded from outside); needs
# clang-15 and llvm-spirv-15 (77 without them).
# report_html_chromium: the page in headless Chromium (Debian's `chromium`
# package): no console message, a screenshot in
# ${CMAKE_CURRENT_BINARY_DIR}/report/report.png; skipped (77) without
# Chromium unless XEOPT_REQUIRE_CHROMIUM=1.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  foreach(what page chromium)
    if(what STREQUAL "page")
      set(test report_html)
    else()
      set(test report_html_chromium)
    endif()
    add_test(NAME ${test}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/report/run.py ${what}
              --xeopt $<TARGET_FILE:xeopt> --work ${CMAKE_CURRENT_BINARY_DIR}/report/${what})
    set_tests_properties(${test} PROPERTIES LABELS report TIMEOUT 300 SKIP_RETURN_CODE 77)
  endforeach()
endif()

# xeopt_result_report_html from the C API, through libxeopt.so alone.
add_executable(test_report_api ${CMAKE_CURRENT_SOURCE_DIR}/report/test_report_api.c)
target_link_libraries(test_report_api PRIVATE xeopt_shared)
target_compile_definitions(test_report_api PRIVATE XEOPT_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(test_report_api PRIVATE -D_GNU_SOURCE)
add_test(NAME test_report_api COMMAND test_report_api)
set_tests_properties(test_report_api PROPERTIES LABELS report)
