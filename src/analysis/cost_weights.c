/*
 * The devices the cost model knows (cost.h) and their weights, as data:
 * pvc's weights in full, then for every other device only those whose
 * value differs from pvc's.  Each device's table is resolved at compile
 * time, pvc's list followed by the device's overrides in one designated
 * initializer, so it is complete before main runs and threads share it
 * without any initialisation.
 *
 * A comment here says what a value stands for and why it has that size;
 * where each value comes from (the guide, Intel's hardware facts, a
 * measurement of IGC's output, or an assumption) is the provenance table
 * of docs/cost-model.md, "The weights", which test_cost_weights checks
 * against this file.
 */
#include <string.h>

#include "cost_weights.h"

/* pvc (Xe-HPC, IGC 22.43 unless a comment says otherwise): every weight, as a
 * list of designators (no trailing comma) for the initializers below. */
#define XE_PVC_WEIGHTS                                                                  \
   .alu = 1,            /* one issued instruction per SIMD op: the unit */              \
   .alu64 = 2,          /* a native 64-bit integer ALU at half rate */                  \
   .fp64 = 2,           /* native FP64 at half rate in SIMD16 */                        \
   .mul64 = 4,                                                                          \
   .math = 4,           /* extended math issues at 1/4 rate */                          \
   .branch = 2,         /* a divergent if is a goto and a join */                       \
   .builtin = 2,        /* global id = group id * size + local id */                    \
   .send = 1,           /* the send instruction itself */                               \
   .msg_scattered = 4,  /* 16 lanes' 64-bit addresses are several GRF of payload */     \
   .msg_block = 2,      /* one address for the sub-group (a transposed LSC message) */  \
   .msg_private = 4,    /* scratch is L1-cached LSC, like a scattered load */           \
   .msg_slm = 2,        /* SLM is banked and has no address translation */              \
   .msg_atomic = 8,     /* a read-modify-write at L3 */                                 \
   .priv_addr = 2,      /* a per-lane 32-bit scratch offset */                          \
   .generic_check = 4,  /* the address-space test IGC emits per Generic access */       \
   .priv_byte = 0.25,   /* native 64-bit moves: a wide element costs little more */     \
   .reg_indirect = 9.7, /* IGC's per-lane indirect moves grow with the element's        \
                         * bytes, not with the array's length */                        \
   .reg_limit = 64,     /* a larger lone array goes to scratch */                       \
   .reg_total = 192,    /* IGC's promotion cap (48 GRF x 4 B), which the arrays         \
                         * live together share */                                       \
   .lane0_base = 2,     /* lane 0's address broadcast and a scalar base */              \
   .lane0_shared = 9,   /* IGC keeps both address forms, per lane and lane 0's */       \
   .lane0_lane = 3,     /* the address stays per lane; lane 0's is moved out */         \
   .igc_block = 1,      /* IGC 2.40 makes such accesses block messages itself */        \
   .broadcast = 2,      /* a scalar region move from lane 0 */                          \
   .reduce = 14,        /* about 14 scalar instructions */                              \
   /* the versioning test: least squares over IGC's slow path alone, minus              \
    * the input */                                                                      \
   .version_test = 19,                                                                  \
   .version_access = 5.1,                                                               \
   .version_shared = 1.4,                                                               \
   .version_utest = 4.8,                                                                \
   .version_uaccess = 2.8,                                                              \
   .version_uguard = 13.5,                                                              \
   .simd_halving = 1.64, /* IGC 2.40: cycles per work-item, SIMD16 over SIMD32 */       \
   .barrier = 8         /* a fence and a gateway message */

