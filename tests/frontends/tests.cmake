# The front-end invariance matrix (tests/frontends/matrix.py, issue 29):
# testdata's OpenCL C kernels through clang 15 + llvm-spirv 15, clang 21 +
# llvm-spirv 21, clang 21's SPIR-V backend, ocloc 22.43 and ocloc 26; every
# rewrite applied from the 2022 front ends must apply from the 2026 ones
# (exceptions listed with their reason in tests/frontends/exceptions.txt),
# every output must pass spirv-val 2026 and --verify.  Label frontends; the
# sanitizer build leaves it out with the corpus (its time is in the
# front ends and the interpreter, which the other suites cover).
if(Python3_Interpreter_FOUND)
  add_test(NAME frontends_matrix
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/frontends/matrix.py
            --xeopt $<TARGET_FILE:xeopt> --work ${CMAKE_CURRENT_BINARY_DIR}/frontends
            ${CMAKE_SOURCE_DIR}/testdata/kernels)
  set_tests_properties(frontends_matrix PROPERTIES LABELS "frontends;corpus" TIMEOUT 1800
    SKIP_RETURN_CODE 77)
endif()
