/*
 * The manifest writer (manifest.h; the format is docs/manifest.md): the
 * passes' incremental document (xe_mf_add) and the inverse of the reader
 * in manifest_read.c, field for field, so a round trip compares equal
 * (tests/test_manifest.c) and a field the reader drops cannot go
 * unnoticed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "manifest.h"

static void *need(void *p)
{
   if (!p)
      abort();
   return p;
}

/* ---- the kernel index (manifest.h) ---- */

struct xe_mf_index {
   const cJSON *kernels;   /* the "kernels" object indexed */
   const cJSON *tail;      /* its last member when last synchronised */
   cJSON **slot;           /* open addressing, linear probing; NULL = empty */
   size_t mask;            /* capacity - 1, capacity a power of two */
   size_t n;               /* members indexed; at most half the capacity */
};

static uint64_t name_hash(const char *s)
{
   uint64_t h = 14695981039346656037u;   /* FNV-1a */
   for (; *s; s++)
      h = (h ^ (unsigned char)*s) * 1099511628211u;
   return h;
}

static void index_put(xe_mf_index *ix, cJSON *k)
{
   if (2 * (ix->n + 1) > ix->mask + 1) {
      size_t cap = 2 * (ix->mask + 1);
      cJSON **old = ix->slot;
      size_t old_cap = ix->mask + 1;
      ix->slot = need(calloc(cap, sizeof(*ix->slot)));
      ix->mask = cap - 1;
      ix->n = 0;
      for (size_t s = 0; s < old_cap; s++)
         if (old[s])
            index_put(ix, old[s]);
      free(old);
   }
   size_t s = name_hash(k->string) & ix->mask;
   while (ix->slot[s])
      s = (s + 1) & ix->mask;
   ix->slot[s] = k;
   ix->n++;
}

/* Makes *index describe kernels: kept when it already does, rebuilt from
 * the document otherwise (first use, another document, or members added
 * without the index: the last member is not the one it saw last). */
static xe_mf_index *index_sync(xe_mf_index **index, const cJSON *kernels)
{
   xe_mf_index *ix = *index;
   const cJSON *tail = kernels->child ? kernels->child->prev : NULL;
   if (ix && ix->kernels == kernels && ix->tail == tail)
      return ix;
   if (!ix) {
      ix = *index = need(calloc(1, sizeof(*ix)));
      ix->slot = need(calloc(16, sizeof(*ix->slot)));
      ix->mask = 15;
   }
   memset(ix->slot, 0, (ix->mask + 1) * sizeof(*ix->slot));
   ix->n = 0;
   ix->kernels = kernels;
   ix->tail = tail;
   for (cJSON *k = kernels->child; k; k = k->next)
      if (k->string)
         index_put(ix, k);
   return ix;
}

static cJSON *index_find(const xe_mf_index *ix, const char *kernel)
{
   for (size_t s = name_hash(kernel) & ix->mask; ix->slot[s]; s = (s + 1) & ix->mask)
      if (!strcmp(ix->slot[s]->string, kernel))
         return ix->slot[s];
   return NULL;
}

void xe_mf_index_free(xe_mf_index *index)
{
   if (!index)
      return;
   free(index->slot);
   free(index);
}

cJSON *xe_mf_kernel_json(cJSON **root, xe_mf_index **index, const char *kernel)
{
   if (!*root) {
      *root = need(cJSON_CreateObject());
      need(cJSON_AddNumberToObject(*root, "xeopt_manifest", XE_MANIFEST_VERSION));
      need(cJSON_AddObjectToObject(*root, "kernels"));
   }
   cJSON *kernels = cJSON_GetObjectItemCaseSensitive(*root, "kernels");
   if (index && kernels) {
      xe_mf_index *ix = index_sync(index, kernels);
      cJSON *k = index_find(ix, kernel);
      if (!k) {
         k = need(cJSON_AddObjectToObject(kernels, kernel));
         index_put(ix, k);
         ix->tail = k;
      }
      return k;
   }
   /* Without an index: passes go kernel by kernel, so the kernel asked for
    * is often the last one added; try it before cJSON's linear search.
    * Keys are unique (kernels are only added after a failed search), so a
    * matching last key is the one the search would find. */
   cJSON *tail = kernels && kernels->child ? kernels->child->prev : NULL;
   cJSON *k = tail && !tail->next && tail->string && !strcmp(tail->string, kernel)
                 ? tail : cJSON_GetObjectItemCaseSensitive(kernels, kernel);
   return k ? k : need(cJSON_AddObjectToObject(kernels, kernel));
}

