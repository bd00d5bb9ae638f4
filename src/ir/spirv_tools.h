/*
 * SPIRV-Tools' C API, called through a C++ guard (spirv_tools.cpp).
 *
 * SPIRV-Tools is C++: its C entry points allocate with operator new, and
 * a std::bad_alloc thrown inside them would unwind into our C frames, find
 * no handler and end the process in std::terminate (abort).  Every call of
 * the library into SPIRV-Tools goes through these functions instead, which
 * catch it and report out of memory the library's way (xe_out_of_memory:
 * XEOPT_ERROR_INTERNAL, "out of memory").  Any other exception becomes
 * SPV_ERROR_INTERNAL with a diagnostic naming it.  Arguments and results
 * are those of the spv* function of the same name (libspirv.h).
 */
#ifndef XEOPT_SPIRV_TOOLS_H
#define XEOPT_SPIRV_TOOLS_H

#include <spirv-tools/libspirv.h>

#ifdef __cplusplus
extern "C" {
#endif

/* spvContextCreate. */
spv_context xe_spv_context_create(spv_target_env env);
/* spvBinaryParse.  The callbacks may call xe_out_of_memory themselves. */
spv_result_t xe_spv_binary_parse(spv_const_context ctx, void *user, const uint32_t *words,
                                 size_t nwords, spv_parsed_header_fn_t header,
                                 spv_parsed_instruction_fn_t inst, spv_diagnostic *diag);
/* spvValidate. */
spv_result_t xe_spv_validate(spv_const_context ctx, spv_const_binary bin, spv_diagnostic *diag);
/* spvBinaryToText. */
spv_result_t xe_spv_binary_to_text(spv_const_context ctx, const uint32_t *words, size_t nwords,
                                   uint32_t options, spv_text *text, spv_diagnostic *diag);
/* spvTextToBinary. */
spv_result_t xe_spv_text_to_binary(spv_const_context ctx, const char *text, size_t length,
                                   spv_binary *bin, spv_diagnostic *diag);

#ifdef __cplusplus
}
#endif

#endif
