# README.md's promises (issue 32; tests/readme/check.py): at most 12 KB, the
# two quick-start scripts exist and .ci/run runs the second, every block marked
# <!-- test: run --> runs as written with the built xeopt on PATH, and every
# "A → B" it quotes is in bench/README.md or its notes (bench/notes/).  readme_examples_planted must fail.
if(Python3_EXECUTABLE)
  add_test(NAME readme_examples
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/readme/check.py
            --readme ${PROJECT_SOURCE_DIR}/README.md
            --bench ${PROJECT_SOURCE_DIR}/bench/README.md
            --bin $<TARGET_FILE_DIR:xeopt>)
  set_tests_properties(readme_examples PROPERTIES LABELS readme TIMEOUT 900
    SKIP_RETURN_CODE 77)
  add_test(NAME readme_examples_planted
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/readme/check.py
            --readme ${CMAKE_CURRENT_SOURCE_DIR}/readme/planted/README.md
            --root ${PROJECT_SOURCE_DIR}
            --bin $<TARGET_FILE_DIR:xeopt>)
  set_tests_properties(readme_examples_planted PROPERTIES LABELS readme TIMEOUT 300
    WILL_FAIL TRUE)
endif()
