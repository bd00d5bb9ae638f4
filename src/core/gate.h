/*
 * The cost gate (issue 48): the one place a rewriting pass asks the cost
 * model whether a candidate pays, under the judge's devices for the
 * kernel, and gets a verdict it can act on and put in its remark.  The
 * rules are cost.h's (XE_COST_TIE, XE_COST_MIN_GAIN); the wording of the
 * remark stays the pass's.
 */
#ifndef XEOPT_GATE_H
#define XEOPT_GATE_H

#include "cost.h"
#include "pass.h"

/* What a candidate must show besides not being slower on any device. */
enum xe_gate_rule {
   XE_GATE_NOT_SLOWER,           /* nothing more */
   XE_GATE_CLEAR_EVERYWHERE,     /* a clear gain, or no move, on every device
                                  * (xe_cost_clear_gain) */
   XE_GATE_CLEAR_SOMEWHERE_OR_UNMOVED, /* a clear gain on one device, or no move
                                        * anywhere (xe_cost_some_clear_gain) */
   XE_GATE_CLEAR_SOMEWHERE,      /* a clear gain on one device (xe_cost_any_clear_gain) */
};

enum xe_gate_verdict {
   XE_GATE_MADE,     /* the rewrite pays (or no device is judged: --target=none) */
   XE_GATE_SLOWER,   /* slower on device worst */
   XE_GATE_THIN,     /* not slower, but the gain is under the rule's */
};

typedef struct xe_gate {
   unsigned devs;                                /* the judge's devices, a bit each */
   double before[XE_DEV_COUNT], after[XE_DEV_COUNT]; /* cycles, per device of devs */
   enum xe_device worst;   /* SLOWER: the first slower device; THIN under
                            * XE_GATE_CLEAR_EVERYWHERE: the first thin one; else XE_DEV_DG2 */
   enum xe_gate_verdict verdict;
   char est[160];          /* "dg2 120 -> 96, pvc/bmg 80 -> 85" (xe_cost_format) */
} xe_gate;

/* Asks the model about change ch to the kernel whose entry function is
 * kfn (named kernel, for the judge's devices) under rule; fills g (est
 * only when the verdict is not XE_GATE_MADE) and returns its verdict. */
enum xe_gate_verdict xe_gate_ask(const xe_ctx *ctx, const char *kernel, xe_function *kfn,
                                 const xe_cost_change *ch, enum xe_gate_rule rule, xe_gate *g);

/* Writes a missed remark for kernel saying why the candidate g judged is
 * not made: the message from fmt (the pass's wording, g->est in it), the
 * decision XE_DECISION_COST_SLOWER or XE_DECISION_COST_THIN after
 * g->verdict, and g's estimates per device judged as its figures.  g's
 * verdict must not be XE_GATE_MADE.  Returns the entry (valid until the
 * next remark), NULL when ctx has no remarks. */
xe_remark_entry *xe_gate_remark(const xe_ctx *ctx, const char *kernel, const xe_gate *g,
                                const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Adds g's estimates to e as figures, one per device judged, in whole
 * cycles as g->est prints them (e may be NULL). */
void xe_gate_figures(xe_remark_entry *e, const xe_gate *g);

#endif