void xe_mf_add(cJSON **root, xe_mf_index **index, const char *kernel, const char *section,
               cJSON *entry)
{
   cJSON *k = xe_mf_kernel_json(root, index, kernel);
   cJSON *arr = cJSON_GetObjectItemCaseSensitive(k, section);
   if (!arr)
      arr = need(cJSON_AddArrayToObject(k, section));
   if (!cJSON_AddItemToArray(arr, entry))
      abort();
}

/* The writer below builds with the cJSON_Add* functions, which return NULL
 * when out of memory; `ok` collects that so one check at the end frees a
 * partial document. */
typedef struct wr {
   bool ok;
} wr;

static void w_str(wr *w, cJSON *o, const char *key, const char *s)
{
   if (s)
      w->ok &= cJSON_AddStringToObject(o, key, s) != NULL;
}

static void w_num(wr *w, cJSON *o, const char *key, double v)
{
   w->ok &= cJSON_AddNumberToObject(o, key, v) != NULL;
}

static void w_bool(wr *w, cJSON *o, const char *key, bool v)
{
   w->ok &= cJSON_AddBoolToObject(o, key, v) != NULL;
}

static cJSON *w_obj(wr *w, cJSON *arr)
{
   cJSON *o = cJSON_CreateObject();
   if (!o || !cJSON_AddItemToArray(arr, o)) {
      cJSON_Delete(o);
      w->ok = false;
      return NULL;
   }
   return o;
}

static cJSON *formula_json(wr *w, const xe_mf_formula *f)
{
   static const char *names[] = { NULL, "global_size", "global_offset", "local_size" };
   cJSON *o = cJSON_CreateObject();
   if (!o) {
      w->ok = false;
      return NULL;
   }
   w_str(w, o, "text", f->text);
   if (f->nmax) {
      cJSON *arr = cJSON_AddArrayToObject(o, "max_of");
      w->ok &= arr != NULL;
      for (unsigned k = 0; arr && k < f->nmax; k++) {
         cJSON *alt = formula_json(w, &f->max_of[k]);
         if (alt && !cJSON_AddItemToArray(arr, alt)) {
            cJSON_Delete(alt);
            w->ok = false;
         }
      }
      return o;
   }
   cJSON *arr = cJSON_AddArrayToObject(o, "terms");
   w->ok &= arr != NULL;
   for (unsigned k = 0; arr && k < f->nterms; k++) {
      const xe_mf_term *t = &f->terms[k];
      cJSON *e = w_obj(w, arr);
      if (!e)
         break;
      w_num(w, e, "coeff", (double)t->coeff);
      if (t->arg >= 0)
         w_num(w, e, "arg", t->arg);
      if (t->launch != XE_MF_Q_ONE) {
         w_str(w, e, "launch", names[t->launch]);
         w_num(w, e, "dim", t->dim);
      }
   }
   return o;
}

cJSON *xe_mf_formula_json(const xe_mf_formula *f)
{
   wr w = { true };
   cJSON *o = formula_json(&w, f);
   if (!w.ok) {
      cJSON_Delete(o);
      return NULL;
   }
   return o;
}

