/*
 * The manifest reader (manifest.h; the format is
 * docs/manifest.md).
 *
 * The reader copies what it reads into C structures and checks every
 * field it copies, so that --verify and the Level Zero helper act on the
 * same, checked reading.  Errors carry where they are ("kernel \"k\":
 * padding[1]: \"arg\": ...") because a host developer reading one has the
 * JSON open next to it.  The writer (manifest_write.c) is the inverse,
 * field for field.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "manifest.h"

/* ---- reading ---- */

/* Where the reader is, for messages, and the first error. */
typedef struct rd {
   char *err;
   size_t en;
   const char *kernel;          /* NULL at document level */
   const char *section;         /* NULL at kernel level */
   int index;                   /* entry index in the section, -1 for none */
   enum xe_mf_status st;
} rd;

static bool fail(rd *r, const char *field, const char *fmt, ...)
      __attribute__((format(printf, 3, 4)));
static bool fail(rd *r, const char *field, const char *fmt, ...)
{
   if (r->st != XE_MF_OK)
      return false;
   r->st = XE_MF_INVALID;
   if (!r->en)
      return false;
   char what[256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(what, sizeof what, fmt, ap);
   va_end(ap);
   char where[256] = "";
   size_t n = 0;
   if (r->kernel)
      n += (size_t)snprintf(where + n, sizeof where - n, "kernel \"%s\": ", r->kernel);
   if (r->section && n < sizeof where)
      n += (size_t)snprintf(where + n, sizeof where - n, r->index >= 0 ? "%s[%d]: " : "%s: ",
                            r->section, r->index);
   if (field && n < sizeof where)
      snprintf(where + n, sizeof where - n, "\"%s\": ", field);
   snprintf(r->err, r->en, "%s%s", where, what);
   return false;
}

static bool oom(rd *r)
{
   if (r->st == XE_MF_OK) {
      r->st = XE_MF_NO_MEMORY;
      if (r->en)
         snprintf(r->err, r->en, "out of memory");
   }
   return false;
}

static const cJSON *member(const cJSON *o, const char *key)
{
   return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The records' strings are const for the writers' callers (manifest.h);
 * the ones the reader made are its own copies. */
static void str_free(const char *s)
{
   free((char *)s);
}

static bool get_str(rd *r, const cJSON *o, const char *key, bool required, const char **out)
{
   const cJSON *x = member(o, key);
   *out = NULL;
   if (!x)
      return !required || fail(r, key, "missing");
   if (!cJSON_IsString(x))
      return fail(r, key, "not a string");
   if (!(*out = strdup(x->valuestring)))
      return oom(r);
   return true;
}

/* An integral number in [lo, hi]; both bounds must be exact doubles. */
static bool get_int(rd *r, const cJSON *o, const char *key, bool required, double lo,
                    double hi, bool *present, double *out)
{
   const cJSON *x = member(o, key);
   if (present)
      *present = x != NULL;
   if (!x)
      return !required || fail(r, key, "missing");
   if (!cJSON_IsNumber(x))
      return fail(r, key, "not a number");
   double v = x->valuedouble;
   if (v != floor(v))
      return fail(r, key, "%g is not an integer", v);
   if (v < lo || v > hi)
      return fail(r, key, "%.17g is out of range [%.17g, %.17g]", v, lo, hi);
   *out = v;
   return true;
}

static bool get_uint(rd *r, const cJSON *o, const char *key, bool required, uint32_t max,
                     unsigned *out)
{
   double v = 0;
   if (!get_int(r, o, key, required, 0, max, NULL, &v))
      return false;
   *out = (unsigned)v;
   return true;
}

static bool get_bool(rd *r, const cJSON *o, const char *key, bool required, bool *out)
{
   const cJSON *x = member(o, key);
   *out = false;
   if (!x)
      return !required || fail(r, key, "missing");
   if (!cJSON_IsBool(x))
      return fail(r, key, "not true or false");
   *out = cJSON_IsTrue(x);
   return true;
}

/* The array member key with *n entries in *v (calloc'd, elem bytes each). */
static bool get_array(rd *r, const cJSON *o, const char *key, bool required, size_t elem,
                      const cJSON **arr, unsigned *n, void **v)
{
   const cJSON *x = member(o, key);
   *arr = x;
   *n = 0;
   *v = NULL;
   if (!x)
      return !required || fail(r, key, "missing");
   if (!cJSON_IsArray(x))
      return fail(r, key, "not an array");
   int size = cJSON_GetArraySize(x);
   if (size > 0 && !(*v = calloc((size_t)size, elem)))
      return oom(r);
   *n = (unsigned)size;
   return true;
}

#define INT64_EXACT 9223372036854775807.0   /* rounds to 2^63 as a double */

static bool read_formula(rd *r, const cJSON *j, const char *field, xe_mf_formula *f);

static bool read_term(rd *r, const cJSON *t, const char *field, xe_mf_term *x)
{
   if (!cJSON_IsObject(t))
      return fail(r, field, "a term is not an object");
   double c = 0, a = -1, d = 0;
   bool has_arg, has_dim;
   /* 2^63 itself does not fit an int64_t: the upper bound is excluded below. */
   if (!get_int(r, t, "coeff", true, -INT64_EXACT, INT64_EXACT, NULL, &c))
      return false;
   if (c >= INT64_EXACT)
      return fail(r, "coeff", "out of range");
   if (!get_int(r, t, "arg", false, 0, 65535, &has_arg, &a) ||
       !get_int(r, t, "dim", false, 0, 2, &has_dim, &d))
      return false;
   x->coeff = (int64_t)c;
   x->arg = has_arg ? (int)a : -1;
   x->launch = XE_MF_Q_ONE;
   x->dim = 0;
   const cJSON *q = member(t, "launch");
   if (q) {
      static const char *names[] = { NULL, "global_size", "global_offset", "local_size" };
      for (unsigned k = 1; k < 4 && cJSON_IsString(q); k++) {
         if (!strcmp(q->valuestring, names[k]))
            x->launch = (enum xe_mf_quantity)k;
      }
      if (x->launch == XE_MF_Q_ONE)
         return fail(r, "launch", "not global_size, global_offset or local_size");
      if (!has_dim)
         return fail(r, field, "a term with \"launch\" lacks \"dim\"");
      x->dim = (unsigned)d;
   } else if (has_dim) {
      return fail(r, field, "a term with \"dim\" lacks \"launch\"");
   }
   return true;
}

static bool read_formula(rd *r, const cJSON *j, const char *field, xe_mf_formula *f)
{
   memset(f, 0, sizeof *f);
   if (!j)
      return fail(r, field, "missing");
   if (!cJSON_IsObject(j))
      return fail(r, field, "not a formula object");
   if (!get_str(r, j, "text", false, &f->text))
      return false;
   const cJSON *arr;
   if (member(j, "max_of")) {
      if (!get_array(r, j, "max_of", true, sizeof(xe_mf_formula), &arr, &f->nmax,
                     (void **)&f->max_of))
         return false;
      if (!f->nmax)
         return fail(r, field, "\"max_of\" is empty");
      unsigned k = 0;
      const cJSON *alt;
      cJSON_ArrayForEach(alt, arr) {
         if (!read_formula(r, alt, field, &f->max_of[k++]))
            return false;
      }
      return true;
   }
   if (!get_array(r, j, "terms", true, sizeof(xe_mf_term), &arr, &f->nterms,
                  (void **)&f->terms))
      return false;
   unsigned k = 0;
   const cJSON *t;
   cJSON_ArrayForEach(t, arr) {
      if (!read_term(r, t, field, &f->terms[k++]))
         return false;
   }
   return true;
}

static bool read_padding(rd *r, const cJSON *e, xe_mf_padding *p)
{
   const cJSON *kind = member(e, "kind");
   if (!kind)
      return fail(r, "kind", "missing");
   if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "guard")) {
      p->kind = XE_MF_GUARD;
      if (!get_str(r, e, "condition", true, &p->condition) ||
          !get_str(r, e, "proof", true, &p->proof) ||
          !get_str(r, e, "narrowed", false, &p->narrowed) ||
          !get_str(r, e, "file", false, &p->file) ||
          !get_uint(r, e, "line", false, UINT32_MAX, &p->line))
         return false;
      if (strcmp(p->proof, "disjoint") && strcmp(p->proof, "same_index"))
         return fail(r, "proof", "\"%s\" is not disjoint or same_index", p->proof);
      return true;
   }
   if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "buffer"))
      return fail(r, "kind", "not \"guard\" or \"buffer\"");
   p->kind = XE_MF_BUFFER;
   if (!get_uint(r, e, "arg", true, 65535, &p->arg) || !get_str(r, e, "name", true, &p->name) ||
       !get_uint(r, e, "element_size", true, UINT32_MAX, &p->element_size) ||
       !read_formula(r, member(e, "min_elements"), "min_elements", &p->min_elements) ||
       !get_bool(r, e, "zero_fill", true, &p->zero_fill) ||
       !get_bool(r, e, "distinct_allocation", true, &p->distinct_allocation))
      return false;
   if (!p->element_size)
      return fail(r, "element_size", "0");
   const cJSON *req = member(e, "requires");
   if (!req)
      return fail(r, "requires", "missing");
   if (!cJSON_IsObject(req))
      return fail(r, "requires", "not an object");
   const cJSON *arr;
   if (!get_array(r, req, "nonnegative_args", false, sizeof(unsigned), &arr, &p->nnonnegative,
                  (void **)&p->nonnegative_args))
      return false;
   unsigned k = 0;
   const cJSON *a;
   cJSON_ArrayForEach(a, arr) {
      double v = a->valuedouble;
      if (!cJSON_IsNumber(a) || v != floor(v) || v < 0 || v > 65535)
         return fail(r, "nonnegative_args", "not an array of argument indices");
      p->nonnegative_args[k++] = (unsigned)v;
   }
   double mx = 0;
   if (!get_int(r, req, "max_elements", false, 0, 18446744073709551615.0, &p->has_max_elements,
                &mx))
      return false;
   p->max_elements = mx >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)mx;
   return true;
}

