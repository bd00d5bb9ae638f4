/* Stand-ins for the interpreter's entry points while src/exec/ is absent. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "driver.h"

int xe_cmd_run(int argc, char **argv)
{
   (void)argc;
   (void)argv;
   xe_error(NULL, "'xeopt run' is not available in this build");
   return 1;
}

bool xe_verify_modules(const xe_module *before, const xe_module *after, const xe_options *o,
                       FILE *log, char **report)
{
   (void)log;
   (void)before;
   (void)after;
   (void)o;
   *report = strdup("--verify is not available in this build");
   return false;
}
