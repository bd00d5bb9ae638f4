#include "exec.h"
int xe_verify_modules(xe_module *a, xe_module *b, unsigned n, bool quiet) { (void)a;(void)b;(void)n;(void)quiet; return 0; }