static bool read_spec_constant(rd *r, const cJSON *e, xe_mf_spec_constant *s)
{
   if (!get_str(r, e, "argument", true, &s->argument) ||
       !get_uint(r, e, "index", true, 65535, &s->index) ||
       !get_str(r, e, "type", false, &s->type) ||
       !get_uint(r, e, "size", true, 8, &s->size) ||
       !get_uint(r, e, "flag_spec_id", true, UINT32_MAX, &s->flag_spec_id) ||
       !get_uint(r, e, "value_spec_id", true, UINT32_MAX, &s->value_spec_id) ||
       !get_bool(r, e, "flag_default", false, &s->flag_default) ||
       !get_uint(r, e, "loops", false, UINT32_MAX, &s->loops) ||
       !get_str(r, e, "guarantee", false, &s->guarantee))
      return false;
   if (s->size != 1 && s->size != 2 && s->size != 4 && s->size != 8)
      return fail(r, "size", "%u is not 1, 2, 4 or 8", s->size);
   const cJSON *v = member(e, "value_default");
   if (v) {
      char *end = NULL;
      if (cJSON_IsString(v)) {
         errno = 0;
         s->value_default = strtoll(v->valuestring, &end, 10);
      }
      if (!cJSON_IsString(v) || !v->valuestring[0] || *end || errno)
         return fail(r, "value_default", "not a decimal 64-bit integer as a string");
   }
   return true;
}

