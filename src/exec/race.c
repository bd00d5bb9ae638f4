/*
 * Data-race detection (xe_launch.racecheck; `xeopt run --racecheck`, and
 * both modules under --verify).  Two accesses to one byte of global
 * (CrossWorkgroup) or local (Workgroup) memory race when they come from
 * different work-items, at least one is a write, they are not both atomic,
 * and nothing orders them: a work-group barrier whose memory semantics name
 * the byte's storage class (WorkgroupMemory for local, CrossWorkgroupMemory
 * for global, as OpenCL's fence flags), or a sub-group barrier of their
 * sub-group with such semantics.  Work-groups are never ordered with each
 * other within a launch.  This is the rule Oclgrind's --data-races and
 * CUDA's racecheck apply.
 *
 * Why a per-byte "last write plus two readers" state is enough.  The
 * interpreter runs the launch in one fixed order, so every access is
 * checked against earlier ones only.  Happens-before here (same work-item,
 * or same group with a barrier in between) is transitive, so, as in
 * FastTrack, a new access need only be checked against the last write:
 * if that write is ordered before it, so is every earlier write (unless
 * the pair was atomic, the one approximation: an atomic write replaced by
 * a concurrent atomic write is forgotten).  Reads are kept until the next
 * write, at most two: a reader ordered before a new reader is dropped
 * (anything the new one is ordered before, it is too), and of two
 * concurrent readers one from another work-group is kept first, since it
 * races with every later write; two distinct concurrent readers guarantee
 * that one differs from any later writer.
 *
 * Ordering uses stamps from one launch-wide clock.  Each access records the
 * stamp of its sub-group for its storage class; a barrier gives the
 * sub-group (or every sub-group of the group) a fresh stamp.  An earlier
 * access of the same group is ordered before the current one when its
 * stamp is older than the group's last barrier stamp, or, in the same
 * sub-group, older than the sub-group's stamp.  Local memory is fresh for
 * each work-group, so a local access from another group is treated as
 * absent.
 *
 * Shadow memory is allocated only when checking is on, in pages of 256
 * bytes created on first touch, so a large buffer that a kernel touches
 * sparsely costs little.
 */
#include <stdio.h>
#include <stdlib.h>
#include "race.h"

#define PAGE 256
#define ATOMIC_BIT 0x80000000u
#define MAX_PAIRS 1024

typedef struct acc {
   uint32_t wi;      /* launch-linear work-item id + 1; 0 = no access */
   uint32_t pc;      /* decoded instruction; ATOMIC_BIT for atomics */
   uint32_t stamp;
} acc;

typedef struct cell {
   acc w, r[2];
} cell;

typedef struct shadow {
   uint64_t size;
   cell **pages;
} shadow;

struct xe_race {
   shadow global[XE_EXEC_MAX_ARGS];
   shadow local[XE_EXEC_MAX_ARGS + 1];   /* 0: Workgroup variables, a + 1: argument a */
   uint32_t clock;
   uint32_t group;                       /* linear index of the running group */
   uint32_t bar[2];                      /* [space] last barrier stamp of the group */
   uint32_t *sg_stamp[2];                /* [space][sub-group] */
   uint64_t nsg;
   struct { uint32_t a, b; } seen[MAX_PAIRS];
   unsigned nseen;
};

enum { SPACE_GLOBAL, SPACE_LOCAL };

bool xe_race_begin(xe_run *r)
{
   uint64_t ls = r->local[0] * r->local[1] * r->local[2];
   /* Ids count whole enqueued groups (ls_of). */
   uint64_t total = 1;
   for (int d = 0; d < 3; d++)
      total *= (r->l->global[d] + r->enq_local[d] - 1) / r->enq_local[d] * r->enq_local[d];
   if (total >= 0xfffffff0ull)
      return xe_run_fail(r, NULL, "--racecheck supports launches of fewer than 2^32 work-items");
   xe_race *rc = calloc(1, sizeof *rc);
   rc->nsg = (ls + r->sg - 1) / r->sg;
   for (int s = 0; s < 2; s++) rc->sg_stamp[s] = calloc(rc->nsg, sizeof(uint32_t));
   for (unsigned a = 0; a < r->l->nargs && a < XE_EXEC_MAX_ARGS; a++) {
      if (r->l->args[a].kind == XE_ARG_BUFFER || r->l->args[a].kind == XE_ARG_IMAGE)
         rc->global[a].size = r->l->args[a].size;
      if (r->l->args[a].kind == XE_ARG_LOCAL) rc->local[a + 1].size = r->l->args[a].size;
   }
   rc->local[0].size = r->p->lsize;
   r->race = rc;
   return true;
}

static void shadow_free(shadow *s)
{
   if (!s->pages) return;
   for (uint64_t k = 0; k < (s->size + PAGE - 1) / PAGE; k++) free(s->pages[k]);
   free(s->pages);
}

