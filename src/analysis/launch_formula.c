/*
 * Launch formulas; see launch_formula.h.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "launch_formula.h"
#include "manifest.h"

static const char *q_name[] = { NULL, "global_size", "global_offset", "local_size" };

static bool add(xe_formula *f, int64_t coeff, int arg, enum xe_launch_q q, int dim)
{
   if (q == XE_Q_ONE)
      dim = 0;
   for (unsigned k = 0; k < f->n; k++) {
      xe_monomial *t = &f->t[k];
      if (t->arg == arg && t->q == q && t->dim == dim) {
         if (__builtin_add_overflow(t->coeff, coeff, &t->coeff))
            return false;
         if (!t->coeff) {
            memmove(t, t + 1, (f->n - k - 1) * sizeof(*t));
            f->n--;
         }
         return true;
      }
   }
   if (!coeff)
      return true;
   if (f->n == XE_FORMULA_MAX)
      return false;
   f->t[f->n++] = (xe_monomial){ coeff, arg, q, dim };
   return true;
}

bool xe_formula_min_elements(const xe_affine *a, xe_formula *out)
{
   memset(out, 0, sizeof(*out));
   for (unsigned k = 0; k < a->n; k++) {
      const xe_aff_term *t = &a->t[k];
      if (t->coeff < 0)
         return false;
      bool ok;
      if (t->var < 0) {
         ok = add(out, t->coeff, t->arg, XE_Q_ONE, 0);
      } else if (t->var <= XE_AFF_GID_Z) {
         /* coeff·arg·(global_size + global_offset - 1) */
         int d = t->var - XE_AFF_GID_X;
         ok = add(out, t->coeff, t->arg, XE_Q_GLOBAL_SIZE, d) &&
              add(out, t->coeff, t->arg, XE_Q_GLOBAL_OFFSET, d) &&
              add(out, -t->coeff, t->arg, XE_Q_ONE, 0);
      } else if (t->var >= XE_AFF_GBASE_X) {
         /* group base and folded ids are below global_size[d] */
         int d = (t->var - XE_AFF_GBASE_X) % 3;
         ok = add(out, t->coeff, t->arg, XE_Q_GLOBAL_SIZE, d) &&
              add(out, -t->coeff, t->arg, XE_Q_ONE, 0);
      } else {
         int d = t->var - XE_AFF_LID_X;
         ok = add(out, t->coeff, t->arg, XE_Q_LOCAL_SIZE, d) &&
              add(out, -t->coeff, t->arg, XE_Q_ONE, 0);
      }
      if (!ok)
         return false;
   }
   return add(out, 1, -1, XE_Q_ONE, 0);
}

bool xe_formula_dominates(const xe_formula *a, const xe_formula *b)
{
   xe_formula d = *a;
   for (unsigned k = 0; k < b->n; k++) {
      if (!add(&d, -b->t[k].coeff, b->t[k].arg, b->t[k].q, b->t[k].dim))
         return false;
   }
   /* Sizes are >= 1, so a negative constant c·arg is covered by a positive
    * size monomial with the same argument and coefficient >= |c|. */
   for (unsigned k = 0; k < d.n; k++) {
      const xe_monomial *t = &d.t[k];
      if (t->coeff >= 0)
         continue;
      if (t->q != XE_Q_ONE)
         return false;
      bool covered = false;
      for (unsigned j = 0; j < d.n && !covered; j++) {
         const xe_monomial *s = &d.t[j];
         covered = s->arg == t->arg && (s->q == XE_Q_GLOBAL_SIZE || s->q == XE_Q_LOCAL_SIZE) &&
                   s->coeff >= -t->coeff;
      }
      if (!covered)
         return false;
   }
   return true;
}

static void arg_text(FILE *f, int arg, const char *const *names)
{
   if (names && names[arg])
      fputs(names[arg], f);
   else
      fprintf(f, "arg%d", arg);
}

char *xe_formula_text(const xe_formula *fm, const char *const *names)
{
   char *buf = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&buf, &len);
   bool first = true;
   /* Launch terms first, the constant part last: "global_size[0] + 3". */
   for (int pass = 0; pass < 2; pass++) {
      for (unsigned k = 0; k < fm->n; k++) {
         const xe_monomial *t = &fm->t[k];
         if ((t->q == XE_Q_ONE) != pass)
            continue;
         int64_t c = t->coeff;
         fputs(first ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + "), f);
         first = false;
         if (c < 0)
            c = -c;
         bool any = false;
         if (c != 1 || (t->arg < 0 && t->q == XE_Q_ONE)) {
            fprintf(f, "%lld", (long long)c);
            any = true;
         }
         if (t->arg >= 0) {
            fputs(any ? "*" : "", f);
            arg_text(f, t->arg, names);
            any = true;
         }
         if (t->q != XE_Q_ONE)
            fprintf(f, "%s%s[%d]", any ? "*" : "", q_name[t->q], t->dim);
      }
   }
   if (first)
      fputs("0", f);
   fclose(f);
   return buf;
}

