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

static xe_remark_entry *add(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
                            enum xe_decision d, const char *fmt, va_list ap)
{
   if (r->n == r->cap) {
      r->cap = r->cap ? r->cap * 2 : 16;
      r->v = realloc(r->v, r->cap * sizeof(xe_remark_entry));
      if (!r->v)
         xe_out_of_memory();
   }
   char *msg = NULL;
   if (vasprintf(&msg, fmt, ap) < 0)
      xe_out_of_memory();
   xe_remark_entry *x = &r->v[r->n++];
   *x = (xe_remark_entry){ .pass = r->pass ? r->pass : "xeopt",
                           .kernel = kernel ? strdup(kernel) : NULL,
                           .kind = kind, .message = msg, .decision = d, .subject = -1 };
   if (kernel && !x->kernel)
      xe_out_of_memory();
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

/* Frees e's strings and figures. */
static void entry_free(xe_remark_entry *e)
{
   free(e->kernel);
   free(e->message);
   for (unsigned k = 0; k < e->nfigures; k++)
      free(e->figures[k].detail);
   free(e->figures);
}

void xe_remarks_free(xe_remarks *r)
{
   for (unsigned k = 0; k < r->n; k++)
      entry_free(&r->v[k]);
   free(r->v);
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