void xe_race_end(xe_run *r)
{
   xe_race *rc = r->race;
   if (!rc) return;
   for (unsigned a = 0; a < XE_EXEC_MAX_ARGS; a++) shadow_free(&rc->global[a]);
   for (unsigned a = 0; a <= XE_EXEC_MAX_ARGS; a++) shadow_free(&rc->local[a]);
   free(rc->sg_stamp[0]);
   free(rc->sg_stamp[1]);
   free(rc);
   r->race = NULL;
}

static void stamp_all(xe_race *rc, int space)
{
   rc->bar[space] = ++rc->clock;
   for (uint64_t s = 0; s < rc->nsg; s++) rc->sg_stamp[space][s] = rc->clock;
}

void xe_race_group(xe_run *r, uint64_t group)
{
   r->race->group = (uint32_t)group;
   stamp_all(r->race, SPACE_GLOBAL);
   stamp_all(r->race, SPACE_LOCAL);
}

void xe_race_barrier(xe_run *r, int64_t subgroup, uint32_t semantics)
{
   xe_race *rc = r->race;
   for (int space = 0; space < 2; space++) {
      uint32_t bit = space == SPACE_GLOBAL ? SpvMemorySemanticsCrossWorkgroupMemoryMask
                                           : SpvMemorySemanticsWorkgroupMemoryMask;
      if (!(semantics & bit)) continue;
      if (subgroup < 0) stamp_all(rc, space);
      else if ((uint64_t)subgroup < rc->nsg) rc->sg_stamp[space][subgroup] = ++rc->clock;
   }
}

static cell *page_at(shadow *s, uint64_t off)
{
   if (!s->pages) s->pages = calloc((s->size + PAGE - 1) / PAGE + 1, sizeof(cell *));
   cell **pg = &s->pages[off / PAGE];
   if (!*pg) *pg = calloc(PAGE, sizeof(cell));
   return *pg;
}

/* Work-item ids are group_linear * (enqueued local size) + linear local id
 * (run.c init_wi), so that partial work-groups do not reuse ids. */
static inline uint64_t ls_of(const xe_run *r)
{
   return r->enq_local[0] * r->enq_local[1] * r->enq_local[2];
}
static inline uint32_t group_of(const xe_run *r, uint32_t wi) { return (uint32_t)((wi - 1) / ls_of(r)); }
static inline uint64_t sg_of(const xe_run *r, uint32_t wi) { return ((wi - 1) % ls_of(r)) / r->sg; }

/* Whether the earlier access a is ordered before the current access x. */
static bool ordered(const xe_run *r, int space, const acc *a, const acc *x)
{
   const xe_race *rc = r->race;
   if (a->wi == x->wi) return true;
   if (group_of(r, a->wi) != group_of(r, x->wi)) return false;
   if (a->stamp < rc->bar[space]) return true;
   uint64_t s = sg_of(r, x->wi);
   return sg_of(r, a->wi) == s && a->stamp < rc->sg_stamp[space][s];
}

static bool conflict(const xe_run *r, int space, const acc *a, const acc *x)
{
   if (!a->wi) return false;
   if ((a->pc & ATOMIC_BIT) && (x->pc & ATOMIC_BIT)) return false;
   return !ordered(r, space, a, x);
}

static void describe_inst(const xe_run *r, uint32_t pc, char *buf, size_t n)
{
   const dinst *d = &r->p->code[pc & ~ATOMIC_BIT];
   if (d->src && !d->src->result_id && d->src->block)
      snprintf(buf, n, "%s in block %%%u", xe_opcode_name(d->src->opcode), xe_block_id(d->src->block));
   else if (d->src)
      snprintf(buf, n, "%s %%%u", xe_opcode_name(d->src->opcode), d->src->result_id);
   else
      snprintf(buf, n, "instruction %u", pc & ~ATOMIC_BIT);
}

static void describe_wi(const xe_run *r, uint32_t wi, char *buf, size_t n)
{
   const xe_launch *l = r->l;
   const uint64_t *enq = r->enq_local;
   uint64_t id = wi - 1, ls = ls_of(r), g = id / ls, lin = id % ls;
   uint64_t ng0 = (l->global[0] + enq[0] - 1) / enq[0], ng1 = (l->global[1] + enq[1] - 1) / enq[1];
   uint64_t grp[3] = {g % ng0, (g / ng0) % ng1, g / (ng0 * ng1)};
   uint64_t loc[3];   /* this group's actual local size (partial at the end) */
   for (int k = 0; k < 3; k++) {
      uint64_t left = l->global[k] - grp[k] * enq[k];
      loc[k] = left < enq[k] ? left : enq[k];
   }
   uint64_t lid[3] = {lin % loc[0], (lin / loc[0]) % loc[1], lin / (loc[0] * loc[1])};
   uint64_t gid[3];
   for (int k = 0; k < 3; k++) gid[k] = grp[k] * enq[k] + lid[k] + l->offset[k];
   snprintf(buf, n, "(%llu,%llu,%llu)", (unsigned long long)gid[0], (unsigned long long)gid[1],
            (unsigned long long)gid[2]);
}