static bool read_requirement(rd *r, const cJSON *e, bool alignment, xe_mf_requirement *q)
{
   static const struct { const char *name; bool alignment; } kinds[] = {
      [XE_MF_UNIFORM_WORK_GROUPS] = { "uniform_work_groups", false },
      [XE_MF_SUBGROUP_SIZE] = { "subgroup_size", false },
      [XE_MF_LOCAL_SIZE] = { "local_size", false },
      [XE_MF_ARGUMENT_ALIGNMENT] = { "argument_alignment", true },
      [XE_MF_GLOBAL_OFFSET] = { "global_offset", true },
   };
   const char *req = NULL;
   if (!get_str(r, e, "pass", true, &q->pass) || !get_str(r, e, "requirement", true, &req) ||
       !get_str(r, e, "origin", false, &q->origin))
      return str_free(req), false;
   unsigned k = 0;
   while (k < sizeof kinds / sizeof kinds[0] &&
          (strcmp(kinds[k].name, req) || kinds[k].alignment != alignment))
      k++;
   if (k == sizeof kinds / sizeof kinds[0]) {
      fail(r, "requirement", "\"%s\" is not a requirement of this section", req);
      return str_free(req), false;
   }
   str_free(req);
   q->kind = (enum xe_mf_requirement_kind)k;
   double d = 0;
   switch (q->kind) {
   case XE_MF_UNIFORM_WORK_GROUPS:
      return get_str(r, e, "text", false, &q->text);
   case XE_MF_SUBGROUP_SIZE:
      return get_uint(r, e, "value", true, 1024, &q->value[0]);
   case XE_MF_LOCAL_SIZE: {
      const cJSON *v = member(e, "value");
      if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3)
         return fail(r, "value", "not an array [X, Y, Z]");
      for (int c = 0; c < 3; c++) {
         const cJSON *x = cJSON_GetArrayItem(v, c);
         if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
             x->valuedouble < 1 || x->valuedouble > 1024)
            return fail(r, "value", "not an array of three sizes 1..1024");
         q->value[c] = (uint32_t)x->valuedouble;
      }
      return true;
   }
   case XE_MF_ARGUMENT_ALIGNMENT:
      return get_uint(r, e, "argument", true, 65535, &q->argument) &&
             get_str(r, e, "name", true, &q->name) &&
             get_uint(r, e, "bytes", true, UINT32_MAX, &q->bytes);
   case XE_MF_GLOBAL_OFFSET:
      if (!get_uint(r, e, "dimension", true, 2, &q->dimension) ||
          !get_int(r, e, "multiple_of", true, 0, 4294967295.0, NULL, &d))
         return false;
      q->multiple_of = (uint64_t)d;
      return true;
   }
   return true;
}

