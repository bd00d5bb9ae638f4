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
  set_tests_properties(frontends_matrix PROPERTIES LABELS frontends TIMEOUT 1800
    SKIP_RETURN_CODE 77)
endif()

# The one-file pass tests (tests/passes/*.cl) on the modules clang 21 +
# llvm-spirv 21, clang 21's SPIR-V backend and ocloc 26 write: every
# rewrite made on clang 15's module is made on theirs, and their outputs
# validate (spirv-val 2023.1 and 2026.4), --verify and compile in IGC 22.43
# and 26 (tests/passes/run.py --front-end).
if(Python3_Interpreter_FOUND)
  file(GLOB XEOPT_FE_PASS_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/passes/*.cl)
  foreach(src ${XEOPT_FE_PASS_TESTS})
    get_filename_component(name ${src} NAME_WE)
    foreach(fe clang21 clang21-backend ocloc26)
      add_test(NAME pass-${fe}/${name}
        COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/passes/run.py
                --xeopt $<TARGET_FILE:xeopt> --front-end ${fe}
                --work ${CMAKE_CURRENT_BINARY_DIR}/passes-${fe}/${name} ${src})
      set_tests_properties(pass-${fe}/${name} PROPERTIES LABELS frontends TIMEOUT 600
        ENVIRONMENT "XEOPT_CHECK_PASSES=1")
    endforeach()
  endforeach()
endif()

# The same rule on a corpus subset (tests/frontends/corpus.sh: seven darktable
# files through the five front ends, one hashcat file through the three that
# compile it; scripts/corpus.sh fetches them from Debian into the build tree,
# then bench/frontends --exceptions): every pair applied under clang15 or
# ocloc22 must apply under each 2026 front end, or be listed with its reason
# in tests/frontends/corpus-exceptions.txt.  Needs the network once; 77
# without it or without the sid toolchains, unless XEOPT_REQUIRE_OCLOC=1.
add_test(NAME frontends_corpus
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/frontends/corpus.sh ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(frontends_corpus PROPERTIES LABELS frontends TIMEOUT 1200
  SKIP_RETURN_CODE 77 ENVIRONMENT "XEOPT=$<TARGET_FILE:xeopt>")
# Planted: the same run with no exceptions must report the subset's misses as
# unlisted (bench/frontends exits 1); it reuses frontends_corpus's modules and
# reports, so it runs after it, in seconds.
add_test(NAME frontends_corpus_planted
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/frontends/corpus.sh ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(frontends_corpus_planted PROPERTIES LABELS frontends TIMEOUT 1200
  DEPENDS frontends_corpus SKIP_RETURN_CODE 77 SKIP_REGULAR_EXPRESSION "frontends_corpus: SKIP"
  PASS_REGULAR_EXPRESSION "0 listed, [1-9][0-9]* not listed"
  ENVIRONMENT "XEOPT=$<TARGET_FILE:xeopt>;EXCEPTIONS=/dev/null")

# -g changes nothing that is optimized (issue 47, item 5): testdata kernels
# built with clang-15 + llvm-spirv-15 with and without full debug info give
# the same remarks and cost estimates, and the -g outputs validate as well
# as their inputs and compile with IGC (tests/frontends/debug_info.sh).
# 77 without clang-15 or llvm-spirv-15.
add_test(NAME frontends_debug_info
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/frontends/debug_info.sh $<TARGET_FILE:xeopt>
          ${CMAKE_CURRENT_BINARY_DIR}/frontends-debug-info ${CMAKE_SOURCE_DIR})
set_tests_properties(frontends_debug_info PROPERTIES LABELS frontends TIMEOUT 300
  SKIP_RETURN_CODE 77)

# Plain -O2 leaves simplify-cfg's merges out of a kernel only
# loop-spec-constants rewrote, and keeps its bypasses (issue 50;
# tests/frontends/plain_merge.sh).  77 without the sid toolchain.
add_test(NAME frontends_plain_merge
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/frontends/plain_merge.sh $<TARGET_FILE:xeopt>
          ${CMAKE_CURRENT_BINARY_DIR}/frontends-plain-merge ${CMAKE_SOURCE_DIR})
set_tests_properties(frontends_plain_merge PROPERTIES LABELS frontends TIMEOUT 300
  SKIP_RETURN_CODE 77)