static void report(xe_run *r, uint64_t ptr, uint64_t off, const acc *a, const acc *x, bool a_write,
                   bool x_write)
{
   xe_race *rc = r->race;
   xe_launch *l = (xe_launch *)r->l;
   uint32_t pa = a->pc & ~ATOMIC_BIT, px = x->pc & ~ATOMIC_BIT;
   for (unsigned k = 0; k < rc->nseen; k++)
      if (rc->seen[k].a == pa && rc->seen[k].b == px) return;
   l->races++;
   if (rc->nseen == MAX_PAIRS) return;
   rc->seen[rc->nseen].a = pa;
   rc->seen[rc->nseen++].b = px;
   char where[96], ia[96], ix[96], wa[64], wx[64], line[sizeof l->race];
   unsigned buf = PTR_BUF(ptr);
   if (PTR_SP(ptr) == SP_GLOBAL)
      snprintf(where, sizeof where, "argument %u byte %llu", buf, (unsigned long long)off);
   else if (buf == 0)
      snprintf(where, sizeof where, "local memory (Workgroup variables) byte %llu", (unsigned long long)off);
   else
      snprintf(where, sizeof where, "local argument %u byte %llu", buf - 1, (unsigned long long)off);
   describe_inst(r, a->pc, ia, sizeof ia);
   describe_inst(r, x->pc, ix, sizeof ix);
   describe_wi(r, a->wi, wa, sizeof wa);
   describe_wi(r, x->wi, wx, sizeof wx);
   snprintf(line, sizeof line, "kernel %s: data race (%s-%s) at %s: %s%s by work-item %s and %s%s by work-item %s",
            r->kernel, a_write ? "write" : "read", x_write ? "write" : "read", where,
            a->pc & ATOMIC_BIT ? "atomic " : "", ia, wa, x->pc & ATOMIC_BIT ? "atomic " : "", ix, wx);
   if (l->races == 1) memcpy(l->race, line, sizeof line);
   if (l->race_log) fprintf(l->race_log, "%s\n", line);
}

void xe_race_access(xe_run *r, const xe_wi *w, const dinst *d, uint64_t ptr, const uint8_t *mem, uint64_t n, bool write,
                    bool atomic, const uint8_t *val)
{
   xe_race *rc = r->race;
   shadow *sh;
   int space;
   unsigned buf = PTR_BUF(ptr);
   if (PTR_SP(ptr) == SP_GLOBAL && buf < XE_EXEC_MAX_ARGS) { sh = &rc->global[buf]; space = SPACE_GLOBAL; }
   else if (PTR_SP(ptr) == SP_LOCAL && buf <= XE_EXEC_MAX_ARGS) { sh = &rc->local[buf]; space = SPACE_LOCAL; }
   else return;
   acc x = {w->id + 1, (uint32_t)(d - r->p->code) | (atomic ? ATOMIC_BIT : 0),
            rc->sg_stamp[space][w->lin / r->sg]};
   bool reported = false;
   cell *page = NULL;
   for (uint64_t off = PTR_OFF(ptr), end = off + n; off < end && off < sh->size; off++) {
      if (!page || off % PAGE == 0) page = page_at(sh, off);
      cell *c = &page[off % PAGE];
      if (space == SPACE_LOCAL) {
         /* Another work-group's local memory: not this one's. */
         if (c->w.wi && group_of(r, c->w.wi) != rc->group) c->w.wi = 0;
         for (int k = 0; k < 2; k++)
            if (c->r[k].wi && group_of(r, c->r[k].wi) != rc->group) c->r[k].wi = 0;
      }
      /* A write of the byte already there is order-independent (Oclgrind
       * suppresses these "uniform" write-write races by default too):
       * e.g. every work-item of a group copying the same row. */
      bool same = write && val && c->w.wi && val[off - PTR_OFF(ptr)] == mem[off - PTR_OFF(ptr)];
      if (!reported && !same && conflict(r, space, &c->w, &x)) {
         report(r, ptr, off, &c->w, &x, true, write);
         reported = true;
      }
      if (write) {
         for (int k = 0; k < 2 && !reported; k++)
            if (conflict(r, space, &c->r[k], &x)) {
               report(r, ptr, off, &c->r[k], &x, false, true);
               reported = true;
            }
         c->w = x;
         c->r[0].wi = c->r[1].wi = 0;
         continue;
      }
      /* A read: replace a reader this one is ordered after, else keep a
       * reader from another group (it races with every later write). */
      int slot;
      if (!c->r[0].wi || ordered(r, space, &c->r[0], &x)) slot = 0;
      else if (!c->r[1].wi || ordered(r, space, &c->r[1], &x)) slot = 1;
      else slot = group_of(r, c->r[0].wi) != rc->group ? 1 : 0;
      c->r[slot] = x;
   }
}