/* One section of a kernel: entries of a known kind, or kept raw. */
static bool read_section(rd *r, const cJSON *sec, xe_mf_kernel *k)
{
   const char *name = sec->string;
   r->section = name;
   r->index = -1;
   if (!cJSON_IsArray(sec))
      return fail(r, NULL, "not an array");
   unsigned n = (unsigned)cJSON_GetArraySize(sec);
   size_t elem;
   void **v;
   unsigned *count;
   int which;
   if (!strcmp(name, "padding"))
      which = 0, elem = sizeof(xe_mf_padding), v = (void **)&k->padding, count = &k->npadding;
   else if (!strcmp(name, "spec_constants"))
      which = 1, elem = sizeof(xe_mf_spec_constant), v = (void **)&k->spec_constants,
      count = &k->nspec_constants;
   else if (!strcmp(name, "launch"))
      which = 2, elem = sizeof(xe_mf_requirement), v = (void **)&k->launch, count = &k->nlaunch;
   else if (!strcmp(name, "alignment"))
      which = 3, elem = sizeof(xe_mf_requirement), v = (void **)&k->alignment,
      count = &k->nalignment;
   else {
      xe_mf_section *s = &k->other[k->nother];
      if (!(s->name = strdup(name)) || !(s->entries = cJSON_Duplicate(sec, true))) {
         free(s->name);
         s->name = NULL;
         return oom(r);
      }
      k->nother++;
      return true;
   }
   if (*v)
      return fail(r, NULL, "given twice");
   if (n && !(*v = calloc(n, elem)))
      return oom(r);
   *count = n;
   const cJSON *e;
   r->index = 0;
   cJSON_ArrayForEach(e, sec) {
      void *x = (char *)*v + (size_t)r->index * elem;
      if (!cJSON_IsObject(e))
         return fail(r, NULL, "not an object");
      bool ok = which == 0   ? read_padding(r, e, x)
                : which == 1 ? read_spec_constant(r, e, x)
                             : read_requirement(r, e, which == 3, x);
      if (!ok)
         return false;
      r->index++;
   }
   return true;
}

