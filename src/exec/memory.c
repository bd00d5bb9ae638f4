/*
 * A work-item's memory accesses: a tagged pointer (internal.h) resolved to
 * the bytes of its buffer, local memory, private variable or program-scope
 * variable, with the bounds check, the measuring runs' reach and the race
 * detection every access goes through.
 */
#include <stdlib.h>
#include "memory.h"
#include "race.h"

uint8_t *xe_run_mem(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, bool write)
{
   return xe_run_mem_ex(r, w, d, ptr, n, write ? XE_MEM_WRITE : 0, NULL);
}

uint8_t *xe_run_mem_ex(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, unsigned flags,
                       const uint8_t *val)
{
   bool write = flags & XE_MEM_WRITE;
   uint8_t *base = NULL;
   uint64_t size = 0, off = PTR_OFF(ptr);
   unsigned buf = PTR_BUF(ptr);
   switch (PTR_SP(ptr)) {
   case SP_GLOBAL:
      if (buf < r->l->nargs && (r->l->args[buf].kind == XE_ARG_BUFFER ||
                                r->l->args[buf].kind == XE_ARG_IMAGE)) {
         base = r->l->args[buf].data;
         size = r->l->args[buf].size;
         if (off < r->l->args[buf].start) size = 0;
      }
      break;
   case SP_LOCAL:
      if (buf == 0) { base = r->local_mem; size = r->p->lsize; }
      else if (buf - 1 < r->l->nargs && r->local_args[buf - 1]) {
         base = r->local_args[buf - 1];
         size = r->l->args[buf - 1].size;
      }
      break;
   case SP_PRIVATE:
      if (w && buf == 0) { base = w->priv; size = r->p->psize; }
      else if (w && buf - 1 < r->p->nvars) {
         /* Within the variable: below its start counts as past the end. */
         base = w->priv;
         size = r->p->var_off[buf - 1] + r->p->var_size[buf - 1];
         if (off < r->p->var_off[buf - 1]) size = 0;
      }
      break;
   case SP_PROGRAM:
      if (!write) { base = r->p->program; size = r->p->prog_size; }
      break;
   default: break;
   }
   if (!base && PTR_SP(ptr) != SP_GLOBAL && PTR_SP(ptr) != SP_LOCAL) {
      xe_run_failf(r, d, "%s of %llu bytes through an invalid pointer 0x%llx",
                   write ? "store" : "load", (unsigned long long)n, (unsigned long long)ptr);
      return NULL;
   }
   if (!base || off + n > size || off + n < off) {
      unsigned arg = !base ? ~0u : PTR_SP(ptr) == SP_GLOBAL ? buf
                     : PTR_SP(ptr) == SP_LOCAL && buf ? buf - 1 : ~0u;
      if (r->l->measure && arg < r->l->nargs && off + n > off && off + n < (1ull << 36) &&
          off >= r->l->args[arg].start) {
         /* Past the end, in a measuring run: record how far. */
         if (off + n > r->reach[arg]) r->reach[arg] = off + n;
         unsigned s = r->scratch_next++ & 1;
         if (r->scratch_size[s] < n) {
            free(r->scratch[s]);
            r->scratch[s] = malloc(n);
            r->scratch_size[s] = n;
         }
         memset(r->scratch[s], 0, n);
         return r->scratch[s];
      }
      if (!r->failed) {
         r->fault.kind = XE_FAULT_BOUNDS;
         r->fault.arg = arg;
         r->fault.local_memory = PTR_SP(ptr) == SP_LOCAL;
         r->fault.end = base && off + n > off && size ? off + n : 0;
      }
      static const char *sp[] = {"null", "global", "local", "private", "program"};
      xe_run_failf(r, d, "out-of-bounds %s of %llu bytes at %s buffer %u offset %llu (size %llu)",
                   write ? "store" : "load", (unsigned long long)n, sp[PTR_SP(ptr) & 7], buf,
                   (unsigned long long)off, (unsigned long long)size);
      return NULL;
   }
   if (r->race && w && !(flags & XE_MEM_UNTRACKED))
      xe_race_access(r, w, d, ptr, base + off, n, write, flags & XE_MEM_ATOMIC, val);
   return base + off;
}
