/*
 * The C++ guard around SPIRV-Tools' C API (spirv_tools.h).
 *
 * Why a try/catch per call and not std::set_new_handler: a new handler is
 * process-wide.  libxeopt.so and the OpenCL layer run inside applications
 * with C++ allocations of their own, which a handler of ours would turn
 * into a jump into xeopt (or an exit) instead of their std::bad_alloc; and
 * it would run on threads that never called xeopt.  The guard catches only
 * what SPIRV-Tools throws under our calls.  The handler only records the
 * failure: xe_out_of_memory() longjmps, which must not leave a catch block
 * (the exception object would never be freed), so it is called after the
 * try/catch, where no C++ object of this frame is alive.
 */
#include <cstdio>
#include <exception>
#include <new>

#include "spirv_tools.h"

extern "C" [[noreturn]] void xe_out_of_memory(void);

namespace {

/* Runs call(); bad_alloc -> xe_out_of_memory, any other exception ->
 * SPV_ERROR_INTERNAL with its what() as the diagnostic, where the caller
 * asked for one and SPIRV-Tools left none.  The handlers only copy: the
 * diagnostic is made after them, since making it may throw too. */
template <typename F> spv_result_t guard(spv_diagnostic *diag, F call)
{
   bool oom = false;
   char what[200] = "SPIRV-Tools failed with an unknown exception";
   try {
      return call();
   } catch (const std::bad_alloc &) {
      oom = true;
   } catch (const std::exception &e) {
      snprintf(what, sizeof what, "SPIRV-Tools failed: %s", e.what());
   } catch (...) {
   }
   if (diag && !*diag && !oom) {
      spv_position_t at = {0, 0, 0};
      try {
         *diag = spvDiagnosticCreate(&at, what);
      } catch (const std::bad_alloc &) {
         oom = true;
      }
   }
   if (oom)
      xe_out_of_memory();
   return SPV_ERROR_INTERNAL;
}

} // namespace

extern "C" spv_context xe_spv_context_create(spv_target_env env)
{
   spv_context ctx = nullptr;
   guard(nullptr, [&] {
      ctx = spvContextCreate(env);
      return SPV_SUCCESS;
   });
   return ctx;
}

extern "C" spv_result_t xe_spv_binary_parse(spv_const_context ctx, void *user,
                                            const uint32_t *words, size_t nwords,
                                            spv_parsed_header_fn_t header,
                                            spv_parsed_instruction_fn_t inst, spv_diagnostic *diag)
{
   return guard(diag, [&] { return spvBinaryParse(ctx, user, words, nwords, header, inst, diag); });
}

extern "C" spv_result_t xe_spv_validate(spv_const_context ctx, spv_const_binary bin,
                                        spv_diagnostic *diag)
{
   return guard(diag, [&] { return spvValidate(ctx, bin, diag); });
}

extern "C" spv_result_t xe_spv_binary_to_text(spv_const_context ctx, const uint32_t *words,
                                              size_t nwords, uint32_t options, spv_text *text,
                                              spv_diagnostic *diag)
{
   return guard(diag, [&] { return spvBinaryToText(ctx, words, nwords, options, text, diag); });
}

extern "C" spv_result_t xe_spv_text_to_binary(spv_const_context ctx, const char *text,
                                              size_t length, spv_binary *bin, spv_diagnostic *diag)
{
   return guard(diag, [&] { return spvTextToBinary(ctx, text, length, bin, diag); });
}
