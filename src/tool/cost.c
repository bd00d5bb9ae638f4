/*
 * `xeopt --cost=DEVICE[,DEVICE] MODULE.spv`: the cost model's estimate of
 * every kernel of a module as it is (no pass runs), one line per kernel
 * and device on standard output, after a header line that names the
 * columns:
 *
 *    # kernel device cycles scattered block private simd lane_bytes thread_bytes
 *
 * cycles is the estimate (src/analysis/cost.h); the message counts are
 * per work-item, weighted by loop trip counts like the cycles; simd the
 * width IGC is predicted to compile the kernel at (simd.h), from the
 * register pressure lane_bytes and thread_bytes (pressure.h).  bench/isa
 * puts this next to IGC's counts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cost.h"
#include "io.h"
#include "simd.h"

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
   printf("# kernel device cycles scattered block private simd lane_bytes thread_bytes\n");
   for (unsigned k = 0; k < nk; k++) {
      for (int d = 0; d < XE_DEV_COUNT; d++) {
         if (!(set & (1u << d)) || !ks[k].fn)
            continue;
         xe_cost c = xe_cost_function(m, ks[k].fn, (enum xe_device)d, NULL);
         xe_simd_facts f = xe_simd_facts_of(m, &ks[k]);
         printf("%s %s %.0f %.0f %.0f %.0f %u %u %u\n", ks[k].name, xe_device_name((enum xe_device)d),
                c.cycles, c.scattered, c.block, c.priv, xe_simd_predict((enum xe_device)d, &f),
                f.pressure.varying, f.pressure.uniform);
      }
   }
   free(ks);
   xe_module_free(m);
   return 0;
}
