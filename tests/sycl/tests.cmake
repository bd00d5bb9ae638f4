# The SYCL corpus's CI subset (scripts/sycl-corpus.sh --subset, issue 31):
# 26 device images of dpnp's and dpctl's DPC++-built libraries from PyPI,
# through xeopt -O2 --validate, spirv-val, --verify and IGC (dg2, or pvc for
# fp64 kernels); fails on an input xeopt cannot read, a crash, an invalid
# output, an output IGC rejects where it took the input, or a --verify
# difference.  The wheels are cached in the build tree.  Label corpus.
add_test(NAME sycl_corpus
  COMMAND ${CMAKE_SOURCE_DIR}/scripts/sycl-corpus.sh --subset --strict --check
          --out=${CMAKE_BINARY_DIR}/corpus/sycl --xeopt=$<TARGET_FILE:xeopt>)
set_tests_properties(sycl_corpus PROPERTIES LABELS corpus TIMEOUT 1800
  ENVIRONMENT "XEOPT_SYCL_VENV=${CMAKE_BINARY_DIR}/sycl-venv")
