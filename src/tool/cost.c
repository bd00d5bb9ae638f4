/*
 * `xeopt --cost=DEVICE[,DEVICE] MODULE.spv`: the cost model's estimate of
 * every kernel of a module as it is (no pass runs), one line per kernel
 * and device on standard output, after a header line that names the
 * columns:
 *
 *    # kernel device cycles scattered block private
 *
 * cycles is the estimate (src/analysis/cost.h); the message counts are
 * per work-item, weighted by loop trip counts like the cycles.  bench/isa
 * puts this next to IGC's counts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cost.h"
#include "io.h"

int xe_cmd_cost(const char *devices, const char *path)
{
   unsigned set;
   if (!xe_device_parse_set(devices, &set)) {
      xe_error(NULL, "option --cost takes devices (dg2, pvc, bmg, lnl, ptl, a comma-separated list, or all), not '%s'", devices);
      return 1;
   }
   size_t size;
   char *err = NULL;
   void *bytes = xe_read_file(path, &size, &err);
   xe_module *m = bytes ? xe_read(bytes, size, &err) : NULL;
   free(bytes);
   if (!m) {
      xe_error(path, "%s", err);
      free(err);
      return 1;
   }
   unsigned nk;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   printf("# kernel device cycles scattered block private\n");
   for (unsigned k = 0; k < nk; k++) {
      for (int d = 0; d < XE_DEV_COUNT; d++) {
         if (!(set & (1u << d)) || !ks[k].fn)
            continue;
         xe_cost c = xe_cost_function(m, ks[k].fn, (enum xe_device)d, NULL);
         printf("%s %s %.0f %.0f %.0f %.0f\n", ks[k].name, xe_device_name((enum xe_device)d),
                c.cycles, c.scattered, c.block, c.priv);
      }
   }
   free(ks);
   xe_module_free(m);
   return 0;
}
