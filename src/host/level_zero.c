/*
 * ze_module_constants_t from an xeopt manifest (include/xeopt/level_zero.h).
 * The manifest is read with the one reader the optimizer and --verify use
 * (src/manifest/manifest.h); this file only matches requests to entries.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "manifest.h"
#include "xeopt/level_zero.h"

typedef struct entry {
   const char *kernel, *argument;
   unsigned index, size;
   uint32_t flag_id, value_id;
   bool wanted;
   int64_t value;
} entry;

static xeopt_ze_status fail(char *err, size_t n, xeopt_ze_status s, const char *fmt, ...)
{
   if (n) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, n, fmt, ap);
      va_end(ap);
   }
   return s;
}

/* Every spec_constants entry of the manifest, read with the one manifest
 * reader (src/manifest/), which also checks the schema version and every
 * other section: a manifest that is broken anywhere describes no module a
 * host should build.  *n entries in a malloc'd array (NULL when none),
 * pointing into *mf. */
static xeopt_ze_status read_entries(const cJSON *manifest, xe_mf *mf, entry **out, unsigned *n,
                                    char *err, size_t en)
{
   *out = NULL;
   *n = 0;
   switch (xe_mf_read(manifest, mf, err, en)) {
   case XE_MF_OK: break;
   case XE_MF_NO_MEMORY: return XEOPT_ZE_NO_MEMORY;
   default: return XEOPT_ZE_BAD_MANIFEST;
   }
   unsigned total = 0;
   for (unsigned k = 0; k < mf->nkernels; k++)
      total += mf->kernels[k].nspec_constants;
   if (!total)
      return XEOPT_ZE_OK;
   if (!(*out = calloc(total, sizeof(entry))))
      return fail(err, en, XEOPT_ZE_NO_MEMORY, "out of memory");
   for (unsigned k = 0; k < mf->nkernels; k++) {
      const xe_mf_kernel *mk = &mf->kernels[k];
      for (unsigned e = 0; e < mk->nspec_constants; e++) {
         const xe_mf_spec_constant *s = &mk->spec_constants[e];
         (*out)[(*n)++] = (entry){ .kernel = mk->name, .argument = s->argument,
                                   .index = s->index, .size = s->size,
                                   .flag_id = s->flag_spec_id, .value_id = s->value_spec_id };
      }
   }
   return XEOPT_ZE_OK;
}

static bool fits(int64_t v, unsigned size)
{
   if (size >= 8)
      return true;
   int64_t bits = 8 * (int64_t)size;
   return v >= -(INT64_C(1) << (bits - 1)) && v <= (INT64_C(1) << bits) - 1;
}

/* Stores v as a size-byte integer in host byte order at the slot's start,
 * where the driver copies size bytes from. */
static void store(uint64_t *slot, int64_t v, unsigned size)
{
   *slot = 0;
   switch (size) {
   case 1: { uint8_t x = (uint8_t)v; memcpy(slot, &x, 1); break; }
   case 2: { uint16_t x = (uint16_t)v; memcpy(slot, &x, 2); break; }
   case 4: { uint32_t x = (uint32_t)v; memcpy(slot, &x, 4); break; }
   default: { uint64_t x = (uint64_t)v; memcpy(slot, &x, 8); break; }
   }
}

static xeopt_ze_status match(entry *es, unsigned n, const xeopt_ze_value *w, char *err,
                             size_t en)
{
   bool kernel_seen = false;
   for (unsigned k = 0; k < n; k++) {
      entry *e = &es[k];
      if (!w->kernel || strcmp(e->kernel, w->kernel))
         continue;
      kernel_seen = true;
      if (w->argument ? strcmp(e->argument, w->argument) != 0 : e->index != w->index)
         continue;
      if (!fits(w->value, e->size))
         return fail(err, en, XEOPT_ZE_OUT_OF_RANGE,
                     "kernel %s argument %s: %lld does not fit %u bytes", e->kernel,
                     e->argument, (long long)w->value, e->size);
      if (e->wanted && e->value != w->value)
         return fail(err, en, XEOPT_ZE_CONFLICT,
                     "kernel %s argument %s: requested as %lld and as %lld", e->kernel,
                     e->argument, (long long)e->value, (long long)w->value);
      e->wanted = true;
      e->value = w->value;
      return XEOPT_ZE_OK;
   }
   char idx[24];
   snprintf(idx, sizeof(idx), "#%u", w->index);
   if (!kernel_seen)
      return fail(err, en, XEOPT_ZE_UNKNOWN_KERNEL,
                  "the manifest has no spec constants for kernel %s",
                  w->kernel ? w->kernel : "(null)");
   return fail(err, en, XEOPT_ZE_UNKNOWN_ARGUMENT,
               "kernel %s has no spec constants for argument %s", w->kernel,
               w->argument ? w->argument : idx);
}

