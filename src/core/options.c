/*
 * Options and the helpers passes use to read per-kernel option values.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "pass.h"

void xe_strlist_add(xe_strlist *l, const char *s)
{
   l->v = realloc(l->v, (l->n + 1) * sizeof(char *));
   if (!l->v)
      abort();
   l->v[l->n++] = strdup(s);
}

void xe_strlist_free(xe_strlist *l)
{
   for (unsigned k = 0; k < l->n; k++)
      free(l->v[k]);
   free(l->v);
   l->v = NULL;
   l->n = 0;
}

void xe_options_init(xe_options *o)
{
   memset(o, 0, sizeof(*o));
   o->level = 2;
}

void xe_options_free(xe_options *o)
{
   xe_strlist_free(&o->passes);
   xe_strlist_free(&o->assume_padded);
   xe_strlist_free(&o->subgroup_size);
   xe_strlist_free(&o->local_size);
   xe_strlist_free(&o->specialize);
   xe_strlist_free(&o->exclude);
}

unsigned xe_options_target(const xe_options *o)
{
   return o->target == XE_TARGET_NONE ? 0 : o->target ? o->target : XE_DEV_ALL;
}

bool xe_kernel_rewritable(const xe_options *o, const char *kernel)
{
   for (unsigned k = 0; k < o->exclude.n; k++)
      if (!strcmp(o->exclude.v[k], kernel))
         return false;
   return true;
}

/* Entries are "" (every kernel) or comma-separated kernel names. */
bool xe_options_kernel_listed(const xe_strlist *l, const char *kernel)
{
   size_t klen = strlen(kernel);
   for (unsigned k = 0; k < l->n; k++) {
      const char *s = l->v[k];
      if (!*s)
         return true;
      while (*s) {
         const char *e = strchr(s, ',');
         size_t n = e ? (size_t)(e - s) : strlen(s);
         if (n == klen && !strncmp(s, kernel, n))
            return true;
         s += n + (e != NULL);
      }
   }
   return false;
}

/* Entries are "VALUE" or "KERNEL:VALUE"; the last matching entry for the
 * kernel wins over general ones. */
const char *xe_options_kernel_value(const xe_strlist *l, const char *kernel)
{
   const char *general = NULL, *specific = NULL;
   size_t klen = strlen(kernel);
   for (unsigned k = 0; k < l->n; k++) {
      const char *s = l->v[k];
      const char *colon = strchr(s, ':');
      if (!colon)
         general = s;
      else if ((size_t)(colon - s) == klen && !strncmp(s, kernel, klen))
         specific = colon + 1;
   }
   return specific ? specific : general;
}

/* Options of the pipeline, shared by the command line and the C API.
 * Each takes its value after '=' (the command line also accepts it as the
 * next argument, see xe_option_needs_value). */
typedef enum { V_NONE, V_OPTIONAL, V_REQUIRED } value_kind;

static const struct {
   const char *name;
   value_kind value;
} pipeline_options[] = {
   { "-O0", V_NONE }, { "-O1", V_NONE }, { "-O2", V_NONE },
   { "--passes", V_REQUIRED }, { "--validate", V_NONE }, { "--verify", V_OPTIONAL },
   { "--assume-padded", V_OPTIONAL }, { "--assume-aligned", V_NONE },
   { "--subgroup-size", V_REQUIRED }, { "--local-size", V_REQUIRED },
   { "--specialize", V_REQUIRED },
   { "--target", V_REQUIRED }, { "--isa-check", V_REQUIRED },
};

static int find_option(const char *arg, size_t len)
{
   for (unsigned k = 0; k < sizeof(pipeline_options) / sizeof(pipeline_options[0]); k++) {
      if (strlen(pipeline_options[k].name) == len && !strncmp(arg, pipeline_options[k].name, len))
         return (int)k;
   }
   return -1;
}

int xe_option_needs_value(const char *arg)
{
   int k = find_option(arg, strlen(arg));
   return k >= 0 && pipeline_options[k].value == V_REQUIRED;
}

static void split_into(xe_strlist *l, const char *s)
{
   char *copy = strdup(s), *save = NULL;
   for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
      xe_strlist_add(l, t);
   free(copy);
}

static bool fail_opt(char **err, const char *fmt, const char *a, const char *b)
{
   if (err && asprintf(err, fmt, a, b) < 0)
      abort();
   return false;
}

bool xe_options_parse(xe_options *o, const char *arg, char **err)
{
   const char *eq = strchr(arg, '=');
   size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
   int k = find_option(arg, len);
   if (k < 0) {
      if (!strncmp(arg, "-O", 2) && len > 2)
         return fail_opt(err, "unknown optimization level %s%s (use -O0, -O1 or -O2)", arg, "");
      char *name = strndup(arg, len);
      fail_opt(err, "unknown option %s (see --help)%s", name, "");
      free(name);
      return false;
   }
   const char *name = pipeline_options[k].name;
   const char *val = eq ? eq + 1 : NULL;
   if (val && pipeline_options[k].value == V_NONE)
      return fail_opt(err, "option %s takes no value%s", name, "");
   if (!val && pipeline_options[k].value == V_REQUIRED)
      return fail_opt(err, "option %s needs a value (see --help)%s", name, "");
   if (val && !*val && pipeline_options[k].value == V_REQUIRED)
      return fail_opt(err, "option %s needs a value (see --help)%s", name, "");
   if (name[1] == 'O') {
      o->level = name[2] - '0';
   } else if (!strcmp(name, "--passes")) {
      split_into(&o->passes, val);
   } else if (!strcmp(name, "--validate")) {
      o->validate = true;
   } else if (!strcmp(name, "--verify")) {
      char *end;
      long n = val ? strtol(val, &end, 10) : 3;
      if (val && (*end || n < 1 || n > 1000))
         return fail_opt(err, "option --verify takes a number of launches from 1 to 1000, not '%s'%s",
                         val, "");
      o->verify = (int)n;
   } else if (!strcmp(name, "--assume-padded")) {
      xe_strlist_add(&o->assume_padded, val ? val : "");
   } else if (!strcmp(name, "--assume-aligned")) {
      o->assume_aligned = true;
   } else if (!strcmp(name, "--subgroup-size")) {
      xe_strlist_add(&o->subgroup_size, val);
   } else if (!strcmp(name, "--local-size")) {
      xe_strlist_add(&o->local_size, val);
   } else if (!strcmp(name, "--specialize")) {
      xe_strlist_add(&o->specialize, val);
   } else if (!strcmp(name, "--target") || !strcmp(name, "--isa-check")) {
      unsigned set;
      if (name[2] == 't' && !strcmp(val, "none"))
         set = XE_TARGET_NONE; /* the model is not asked (bench/isa-cases measures it) */
      else if (!xe_device_parse_set(val, &set))
         return fail_opt(err, "option %s takes devices dg2, pvc or dg2,pvc, not '%s'", name, val);
      *(name[2] == 't' ? &o->target : &o->isa_check) = set;
   }
   return true;
}
