/*
 * The per-kernel frame of the rewriting passes (runner.h).
 */
#include <stdlib.h>

#include "judge.h"
#include "runner.h"

bool xe_for_each_kernel(xe_ctx *ctx, const xe_kernel_walk *w)
{
   xe_module *m = ctx->module;
   unsigned nk = 0;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   bool progress = false;
   for (unsigned i = 0; i < nk; i++) {
      xe_kernel *k = &ks[i];
      if (!k->body || !xe_judge_rewritable(ctx, k->name))
         continue;
      if (w->shared_body && k->body != k->fn && k->body_callers != 1) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
         xe_remark(ctx->remarks, k->name, XE_REMARK_MISSED, w->shared_body, k->body_callers);
#pragma GCC diagnostic pop
         continue;
      }
      progress |= w->run(ctx, k, w->data);
   }
   free(ks);
   return progress;
}

/* What reaches a function (fwalk.reach): a kernel the judge keeps, a
 * kernel without the walk's plain flags, and from bit REACH_FLAGS on
 * the XE_PLAIN_* flags some reaching kernel carries. */
enum { REACH_KEPT = 1u << 0, REACH_UNPLAIN = 1u << 1, REACH_FLAGS = 2 };

/* One xe_for_each_function: the kernels' verdicts, and per function id
 * (below bound, the module's when the walk began) its kernel and reach. */
typedef struct fwalk {
   xe_module *m;
   unsigned nk;
   xe_kernel *ks;
   bool *rewritable;        /* per kernel */
   unsigned *devices;       /* per kernel */
   unsigned *plain;         /* per kernel: its flags among the walk's plain and reach_any */
   uint32_t bound;
   uint32_t *kernel_of;     /* 1 + the index of the function's first kernel; 0: a helper */
   uint8_t *reach;          /* REACH_* */
   xe_function_info helper; /* the helpers' fields over every kernel */
   bool any_plain;          /* the judge marks some kernel with the walk's flags */
} fwalk;

/* Sets bit in the reach of f and of every function it calls, directly or
 * not; a function that has it already is not entered again, so the walks
 * of all kernels together read each function once per bit. */
static void reach_from(fwalk *w, xe_function *f, uint8_t bit)
{
   if (!f || xe_function_id(f) >= w->bound || (w->reach[xe_function_id(f)] & bit))
      return;
   w->reach[xe_function_id(f)] |= bit;
   unsigned n = 0, cap = 16;
   xe_function **stack = xe_calloc(cap, sizeof(*stack));
   stack[n++] = f;
   while (n) {
      xe_function *g = stack[--n];
      xe_foreach_block(b, g) {
         xe_foreach_inst(i, &b->insts) {
            if (i->opcode != SpvOpFunctionCall)
               continue;
            xe_function *callee = xe_function_by_id(w->m, xe_op(i, 0));
            if (!callee || xe_function_id(callee) >= w->bound ||
                (w->reach[xe_function_id(callee)] & bit))
               continue;
            w->reach[xe_function_id(callee)] |= bit;
            if (n == cap && !(stack = realloc(stack, (cap *= 2) * sizeof(*stack))))
               xe_out_of_memory();
            stack[n++] = callee;
         }
      }
   }
   free(stack);
}

/* The kernels' verdicts, each function's kernel and the helpers' fields. */
static void judge_kernels(xe_ctx *ctx, fwalk *w, unsigned plain, unsigned reach_any)
{
   w->rewritable = xe_calloc(w->nk, sizeof(*w->rewritable));
   w->devices = xe_calloc(w->nk, sizeof(*w->devices));
   w->plain = xe_calloc(w->nk, sizeof(*w->plain));
   w->kernel_of = xe_calloc(w->bound, sizeof(*w->kernel_of));
   w->any_plain = plain && ctx->judge && xe_judge_count_plain(ctx->judge, plain);
   bool any_flag = w->any_plain ||
                   (reach_any && ctx->judge && xe_judge_count_plain(ctx->judge, reach_any));
   w->helper = (xe_function_info){ .rewritable = true, .plain = w->any_plain };
   for (unsigned k = w->nk; k-- > 0;) {
      const char *name = w->ks[k].name;
      w->rewritable[k] = xe_judge_rewritable(ctx, name);
      w->devices[k] = xe_judge_devices(ctx, name);
      w->plain[k] = any_flag ? xe_judge_plain(ctx->judge, name) & (plain | reach_any) : 0;
      w->helper.rewritable &= w->rewritable[k];
      w->helper.devices |= w->devices[k];
      w->helper.plain &= (w->plain[k] & plain) != 0;
      /* Backwards, so that the first kernel's mark stays. */
      xe_function *fs[2] = { w->ks[k].body, w->ks[k].fn };
      for (unsigned e = 0; e < 2; e++) {
         if (fs[e] && xe_function_id(fs[e]) < w->bound)
            w->kernel_of[xe_function_id(fs[e])] = k + 1;
      }
   }
}

/* The reach of every function: one walk per property, from the kernels'
 * entry functions that have it. */
static void reach_kernels(fwalk *w, unsigned plain, unsigned reach_any)
{
   w->reach = xe_calloc(w->bound, 1);
   for (unsigned k = 0; k < w->nk; k++) {
      if (!w->rewritable[k])
         reach_from(w, w->ks[k].fn, REACH_KEPT);
      if (w->any_plain && !(w->plain[k] & plain))
         reach_from(w, w->ks[k].fn, REACH_UNPLAIN);
      for (unsigned p = w->plain[k] & reach_any; p; p &= p - 1) {
         unsigned flag = (unsigned)__builtin_ctz(p);
         reach_from(w, w->ks[k].fn, (uint8_t)(1u << (REACH_FLAGS + flag)));
      }
   }
}

/* f's record (id: its function id). */
static xe_function_info info_of(const fwalk *w, uint32_t id, unsigned plain)
{
   uint32_t k = id < w->bound ? w->kernel_of[id] : 0;
   xe_function_info fi = w->helper;
   if (k--) {
      fi.kernel = &w->ks[k];
      fi.rewritable = w->rewritable[k];
      fi.devices = w->devices[k];
      fi.plain = (w->plain[k] & plain) != 0;
   }
   if (w->reach) {
      uint8_t r = id < w->bound ? w->reach[id] : 0;
      fi.reach_rewritable = !(r & REACH_KEPT);
      fi.reach_plain = w->any_plain && !(r & REACH_UNPLAIN);
      fi.reach_plain_any = (unsigned)r >> REACH_FLAGS;
   }
   return fi;
}

bool xe_for_each_function(xe_ctx *ctx, const xe_function_walk *walk)
{
   fwalk w = { .m = ctx->module, .bound = ctx->module->bound };
   w.ks = xe_kernels_all(w.m, &w.nk);
   judge_kernels(ctx, &w, walk->plain, walk->reach ? walk->reach_any : 0);
   if (walk->reach)
      reach_kernels(&w, walk->plain, walk->reach_any);
   bool progress = false;
   xe_foreach_fn(f, w.m) {
      if (!f->first)
         continue; /* an import */
      xe_function_info fi = info_of(&w, xe_function_id(f), walk->plain);
      if (walk->reach ? fi.reach_rewritable : fi.rewritable)
         progress |= walk->run(ctx, f, &fi, walk->data);
   }
   free(w.reach);
   free(w.kernel_of);
   free(w.plain);
   free(w.devices);
   free(w.rewritable);
   free(w.ks);
   return progress;
}
