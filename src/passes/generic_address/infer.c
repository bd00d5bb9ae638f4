/*
 * generic-address: the inference over one function.  src/address_spaces.c
 * gives the space that reaches each value; the Generic values that one
 * space reaches, and that end in an access or a foldable cast, are chosen
 * for retyping (retype.c), and their uses fixed (casts.c).  Values two
 * spaces reach, or whose space is not traced, stay generic with a remark.
 */
#include <stdlib.h>

#include "generic_address.h"

static int cmp_u32(const void *pa, const void *pb)
{
   uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
   return a < b ? -1 : a > b;
}

/* The ids of a map marked in sel (by index), ascending; *n of them
 * (malloc'd). */
static uint32_t *sorted_ids(const xe_idmap *map, const uint8_t *sel, uint32_t *n)
{
   uint32_t *v = malloc((map->n ? map->n : 1) * sizeof(uint32_t));
   if (!v)
      xe_out_of_memory();
   *n = 0;
   for (uint32_t k = 0; k <= map->mask; k++)
      if (map->keys[k] && sel[map->vals[k]])
         v[(*n)++] = map->keys[k];
   qsort(v, *n, sizeof(uint32_t), cmp_u32);
   return v;
}

/* Remarks on the Generic parameters no one space reaches. */
static void remark_generic_params(ga_fn *s, uint32_t nps, const uint8_t *pconf)
{
   xe_module *m = s->m;
   xe_foreach_inst(p, &s->f->params) {
      if (!p->result_id || !xe_is_generic_ptr_type(m, p->type_id) || ga_specific(xe_as_space(&s->a, p->result_id)))
         continue;
      const char *pn = xe_name(m, p->result_id);
      if (p->result_id < nps && pconf[p->result_id])
         xe_remark(s->r, s->kernel, XE_REMARK_MISSED,
                   "parameter %%%s of %s stays generic: callers pass pointers of different address spaces (more combinations than versions allowed)",
                   pn ? pn : "?", s->fname);
      else
         xe_remark(s->r, s->kernel, XE_REMARK_MISSED,
                   "parameter %%%s of %s stays generic: a caller passes a pointer of unknown space",
                   pn ? pn : "?", s->fname);
   }
}

/* Remarks first, on the accesses that stay generic. */
static void remark_generic_accesses(ga_fn *s)
{
   xe_module *m = s->m;
   xe_foreach_block(b, s->f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpLoad && i->opcode != SpvOpStore)
            continue;
         uint32_t p = xe_op(i, 0);
         xe_inst *d = xe_def(m, p);
         if (!d || !xe_is_generic_ptr_type(m, d->type_id) || p >= s->a.n || ga_specific(xe_as_space(&s->a, p)))
            continue;
         char w[256];
         ga_where(m, s->f, i, w, sizeof w);
         if (xe_as_conflict(&s->a, p))
            xe_remark(s->r, s->kernel, XE_REMARK_MISSED, "%s stays generic: two address spaces reach it", w);
         else
            xe_remark(s->r, s->kernel, XE_REMARK_MISSED,
                      "%s stays generic: its space comes from a parameter, load or call not traced", w);
      }
   }
}

/* Marks the Generic values (and parameters) one space reaches. */
static void mark_one_space(ga_fn *s)
{
   xe_module *m = s->m;
   xe_foreach_block(b, s->f) {
      xe_foreach_inst(i, &b->insts) {
         uint32_t id = i->result_id;
         if (id && id < s->a.n && xe_is_generic_ptr_type(m, i->type_id) && ga_specific(xe_as_space(&s->a, id)) &&
             (ga_retypable(i->opcode) || i->opcode == SpvOpLoad))
            s->retype[ga_loc(s, id)] = 1;
      }
   }
   xe_foreach_inst(p, &s->f->params)
      if (p->result_id && xe_is_generic_ptr_type(m, p->type_id) && ga_specific(xe_as_space(&s->a, p->result_id)))
         s->retype[ga_loc(s, p->result_id)] = 1;
}

/* Does some use of id need it in a specific space (an access, a retyped
 * value, a cast to fold)? */
static bool useful(ga_fn *s, uint32_t id)
{
   uint32_t n;
   const xe_use *us = xe_uses(s->m, id, &n);
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *u = us[k].inst;
      if (!u->block)
         continue;
      if (ga_is_retyped(s, u->result_id))
         return true;
      else if (u->opcode == SpvOpGenericCastToPtrExplicit || u->opcode == SpvOpGenericCastToPtr)
         return true;
      else if (u->opcode != SpvOpConvertPtrToU && ga_use_accepts_specific(&s->a, u, us[k].word, false))
         return true;
   }
   return false;
}

/* Keep only values that end in an access or a foldable cast: retyping a
 * value whose every use wants it Generic again only adds casts. */
static void keep_useful(ga_fn *s)
{
   for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t j = 0; j < s->nids; j++) {
         uint32_t id = s->ids[j];
         if (!s->retype[ga_loc(s, id)])
            continue;
         if (!useful(s, id)) {
            s->retype[ga_loc(s, id)] = 0;
            changed = true;
         }
      }
   }
}

bool ga_run_function(xe_module *m, xe_function *f, const char *kernel, const int *ps,
                     uint32_t nps, const uint8_t *pconf, xe_remarks *r)
{
   ga_fn s = { .m = m, .f = f, .kernel = kernel, .r = r };
   xe_as_analyze(m, f, ps, nps, &s.a);
   uint32_t nl = s.a.ids.n;
   s.retype = calloc(nl ? nl : 1, 1);
   s.orig_type = calloc(nl ? nl : 1, sizeof(uint32_t));
   s.alias = calloc(nl ? nl : 1, sizeof(uint32_t));
   s.fname = xe_name(m, xe_function_id(f)) ? xe_name(m, xe_function_id(f)) : "?";

   remark_generic_params(&s, nps, pconf);
   remark_generic_accesses(&s);
   mark_one_space(&s);
   /* The candidates in increasing id order: the loops over values below
    * visit them so (remarks and the ids of new casts follow that order);
    * marks are only taken away from here on. */
   s.ids = sorted_ids(&s.a.ids, s.retype, &s.nids);
   keep_useful(&s);

   /* Retype, remembering the Generic type for casts back. */
   ga_retype_roots(&s);
   ga_retype_values(&s);
   ga_fix_uses(&s);
   /* Every edit above went through the IR's edit functions, which keep
    * the use lists current and stamp f's analyses stale; only the copies
    * xe_uses handed out need freeing (bumping the module epoch here, as
    * before, dropped every function's CFG once per retyped value). */
   xe_uses_release(m);
   if (s.nretyped) {
      xe_remark(r, kernel, XE_REMARK_APPLIED, "in %s: %u generic pointer values given a specific storage class",
                xe_name(m, xe_function_id(f)) ? xe_name(m, xe_function_id(f)) : "?", s.nretyped);
      s.progress = true;
   }
   free(s.ids);
   free(s.retype);
   free(s.orig_type);
   free(s.alias);
   xe_as_free(&s.a);
   return s.progress;
}