/* The manifest layer's record of one formula; texts and terms malloc'd. */
static void formula_record(const xe_formula *fm, const char *const *names, xe_mf_formula *out)
{
   static const enum xe_mf_quantity q_mf[] = {
      [XE_Q_ONE] = XE_MF_Q_ONE,
      [XE_Q_GLOBAL_SIZE] = XE_MF_Q_GLOBAL_SIZE,
      [XE_Q_GLOBAL_OFFSET] = XE_MF_Q_GLOBAL_OFFSET,
      [XE_Q_LOCAL_SIZE] = XE_MF_Q_LOCAL_SIZE,
   };
   memset(out, 0, sizeof(*out));
   out->text = xe_formula_text(fm, names);
   out->nterms = fm->n;
   out->terms = calloc(fm->n ? fm->n : 1, sizeof(*out->terms));
   if (!out->text || !out->terms)
      xe_out_of_memory();
   for (unsigned k = 0; k < fm->n; k++) {
      const xe_monomial *t = &fm->t[k];
      out->terms[k] = (xe_mf_term){ .coeff = t->coeff, .arg = t->arg, .launch = q_mf[t->q],
                                    .dim = t->q == XE_Q_ONE ? 0 : (unsigned)t->dim };
   }
}

void xe_formula_max_record(const xe_formula_max *m, const char *const *names, xe_mf_formula *out)
{
   if (m->n == 1) {
      formula_record(&m->alt[0], names, out);
      return;
   }
   memset(out, 0, sizeof(*out));
   out->text = xe_formula_max_text(m, names);
   out->nmax = m->n;
   out->max_of = calloc(m->n ? m->n : 1, sizeof(*out->max_of));
   if (!out->text || !out->max_of)
      xe_out_of_memory();
   for (unsigned k = 0; k < m->n; k++)
      formula_record(&m->alt[k], names, &out->max_of[k]);
}

/* The manifest layer renders the JSON, so that these and the manifest's
 * entries cannot differ. */
static cJSON *record_json(xe_mf_formula *f)
{
   cJSON *o = xe_mf_formula_json(f);
   xe_mf_formula_free(f);
   if (!o)
      xe_out_of_memory();
   return o;
}

cJSON *xe_formula_json(const xe_formula *fm, const char *const *names)
{
   xe_mf_formula f;
   formula_record(fm, names, &f);
   return record_json(&f);
}

bool xe_formula_max_add(xe_formula_max *m, const xe_formula *f)
{
   for (unsigned k = 0; k < m->n; k++) {
      if (xe_formula_dominates(&m->alt[k], f))
         return true;
   }
   unsigned w = 0;
   for (unsigned k = 0; k < m->n; k++) {
      if (!xe_formula_dominates(f, &m->alt[k]))
         m->alt[w++] = m->alt[k];
   }
   m->n = w;
   if (m->n == XE_FORMULA_MAX_ALT)
      return false;
   m->alt[m->n++] = *f;
   return true;
}

char *xe_formula_max_text(const xe_formula_max *m, const char *const *names)
{
   char *buf = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&buf, &len);
   if (m->n > 1)
      fputs("max(", f);
   for (unsigned k = 0; k < m->n; k++) {
      char *t = xe_formula_text(&m->alt[k], names);
      fprintf(f, "%s%s", k ? ", " : "", t);
      free(t);
   }
   if (m->n > 1)
      fputs(")", f);
   fclose(f);
   return buf;
}

cJSON *xe_formula_max_json(const xe_formula_max *m, const char *const *names)
{
   xe_mf_formula f;
   xe_formula_max_record(m, names, &f);
   return record_json(&f);
}

/* The manifest layer's reader and evaluator, so that this reference and
 * --verify cannot disagree about a formula. */
bool xe_formula_eval(const cJSON *f, const xe_launch *l, const int64_t *args, unsigned nargs,
                     int64_t *value)
{
   xe_mf_formula mf;
   if (xe_mf_formula_read(f, &mf, NULL, 0) != XE_MF_OK)
      return false;
   xe_mf_launch ml;
   memcpy(ml.global_size, l->global_size, sizeof ml.global_size);
   memcpy(ml.global_offset, l->global_offset, sizeof ml.global_offset);
   memcpy(ml.local_size, l->local_size, sizeof ml.local_size);
   bool ok = xe_mf_formula_eval(&mf, &ml, args, nargs, value);
   xe_mf_formula_free(&mf);
   return ok;
}
