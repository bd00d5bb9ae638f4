/*
 * A run's failure: the first one is kept (message and fault kind), later
 * ones are dropped, so that a work-group stops at the error that caused it.
 */
#include <stdio.h>
#include <stdarg.h>
#include "state.h"

bool xe_run_failf(xe_run *r, const dinst *d, const char *fmt, ...)
{
   if (r->failed) return false;
   char msg[384];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof msg, fmt, ap);
   va_end(ap);
   if (!r->fault.kind) { r->fault.kind = XE_FAULT_OTHER; r->fault.arg = ~0u; }
   if (d && d->src && !d->src->result_id && d->src->block)
      snprintf(r->err, sizeof r->err, "kernel %s: %s at %s in block %%%u", r->kernel, msg,
               xe_opcode_name(d->src->opcode), xe_block_id(d->src->block));
   else if (d && d->src)
      snprintf(r->err, sizeof r->err, "kernel %s: %s at %s %%%u", r->kernel, msg,
               xe_opcode_name(d->src->opcode), d->src->result_id);
   else
      snprintf(r->err, sizeof r->err, "kernel %s: %s", r->kernel, msg);
   r->failed = true;
   return false;
}

bool xe_run_fail(xe_run *r, const dinst *d, const char *msg)
{
   return xe_run_failf(r, d, "%s", msg);
}