static void padding_json(wr *w, cJSON *e, const xe_mf_padding *p)
{
   if (p->kind == XE_MF_GUARD) {
      w_str(w, e, "kind", "guard");
      w_str(w, e, "condition", p->condition);
      w_str(w, e, "proof", p->proof);
      w_str(w, e, "narrowed", p->narrowed);
      w_str(w, e, "file", p->file);
      if (p->line)
         w_num(w, e, "line", p->line);
      return;
   }
   w_str(w, e, "kind", "buffer");
   w_num(w, e, "arg", p->arg);
   w_str(w, e, "name", p->name);
   w_num(w, e, "element_size", p->element_size);
   cJSON *f = formula_json(w, &p->min_elements);
   if (f && !cJSON_AddItemToObject(e, "min_elements", f)) {
      cJSON_Delete(f);
      w->ok = false;
   }
   w_bool(w, e, "zero_fill", p->zero_fill);
   w_bool(w, e, "distinct_allocation", p->distinct_allocation);
   cJSON *req = cJSON_AddObjectToObject(e, "requires");
   cJSON *nn = req ? cJSON_AddArrayToObject(req, "nonnegative_args") : NULL;
   w->ok &= nn != NULL;
   for (unsigned k = 0; nn && k < p->nnonnegative; k++)
      w->ok &= cJSON_AddItemToArray(nn, cJSON_CreateNumber(p->nonnegative_args[k]));
   if (req && p->has_max_elements)
      w_num(w, req, "max_elements", (double)p->max_elements);
}

static void spec_constant_json(wr *w, cJSON *e, const xe_mf_spec_constant *s)
{
   char buf[32];
   snprintf(buf, sizeof buf, "%lld", (long long)s->value_default);
   w_str(w, e, "argument", s->argument);
   w_num(w, e, "index", s->index);
   w_str(w, e, "type", s->type);
   w_num(w, e, "size", s->size);
   w_num(w, e, "flag_spec_id", s->flag_spec_id);
   w_num(w, e, "value_spec_id", s->value_spec_id);
   w_bool(w, e, "flag_default", s->flag_default);
   w_str(w, e, "value_default", buf);
   w_num(w, e, "loops", s->loops);
   w_str(w, e, "guarantee", s->guarantee);
}

static void requirement_json(wr *w, cJSON *e, const xe_mf_requirement *q)
{
   static const char *names[] = {
      [XE_MF_UNIFORM_WORK_GROUPS] = "uniform_work_groups",
      [XE_MF_SUBGROUP_SIZE] = "subgroup_size",
      [XE_MF_LOCAL_SIZE] = "local_size",
      [XE_MF_ARGUMENT_ALIGNMENT] = "argument_alignment",
      [XE_MF_GLOBAL_OFFSET] = "global_offset",
   };
   w_str(w, e, "pass", q->pass);
   w_str(w, e, "requirement", names[q->kind]);
   switch (q->kind) {
   case XE_MF_UNIFORM_WORK_GROUPS:
      w_str(w, e, "text", q->text);
      break;
   case XE_MF_SUBGROUP_SIZE:
      w_num(w, e, "value", q->value[0]);
      break;
   case XE_MF_LOCAL_SIZE: {
      const int v[3] = { (int)q->value[0], (int)q->value[1], (int)q->value[2] };
      cJSON *a = cJSON_CreateIntArray(v, 3);
      if (!a || !cJSON_AddItemToObject(e, "value", a)) {
         cJSON_Delete(a);
         w->ok = false;
      }
      break;
   }
   case XE_MF_ARGUMENT_ALIGNMENT:
      w_num(w, e, "argument", q->argument);
      w_str(w, e, "name", q->name);
      w_num(w, e, "bytes", q->bytes);
      break;
   case XE_MF_GLOBAL_OFFSET:
      w_num(w, e, "dimension", q->dimension);
      w_num(w, e, "multiple_of", (double)q->multiple_of);
      break;
   }
   w_str(w, e, "origin", q->origin);
}

/* ---- the typed adders (manifest.h) ---- */

typedef void render_fn(wr *w, cJSON *e, const void *record);