/* In each initializer below a member named again after XE_PVC_WEIGHTS
 * takes the later value (C11 6.7.9p19): that is how a device overrides
 * pvc's weight, so the warning about it is off for this table. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"

const xe_cost_weights xe_cost_weight_table[XE_DEV_COUNT] = {
   [XE_DEV_PVC] = { XE_PVC_WEIGHTS },
   /* dg2 (Xe-HPG, IGC 22.43): its own weights; the ones not listed have
    * pvc's value for dg2's own reasons. */
   [XE_DEV_DG2] = {
      XE_PVC_WEIGHTS,
      .alu64 = 4,          /* Xe-HPG emulates 64-bit integers with 32-bit ops */
      .fp64 = 16,          /* no FP64 on Xe-HPG: IGC emulates it */
      .mul64 = 8,          /* emulated */
      .msg_private = 8,    /* private arrays are stateless a64 gathers, not cached in L1 */
      .priv_addr = 6,      /* the per-lane slot address from sr0 in 64 bits, emulated */
      .priv_byte = 1,      /* a 64-bit element moves as two dwords */
      .reg_indirect = 10.5,
      .reg_total = 256,
      .lane0_shared = 2,
      .igc_block = 0,      /* IGC leaves such accesses scattered on dg2 */
      .version_test = 25,
      .version_access = 2.6,
      .version_shared = 1,
      .version_utest = 2.7,
      .version_uaccess = 4.7,
      .version_uguard = 17.6,
      .simd_halving = 1.47,
   },
   /* bmg (Xe2, Arc B), lnl (Xe2, Lunar Lake) and ptl (Xe3, Panther Lake):
    * the values listed are IGC 2.40's (ocloc 26), most measured on the
    * device itself; every weight not listed is provisional, pvc's value,
    * not measured on the device. */
   [XE_DEV_BMG] = {
      XE_PVC_WEIGHTS,
      .reg_indirect = 19.8,
      .reg_limit = 192,    /* IGC 2.40 keeps larger arrays in registers */
      .reg_total = 256,
      .lane0_shared = 7,
      .igc_block = 0,      /* IGC 2.40 leaves such accesses scattered here */
   },
   [XE_DEV_LNL] = {
      XE_PVC_WEIGHTS,
      .reg_indirect = 19.8, /* lnl's code is bmg's */
      .reg_limit = 192,
      .reg_total = 256,
      .lane0_shared = 7,
      .igc_block = 0,
   },
   [XE_DEV_PTL] = {
      XE_PVC_WEIGHTS,
      .reg_indirect = 17.7,
      .reg_limit = 192,
      .reg_total = 256,
      .lane0_shared = 7,
      .igc_block = 0,
   },
};

#pragma GCC diagnostic pop

static const char *const NAMES[XE_DEV_COUNT] = { "dg2", "pvc", "bmg", "lnl", "ptl" };

const xe_cost_weights *xe_cost_weights_of(enum xe_device d) { return &xe_cost_weight_table[d]; }

const char *xe_device_name(enum xe_device d) { return d < XE_DEV_COUNT ? NAMES[d] : "?"; }

/* Xe-HPG has 32-byte registers; Xe-HPC, Xe2 and Xe3 have 64-byte ones. */
unsigned xe_device_grf_bytes(enum xe_device d) { return d == XE_DEV_DG2 ? 32 : 64; }

const char *xe_device_iga_platform(enum xe_device d)
{
   return d == XE_DEV_DG2 ? "12p71" : d == XE_DEV_PVC ? "12p72" : NULL;
}

bool xe_device_parse_set(const char *s, unsigned *set)
{
   unsigned r = 0;
   while (*s) {
      const char *e = strchr(s, ',');
      size_t n = e ? (size_t)(e - s) : strlen(s);
      int found = -1;
      if (n == 3 && !strncmp(s, "all", 3)) {
         r |= XE_DEV_ALL;
         s += n + (e != NULL);
         continue;
      }
      for (int d = 0; d < XE_DEV_COUNT; d++)
         if (strlen(NAMES[d]) == n && !strncmp(s, NAMES[d], n))
            found = d;
      if (found < 0)
         return false;
      r |= 1u << found;
      s += n + (e != NULL);
   }
   *set = r;
   return r != 0;
}
