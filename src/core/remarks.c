#define _GNU_SOURCE
/*
 * Remarks (what each pass did, and why it skipped each candidate) and the
 * manifest entries that record host-contract changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "manifest.h"
#include "pass.h"

/* A chunk of the remarks' text (pass.h): strings packed one after
 * another, never freed alone. */
struct xe_remark_text {
   xe_remark_text *next;    /* the chunks filled before */
   size_t used, cap;
   char bytes[];
};

#define TEXT_CHUNK ((size_t)64 << 10)

/* n bytes of r's text.  A string of more than a quarter chunk gets a chunk
 * of its own, behind the one being filled, so it does not cut that short. */
static char *text_alloc(xe_remarks *r, size_t n)
{
   xe_remark_text *t = r->text;
   if (t && t->cap - t->used >= n) {
      t->used += n;
      return t->bytes + t->used - n;
   }
   size_t cap = n > TEXT_CHUNK / 4 ? n : TEXT_CHUNK;
   xe_remark_text *c = malloc(sizeof(*c) + cap);
   if (!c)
      xe_out_of_memory();
   *c = (xe_remark_text){ .used = n, .cap = cap };
   if (t && cap == n) {
      c->next = t->next;
      t->next = c;
   } else {
      c->next = t;
      r->text = c;
   }
   return c->bytes;
}

/* fmt and ap formatted into r's text (in place when the chunk being
 * filled has room). */
static const char *text_format(xe_remarks *r, const char *fmt, va_list ap)
{
   va_list again;
   va_copy(again, ap);
   xe_remark_text *t = r->text;
   size_t room = t ? t->cap - t->used : 0;
   char *at = t ? t->bytes + t->used : NULL;
   int len = vsnprintf(at, room, fmt, ap);
   if (len < 0)
      xe_out_of_memory(); /* as vasprintf's failure was */
   if ((size_t)len < room) {
      t->used += (size_t)len + 1;
   } else {
      at = text_alloc(r, (size_t)len + 1);
      vsnprintf(at, (size_t)len + 1, fmt, again);
   }
   va_end(again);
   return at;
}

/* kernel in r's text: the stored copy of the last remark's when equal. */
static const char *text_kernel(xe_remarks *r, const char *kernel)
{
   if (!kernel)
      return NULL;
   if (!r->last_kernel || strcmp(r->last_kernel, kernel)) {
      size_t n = strlen(kernel) + 1;
      r->last_kernel = memcpy(text_alloc(r, n), kernel, n);
   }
   return r->last_kernel;
}

static xe_remark_entry *add(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
                            enum xe_decision d, const char *fmt, va_list ap)
{
   if (r->n == r->cap) {
      r->cap = r->cap ? r->cap * 2 : 16;
      r->v = realloc(r->v, r->cap * sizeof(xe_remark_entry));
      if (!r->v)
         xe_out_of_memory();
   }
   const char *msg = text_format(r, fmt, ap);
   xe_remark_entry *x = &r->v[r->n++];
   *x = (xe_remark_entry){ .pass = r->pass ? r->pass : "xeopt", .kernel = text_kernel(r, kernel),
                           .kind = kind, .message = msg, .decision = d, .subject = -1 };
   return x;
}

void xe_remark(xe_remarks *r, const char *kernel, enum xe_remark_kind kind, const char *fmt, ...)
{
   if (!r)
      return;
   va_list ap;
   va_start(ap, fmt);
   add(r, kernel, kind, XE_DECISION_NONE, fmt, ap);
   va_end(ap);
}

xe_remark_entry *xe_remark_decision(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
                                    enum xe_decision d, const char *fmt, ...)
{
   if (!r)
      return NULL;
   va_list ap;
   va_start(ap, fmt);
   xe_remark_entry *x = add(r, kernel, kind, d, fmt, ap);
   va_end(ap);
   return x;
}

xe_remark_entry *xe_remark_vdecision(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
                                     enum xe_decision d, const char *fmt, va_list ap)
{
   return r ? add(r, kernel, kind, d, fmt, ap) : NULL;
}