static bool read_kernel(rd *r, const cJSON *j, xe_mf_kernel *k)
{
   r->kernel = j->string;
   r->section = NULL;
   if (!(k->name = strdup(j->string)))
      return oom(r);
   if (!cJSON_IsObject(j))
      return fail(r, NULL, "not an object of sections");
   int n = cJSON_GetArraySize(j);
   if (n > 0 && !(k->other = calloc((size_t)n, sizeof(xe_mf_section))))
      return oom(r);
   const cJSON *sec;
   cJSON_ArrayForEach(sec, j) {
      if (!read_section(r, sec, k))
         return false;
   }
   return true;
}

enum xe_mf_status xe_mf_read(const cJSON *j, xe_mf *out, char *err, size_t err_size)
{
   memset(out, 0, sizeof *out);
   rd r = { .err = err, .en = err_size, .index = -1 };
   if (err_size)
      err[0] = 0;
   double version = 0;
   const cJSON *kernels = member(j, "kernels"), *k;
   if (!cJSON_IsObject(j)) {
      fail(&r, NULL, "the manifest is not a JSON object");
      goto done;
   }
   if (!member(j, "xeopt_manifest")) {
      fail(&r, NULL, "not an xeopt manifest: no \"xeopt_manifest\" version");
      goto done;
   }
   if (!get_int(&r, j, "xeopt_manifest", true, 0, 4294967295.0, NULL, &version))
      goto done;
   if (version != XE_MANIFEST_VERSION) {
      fail(&r, "xeopt_manifest", "version %.0f; this xeopt reads version %d", version,
           XE_MANIFEST_VERSION);
      goto done;
   }
   out->version = XE_MANIFEST_VERSION;
   if (!get_str(&r, j, "module", false, &out->module))
      goto done;
   if (!kernels) {
      fail(&r, "kernels", "missing");
      goto done;
   }
   if (!cJSON_IsObject(kernels)) {
      fail(&r, "kernels", "not an object");
      goto done;
   }
   int n = cJSON_GetArraySize(kernels);
   if (n > 0 && !(out->kernels = calloc((size_t)n, sizeof(xe_mf_kernel)))) {
      oom(&r);
      goto done;
   }
   cJSON_ArrayForEach(k, kernels) {
      if (!read_kernel(&r, k, &out->kernels[out->nkernels++]))
         goto done;
   }
done:
   if (r.st != XE_MF_OK)
      xe_mf_free(out);
   return r.st;
}

enum xe_mf_status xe_mf_read_text(const char *text, size_t len, xe_mf *out, char *err,
                                  size_t err_size)
{
   memset(out, 0, sizeof *out);
   cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
   if (!j) {
      if (err_size)
         snprintf(err, err_size, "the manifest is not JSON");
      return XE_MF_INVALID;
   }
   enum xe_mf_status s = xe_mf_read(j, out, err, err_size);
   cJSON_Delete(j);
   return s;
}

