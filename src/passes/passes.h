/* Entry points of the passes in passes/, one per file (see pass.h). */
#ifndef XEOPT_PASSES_H
#define XEOPT_PASSES_H

#include "pass.h"
#include "judge.h"

bool xeopt_pass_canonicalize(xe_ctx *ctx);
bool xeopt_pass_interface_vars(xe_ctx *ctx);
bool xeopt_pass_simplify_cfg(xe_ctx *ctx);
bool xeopt_pass_padding(xe_ctx *ctx);
bool xeopt_pass_loop_spec_constants(xe_ctx *ctx);
bool xeopt_pass_block_io(xe_ctx *ctx);
bool xeopt_pass_subgroup_versioning(xe_ctx *ctx);
bool xeopt_pass_private_arrays(xe_ctx *ctx);
bool xeopt_pass_generic_address(xe_ctx *ctx);
bool xeopt_pass_dce(xe_ctx *ctx);
bool xeopt_pass_block_order(xe_ctx *ctx);
/* Not a pass: run after every pass that made progress (debug_info.c).
 * Deletes debug-info instructions in functions that name a value the pass
 * deleted or that no longer dominates them, and points global ones naming
 * a deleted id at DebugInfoNone, so that the module stays valid although
 * the passes never count debug info as a use (xe_inst_is_debug_info).
 * Returns whether it changed anything. */
bool xe_debug_info_repair(xe_module *m);

#endif
