# Writes an empty xeopt manifest at MANIFEST unless xeopt wrote one.
if(NOT EXISTS "${MANIFEST}")
  file(WRITE "${MANIFEST}" "{\n\t\"xeopt_manifest\":\t1,\n\t\"kernels\":\t{\n\t}\n}\n")
endif()
