/* Entry points of the passes in passes/, one per file (see pass.h). */
#ifndef XEOPT_PASSES_H
#define XEOPT_PASSES_H

#include "pass.h"

bool xeopt_pass_interface_vars(xe_module *m, const xe_options *opt, xe_remarks *r);
bool xeopt_pass_padding(xe_module *m, const xe_options *opt, xe_remarks *r);
bool xeopt_pass_loop_spec_constants(xe_module *m, const xe_options *opt, xe_remarks *r);
bool xeopt_pass_block_io(xe_module *m, const xe_options *opt, xe_remarks *r);
bool xeopt_pass_private_arrays(xe_module *m, const xe_options *opt, xe_remarks *r);
bool xeopt_pass_generic_address(xe_module *m, const xe_options *opt, xe_remarks *r);
bool xeopt_pass_block_order(xe_module *m, const xe_options *opt, xe_remarks *r);

#endif
