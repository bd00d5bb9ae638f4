# xeopt_optimize_spirv(<target> OUTPUT <out.spv> INPUT <in.spv>
#                      [PASSES <pass>...] [ASSUME_PADDED] [MANIFEST <out.json>]
#                      [OPTIONS <xeopt option>...])
#
# Adds a custom command that optimizes INPUT into OUTPUT with xeopt, and a
# target <target> (built by default) that depends on it.  PASSES runs those
# passes in order (default: -O2).  MANIFEST names the host-contract
# manifest; when no pass changed the contract, an empty manifest
# ({"xeopt_manifest": 1, "kernels": {}}) is written so the build always
# produces the file.  OPTIONS are passed to xeopt as they are.
function(xeopt_optimize_spirv target)
  cmake_parse_arguments(PARSE_ARGV 1 X "ASSUME_PADDED" "OUTPUT;INPUT;MANIFEST" "PASSES;OPTIONS")
  if(NOT X_OUTPUT OR NOT X_INPUT)
    message(FATAL_ERROR "xeopt_optimize_spirv(${target}): OUTPUT and INPUT are required")
  endif()
  if(X_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "xeopt_optimize_spirv(${target}): unknown arguments ${X_UNPARSED_ARGUMENTS}")
  endif()
  if(TARGET xeopt::xeopt_cli)
    set(tool xeopt::xeopt_cli)
  else()
    set(tool xeopt) # inside xeopt's own build
  endif()
  set(args ${X_OPTIONS})
  if(X_PASSES)
    list(JOIN X_PASSES "," passes)
    list(APPEND args --passes=${passes})
  endif()
  if(X_ASSUME_PADDED)
    list(APPEND args --assume-padded)
  endif()
  set(outputs ${X_OUTPUT})
  set(after)
  if(X_MANIFEST)
    list(APPEND args --manifest=${X_MANIFEST})
    list(APPEND outputs ${X_MANIFEST})
    set(after COMMAND ${CMAKE_COMMAND} -DMANIFEST=${X_MANIFEST}
      -P ${_XEOPT_OPTIMIZE_SPIRV_DIR}/XeoptEmptyManifest.cmake)
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${X_MANIFEST}
    COMMAND ${tool} ${args} ${X_INPUT} -o ${X_OUTPUT}
    ${after}
    DEPENDS ${X_INPUT} ${tool}
    COMMENT "xeopt: optimizing ${X_INPUT}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
set(_XEOPT_OPTIMIZE_SPIRV_DIR ${CMAKE_CURRENT_LIST_DIR})