static void add_rendered(cJSON **root, xe_mf_index **index, const char *kernel,
                         const char *section, render_fn *render, const void *record)
{
   wr w = { true };
   cJSON *e = need(cJSON_CreateObject());
   render(&w, e, record);
   if (!w.ok)
      abort();
   xe_mf_add(root, index, kernel, section, e);
}

static void render_padding(wr *w, cJSON *e, const void *p)
{
   padding_json(w, e, p);
}

static void render_spec_constant(wr *w, cJSON *e, const void *s)
{
   spec_constant_json(w, e, s);
}

static void render_requirement(wr *w, cJSON *e, const void *q)
{
   requirement_json(w, e, q);
}

void xe_mf_add_padding(cJSON **root, xe_mf_index **index, const char *kernel,
                       const xe_mf_padding *p)
{
   add_rendered(root, index, kernel, "padding", render_padding, p);
}

void xe_mf_add_spec_constant(cJSON **root, xe_mf_index **index, const char *kernel,
                             const xe_mf_spec_constant *s)
{
   add_rendered(root, index, kernel, "spec_constants", render_spec_constant, s);
}

void xe_mf_add_requirement(cJSON **root, xe_mf_index **index, const char *kernel,
                           const xe_mf_requirement *q)
{
   bool launch = q->kind == XE_MF_UNIFORM_WORK_GROUPS || q->kind == XE_MF_SUBGROUP_SIZE ||
                 q->kind == XE_MF_LOCAL_SIZE;
   add_rendered(root, index, kernel, launch ? "launch" : "alignment", render_requirement, q);
}

cJSON *xe_mf_write(const xe_mf *m)
{
   wr w = { true };
   cJSON *root = cJSON_CreateObject();
   if (!root)
      return NULL;
   w_num(&w, root, "xeopt_manifest", XE_MANIFEST_VERSION);
   cJSON *kernels = cJSON_AddObjectToObject(root, "kernels");
   w.ok &= kernels != NULL;
   for (unsigned k = 0; w.ok && k < m->nkernels; k++) {
      const xe_mf_kernel *x = &m->kernels[k];
      cJSON *ko = cJSON_AddObjectToObject(kernels, x->name);
      w.ok &= ko != NULL;
      if (!ko)
         break;
      cJSON *arr;
      if (x->npadding && (arr = cJSON_AddArrayToObject(ko, "padding")))
         for (unsigned e = 0; e < x->npadding; e++) {
            cJSON *o = w_obj(&w, arr);
            if (o)
               padding_json(&w, o, &x->padding[e]);
         }
      if (x->nspec_constants && (arr = cJSON_AddArrayToObject(ko, "spec_constants")))
         for (unsigned e = 0; e < x->nspec_constants; e++) {
            cJSON *o = w_obj(&w, arr);
            if (o)
               spec_constant_json(&w, o, &x->spec_constants[e]);
         }
      if (x->nlaunch && (arr = cJSON_AddArrayToObject(ko, "launch")))
         for (unsigned e = 0; e < x->nlaunch; e++) {
            cJSON *o = w_obj(&w, arr);
            if (o)
               requirement_json(&w, o, &x->launch[e]);
         }
      if (x->nalignment && (arr = cJSON_AddArrayToObject(ko, "alignment")))
         for (unsigned e = 0; e < x->nalignment; e++) {
            cJSON *o = w_obj(&w, arr);
            if (o)
               requirement_json(&w, o, &x->alignment[e]);
         }
      for (unsigned e = 0; e < x->nother; e++) {
         cJSON *copy = cJSON_Duplicate(x->other[e].entries, true);
         if (!copy || !cJSON_AddItemToObject(ko, x->other[e].name, copy)) {
            cJSON_Delete(copy);
            w.ok = false;
         }
      }
   }
   w_str(&w, root, "module", m->module);
   if (!w.ok) {
      cJSON_Delete(root);
      return NULL;
   }
   return root;
}
