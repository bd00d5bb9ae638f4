# The mutation sweep's CI sample (bench/mutate/README.md): the mutants of
# bench/mutate/ci-sample.txt, each planted in a copy of the source tree
# (build/tests/mutate/tree, built in Debug beside it) and run against the
# test that must kill it; fails when one survives or when a test of the
# sample fails unmutated.  Time-boxed (--time-box, the copy and its build
# included; the first four mutants, issue 33's survivors and the write
# alignment mask, always run).  mutate_sample_planted plants a mutant that
# survives (bench/mutate/ci-planted.txt) and must see the sample fail.
# Label `mutate`; the two share the copy (RESOURCE_LOCK).  Not in the
# sanitizer build: the copy is built without sanitizers anyway.
if(Python3_Interpreter_FOUND AND NOT XEOPT_SANITIZE)
  set(XEOPT_MUTATE_ARGS ${CMAKE_SOURCE_DIR}/bench/mutate/sweep.py --ci
      --source ${CMAKE_SOURCE_DIR}
      --tree ${CMAKE_CURRENT_BINARY_DIR}/mutate/tree
      --build ${CMAKE_CURRENT_BINARY_DIR}/mutate/build
      --build-type Debug)
  add_test(NAME mutate_sample COMMAND ${Python3_EXECUTABLE} ${XEOPT_MUTATE_ARGS} --time-box 170)
  add_test(NAME mutate_sample_planted COMMAND ${Python3_EXECUTABLE} ${XEOPT_MUTATE_ARGS} --time-box 120
           --sample ${CMAKE_SOURCE_DIR}/bench/mutate/ci-planted.txt --min-run 1)
  set_tests_properties(mutate_sample mutate_sample_planted PROPERTIES LABELS mutate TIMEOUT 300
    RESOURCE_LOCK xeopt_mutate_tree)
  set_tests_properties(mutate_sample_planted PROPERTIES
    PASS_REGULAR_EXPRESSION "FAIL: expected killed: src/exec/ops.c:smod-equivalent")
endif()
