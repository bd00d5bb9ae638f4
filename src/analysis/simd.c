/*
 * IGC's SIMD width (simd.h).  The thresholds are IGC 2.40's, named as its
 * source names them; docs/cost-model.md "SIMD width" gives the files.
 */
#include "simd.h"

#include <stdlib.h>


/* Simd32ProfitabilityAnalysis: more instructions than this, no SIMD32 on dg2. */
#define IGC_SIMD32_MAX_INSTRUCTIONS 8000
/* ForceSIMDRPELimit: a kernel whose pressure at the width passes this many
 * registers is not compiled at it (but at the narrowest). */
#define IGC_RPE_LIMIT 1000
/* Registers of one thread (without a large-GRF option). */
#define IGC_GRF_COUNT 128
/* ptl (Xe3, autoGRF): OCLVRTSimd16DropSimd32High, OCLVRTSimd16DropSimd16Low,
 * EarlySIMD16DropForXE3Threshold. */
#define IGC_PTL_DROP_SIMD32_HIGH 160
#define IGC_PTL_DROP_SIMD16_LOW 120
#define IGC_PTL_DROP_ANY 256

/* dg2's hasSubGroupFunc (helper.cpp isSubGroupIntrinsic): shuffles,
 * broadcasts and block reads and writes; reductions, scans, votes and the
 * sub-group ids are not on the list. */
static bool subgroup_func(const xe_module *m, const xe_inst *i)
{
   switch (i->opcode) {
   case SpvOpSubgroupShuffleINTEL:
   case SpvOpSubgroupShuffleDownINTEL:
   case SpvOpSubgroupShuffleUpINTEL:
   case SpvOpSubgroupShuffleXorINTEL:
   case SpvOpSubgroupBlockReadINTEL:
   case SpvOpSubgroupBlockWriteINTEL:
   case SpvOpGroupNonUniformShuffle:
   case SpvOpGroupNonUniformShuffleXor:
   case SpvOpGroupNonUniformShuffleUp:
   case SpvOpGroupNonUniformShuffleDown:
   case SpvOpGroupNonUniformBroadcast:
   case SpvOpGroupNonUniformBroadcastFirst:
   case SpvOpGroupNonUniformRotateKHR:
      return true;
   case SpvOpGroupBroadcast: {
      /* At Subgroup scope (a constant); a work-group broadcast goes through SLM. */
      const xe_inst *s = xe_def(m, xe_op(i, 0));
      return s && s->opcode == SpvOpConstant && s->nwords > 3 && s->words[3] == SpvScopeSubgroup;
   }
   default:
      return false;
   }
}

static bool media_block(const xe_inst *i)
{
   switch (i->opcode) {
   case SpvOpSubgroupImageBlockReadINTEL:
   case SpvOpSubgroupImageBlockWriteINTEL:
   case SpvOpSubgroupImageMediaBlockReadINTEL:
   case SpvOpSubgroupImageMediaBlockWriteINTEL:
      return true;
   default:
      return false;
   }
}

/* Walks f and its callees (depth-first, each call counted).  IGC keeps a
 * DontInline or OptNone callee (clang -O0 marks every function so) as a
 * subroutine, but for the kernel's own body, which llvm-spirv's wrapper
 * calls: IGC inlines a kernel into its wrapper whatever it says
 * (testdata exec_loop_O0 SIMD32, exec_vec_O0 with a helper SIMD16). */
static void gather(xe_module *m, const xe_kernel *k, xe_function *f, xe_simd_facts *s, unsigned depth)
{
   if (depth > 8) {
      s->subroutine = true;   /* recursion, or deeper than IGC inlines */
      return;
   }
   if (depth > 0 && xe_function_divergent_loop(m, f))
      s->divergent_loop = true;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->debug_info)
            continue;
         s->instructions++;
         s->subgroup_func |= subgroup_func(m, i);
         s->media_block |= media_block(i);
         if (i->opcode != SpvOpFunctionCall)
            continue;
         const xe_inst *callee = xe_def(m, xe_op(i, 0));
         if (!callee || !xe_inst_function(callee) || !xe_inst_function(callee)->first)
            continue;   /* an import: a built-in IGC provides */
         if ((xe_op(callee, 0) & (SpvFunctionControlDontInlineMask | SpvFunctionControlOptNoneINTELMask)) &&
             xe_inst_function(callee) != k->body)
            s->subroutine = true;
         gather(m, k, xe_inst_function(callee), s, depth + 1);
      }
   }
}

static uint32_t hint_size(const xe_module *m, const xe_kernel *k)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_EXECUTION_MODE]) {
      if (i->opcode == SpvOpExecutionMode && xe_op(i, 0) == xe_function_id(k->fn) &&
          xe_op(i, 1) == SpvExecutionModeLocalSizeHint && xe_nops(i) >= 5)
         return xe_op(i, 2) * xe_op(i, 3) * xe_op(i, 4);
   }
   return 0;
}

xe_simd_facts xe_simd_facts_of(xe_module *m, const xe_kernel *k)
{
   xe_simd_facts s = { .subgroup_size = k->subgroup_size };
   s.group_size = k->local_size[0] ? k->local_size[0] * k->local_size[1] * k->local_size[2]
                                   : hint_size(m, k);
   s.divergent_loop = xe_function_divergent_loop(m, k->fn);
   gather(m, k, k->fn, &s, 0);
   s.pressure = xe_function_pressure(m, k->fn);
   return s;
}

/* The registers (of d's size) a thread of width simd needs for pressure p. */
static unsigned registers(enum xe_device d, xe_pressure p, unsigned simd)
{
   unsigned grf = xe_device_grf_bytes(d);
   return (p.uniform + p.varying * simd + grf - 1) / grf;
}

unsigned xe_simd_predict(enum xe_device d, const xe_simd_facts *f)
{
   if (f->subgroup_size)
      return f->subgroup_size;
   if (d == XE_DEV_DG2) {
      if (f->subroutine || (f->group_size && f->group_size <= 8))
         return 8;
      if (registers(d, f->pressure, 16) >= IGC_RPE_LIMIT)
         return 8;
      bool simd32 = !f->subgroup_func && !f->divergent_loop && !(f->group_size && f->group_size <= 16) &&
                    f->instructions <= IGC_SIMD32_MAX_INSTRUCTIONS;
      if (simd32 && registers(d, f->pressure, 32) <= IGC_GRF_COUNT)
         return 32;
      return registers(d, f->pressure, 16) <= IGC_GRF_COUNT ? 16 : 8;
   }
   if (f->subroutine || f->media_block)
      return 16;
   unsigned p32 = registers(d, f->pressure, 32), p16 = registers(d, f->pressure, 16);
   if (p32 >= IGC_RPE_LIMIT)
      return 16;
   switch (d) {
   case XE_DEV_BMG:
   case XE_DEV_LNL:
      return p32 > IGC_GRF_COUNT ? 16 : 32;
   case XE_DEV_PTL:
      return (p32 > IGC_PTL_DROP_SIMD32_HIGH && p16 < IGC_PTL_DROP_SIMD16_LOW) || p32 > IGC_PTL_DROP_ANY
                ? 16
                : 32;
   default:
      return 32;   /* pvc: SIMD32, spilling if it must */
   }
}

bool xe_simd_spills(enum xe_device d, const xe_simd_facts *f, unsigned simd)
{
   return registers(d, f->pressure, simd) > IGC_GRF_COUNT;
}
