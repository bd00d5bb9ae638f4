/* Placeholder for `xeopt run` until the interpreter lands (exec/). */
#include "cli.h"

int xe_cmd_run(int argc, char **argv)
{
   (void)argc;
   (void)argv;
   xe_error(NULL, "'xeopt run' is not available in this build");
   return 1;
}