void xe_remark_figure_add(xe_remark_entry *e, enum xe_device dev, double before, double after,
                          const char *detail)
{
   if (!e)
      return;
   xe_remark_figure *f = realloc(e->figures, (e->nfigures + 1) * sizeof(*f));
   if (!f)
      xe_out_of_memory();
   e->figures = f;
   f[e->nfigures] = (xe_remark_figure){ dev, before, after, detail ? strdup(detail) : NULL };
   if (detail && !f[e->nfigures].detail)
      xe_out_of_memory();
   e->nfigures++;
}

void xe_remark_copy(xe_remarks *r, const xe_remark_entry *e)
{
   xe_remark_entry *x = xe_remark_decision(r, e->kernel, e->kind, e->decision, "%s", e->message);
   if (x)
      x->subject = e->subject;
   for (unsigned k = 0; x && k < e->nfigures; k++)
      xe_remark_figure_add(x, e->figures[k].device, e->figures[k].before, e->figures[k].after,
                           e->figures[k].detail);
}

const char *xe_decision_name(enum xe_decision d)
{
   /* Written into the remarks JSON, read by the OpenCL layer and by
    * scripts: append, never rename. */
   static const char *const names[] = {
      [XE_DECISION_NONE] = NULL,
      [XE_DECISION_CANONICAL_FORMS] = "canonical_forms",
      [XE_DECISION_VOLATILE_DROP] = "volatile_drop",
      [XE_DECISION_VERSIONED] = "versioned",
      [XE_DECISION_ISA_KEPT] = "isa_kept",
      [XE_DECISION_ISA_REDONE] = "isa_redone",
      [XE_DECISION_ISA_ORIGINAL] = "isa_original",
      [XE_DECISION_ISA_PROBE] = "isa_probe",
      [XE_DECISION_COST_SLOWER] = "cost_slower",
      [XE_DECISION_COST_THIN] = "cost_thin",
      [XE_DECISION_COST_STRAIGHT_LINE] = "cost_straight_line",
      [XE_DECISION_SPECIALIZE_UNUSED] = "specialize_unused",
   };
   return (unsigned)d < sizeof(names) / sizeof(names[0]) ? names[d] : NULL;
}

bool xe_remarks_decided(const xe_remarks *r, const char *kernel, enum xe_decision d)
{
   for (unsigned k = 0; k < r->n; k++) {
      const xe_remark_entry *e = &r->v[k];
      if (e->decision == d && e->kind == XE_REMARK_APPLIED && e->kernel && !strcmp(e->kernel, kernel))
         return true;
   }
   return false;
}

/* Frees e's figures (its strings are in the remarks' text). */
static void entry_free(xe_remark_entry *e)
{
   for (unsigned k = 0; k < e->nfigures; k++)
      free(e->figures[k].detail);
   free(e->figures);
}

void xe_remarks_free_entries(xe_remarks *r)
{
   for (unsigned k = 0; k < r->n; k++)
      entry_free(&r->v[k]);
   free(r->v);
   r->v = NULL;
   r->n = r->cap = 0;
}

void xe_remarks_take_text(xe_remarks *to, xe_remarks *from)
{
   xe_remark_text *t = from->text;
   if (!t)
      return;
   /* from's chunks go behind the one to fills. */
   xe_remark_text *last = t;
   while (last->next)
      last = last->next;
   if (to->text) {
      last->next = to->text->next;
      to->text->next = t;
   } else {
      to->text = t;
   }
   from->text = NULL;
   from->last_kernel = NULL;
}

void xe_remarks_free(xe_remarks *r)
{
   xe_remarks_free_entries(r);
   for (xe_remark_text *t = r->text, *next; t; t = next) {
      next = t->next;
      free(t);
   }
   memset(r, 0, sizeof(*r));
}

/* The pass-facing writer: the document lives on the module, and the
 * manifest layer renders and adds the entries (src/manifest/manifest.h). */
void xe_manifest_add_padding(xe_module *m, const char *kernel, const xe_mf_padding *p)
{
   xe_mf_add_padding(&m->manifest, &m->manifest_index, kernel, p);
}

void xe_manifest_add_spec_constant(xe_module *m, const char *kernel, const xe_mf_spec_constant *s)
{
   xe_mf_add_spec_constant(&m->manifest, &m->manifest_index, kernel, s);
}

void xe_manifest_add_requirement(xe_module *m, const char *kernel, const xe_mf_requirement *q)
{
   xe_mf_add_requirement(&m->manifest, &m->manifest_index, kernel, q);
}