static void formula_free(xe_mf_formula *f)
{
   for (unsigned k = 0; k < f->nmax; k++)
      formula_free(&f->max_of[k]);
   free(f->max_of);
   free(f->terms);
   str_free(f->text);
}

void xe_mf_formula_free(xe_mf_formula *f)
{
   formula_free(f);
   memset(f, 0, sizeof *f);
}

enum xe_mf_status xe_mf_formula_read(const cJSON *json, xe_mf_formula *f, char *err,
                                     size_t err_size)
{
   rd r = { .err = err, .en = err_size, .index = -1 };
   if (err_size)
      err[0] = 0;
   if (!read_formula(&r, json, NULL, f))
      xe_mf_formula_free(f);
   return r.st;
}

static void requirements_free(xe_mf_requirement *q, unsigned n)
{
   for (unsigned k = 0; k < n; k++) {
      str_free(q[k].pass);
      str_free(q[k].text);
      str_free(q[k].origin);
      str_free(q[k].name);
   }
   free(q);
}

void xe_mf_free(xe_mf *m)
{
   for (unsigned k = 0; k < m->nkernels; k++) {
      xe_mf_kernel *x = &m->kernels[k];
      for (unsigned e = 0; e < x->npadding; e++) {
         xe_mf_padding *p = &x->padding[e];
         str_free(p->condition);
         str_free(p->proof);
         str_free(p->narrowed);
         str_free(p->file);
         str_free(p->name);
         formula_free(&p->min_elements);
         free(p->nonnegative_args);
      }
      free(x->padding);
      for (unsigned e = 0; e < x->nspec_constants; e++) {
         xe_mf_spec_constant *s = &x->spec_constants[e];
         str_free(s->argument);
         str_free(s->type);
         str_free(s->guarantee);
      }
      free(x->spec_constants);
      requirements_free(x->launch, x->nlaunch);
      requirements_free(x->alignment, x->nalignment);
      for (unsigned e = 0; e < x->nother; e++) {
         free(x->other[e].name);
         cJSON_Delete(x->other[e].entries);
      }
      free(x->other);
      free(x->name);
   }
   free(m->kernels);
   str_free(m->module);
   memset(m, 0, sizeof *m);
}

const xe_mf_kernel *xe_mf_find(const xe_mf *m, const char *kernel)
{
   for (unsigned k = 0; m && kernel && k < m->nkernels; k++) {
      if (!strcmp(m->kernels[k].name, kernel))
         return &m->kernels[k];
   }
   return NULL;
}

bool xe_mf_formula_eval(const xe_mf_formula *f, const xe_mf_launch *l, const int64_t *args,
                        unsigned nargs, int64_t *value)
{
   if (f->nmax) {
      for (unsigned k = 0; k < f->nmax; k++) {
         int64_t v;
         if (!xe_mf_formula_eval(&f->max_of[k], l, args, nargs, &v))
            return false;
         if (!k || v > *value)
            *value = v;
      }
      return true;
   }
   /* Unsigned arithmetic: wraps instead of overflowing. */
   uint64_t sum = 0;
   for (unsigned k = 0; k < f->nterms; k++) {
      const xe_mf_term *t = &f->terms[k];
      uint64_t v = (uint64_t)t->coeff;
      if (t->arg >= 0) {
         if ((unsigned)t->arg >= nargs)
            return false;
         v *= (uint64_t)args[t->arg];
      }
      if (t->launch == XE_MF_Q_GLOBAL_SIZE)
         v *= l->global_size[t->dim];
      else if (t->launch == XE_MF_Q_GLOBAL_OFFSET)
         v *= l->global_offset[t->dim];
      else if (t->launch == XE_MF_Q_LOCAL_SIZE)
         v *= l->local_size[t->dim];
      sum += v;
   }
   *value = (int64_t)sum;
   return true;
}