xeopt_ze_status xeopt_ze_constants_from_cjson(const cJSON *manifest, const xeopt_ze_value *want,
                                              unsigned nwant, xeopt_ze_constants *out,
                                              char *err, size_t err_size)
{
   memset(out, 0, sizeof(*out));
   if (err_size)
      err[0] = 0;
   entry *es;
   unsigned n;
   xe_mf mf;
   xeopt_ze_status rs = read_entries(manifest, &mf, &es, &n, err, err_size);
   for (unsigned k = 0; rs == XEOPT_ZE_OK && k < nwant; k++)
      rs = match(es, n, &want[k], err, err_size);
   if (rs != XEOPT_ZE_OK) {
      free(es);
      xe_mf_free(&mf);
      return rs;
   }
   unsigned total = 0;
   for (unsigned k = 0; k < n; k++)
      total += es[k].wanted ? 2 : 1;
   if (total) {
      out->ids = malloc(total * sizeof(uint32_t));
      out->values = malloc(total * sizeof(void *));
      out->slots = malloc(total * sizeof(uint64_t));
      if (!out->ids || !out->values || !out->slots) {
         xeopt_ze_constants_free(out);
         free(es);
         xe_mf_free(&mf);
         return fail(err, err_size, XEOPT_ZE_NO_MEMORY, "out of memory");
      }
   }
   unsigned c = 0;
   /* Requested pairs first, in manifest order; then the flags turned off. */
   for (int pass = 0; pass < 2; pass++) {
      for (unsigned k = 0; k < n; k++) {
         const entry *e = &es[k];
         if (e->wanted != (pass == 0))
            continue;
         out->ids[c] = e->flag_id;
         store(&out->slots[c], e->wanted, 1);
         out->values[c] = &out->slots[c];
         c++;
         if (e->wanted) {
            out->ids[c] = e->value_id;
            store(&out->slots[c], e->value, e->size);
            out->values[c] = &out->slots[c];
            c++;
         }
      }
   }
   out->desc.numConstants = c;
   out->desc.pConstantIds = out->ids;
   out->desc.pConstantValues = out->values;
   free(es);
   xe_mf_free(&mf);
   return XEOPT_ZE_OK;
}

xeopt_ze_status xeopt_ze_constants_from_json(const char *manifest_json,
                                             const xeopt_ze_value *want, unsigned nwant,
                                             xeopt_ze_constants *out, char *err,
                                             size_t err_size)
{
   memset(out, 0, sizeof(*out));
   cJSON *j = manifest_json ? cJSON_Parse(manifest_json) : NULL;
   if (!j)
      return fail(err, err_size, XEOPT_ZE_BAD_MANIFEST, "the manifest is not JSON");
   xeopt_ze_status s = xeopt_ze_constants_from_cjson(j, want, nwant, out, err, err_size);
   cJSON_Delete(j);
   return s;
}

void xeopt_ze_constants_free(xeopt_ze_constants *c)
{
   free(c->ids);
   free(c->values);
   free(c->slots);
   memset(c, 0, sizeof(*c));
}

const char *xeopt_ze_status_name(xeopt_ze_status s)
{
   static const char *names[] = {
      "XEOPT_ZE_OK", "XEOPT_ZE_BAD_MANIFEST", "XEOPT_ZE_UNKNOWN_KERNEL",
      "XEOPT_ZE_UNKNOWN_ARGUMENT", "XEOPT_ZE_OUT_OF_RANGE", "XEOPT_ZE_CONFLICT",
      "XEOPT_ZE_NO_MEMORY",
   };
   return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "XEOPT_ZE_?";
}
