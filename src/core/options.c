/*
 * Options and the helpers passes use to read per-kernel option values.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include "cost.h"
#include "pass.h"

void xe_strlist_add(xe_strlist *l, const char *s)
{
   l->v = realloc(l->v, (l->n + 1) * sizeof(char *));
   if (!l->v)
      xe_out_of_memory();
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

static void launch_opts_free(xe_kernel_launch_opts *l)
{
   for (unsigned k = 0; k < l->n; k++) {
      free(l->v[k].kernel);
      free(l->v[k].text);
   }
   free(l->v);
   l->v = NULL;
   l->n = 0;
}

void xe_options_free(xe_options *o)
{
   xe_strlist_free(&o->passes);
   xe_strlist_free(&o->assume_padded);
   launch_opts_free(&o->subgroup_size);
   launch_opts_free(&o->local_size);
   xe_strlist_free(&o->specialize);
   cJSON_Delete(o->verify_launches);
   o->verify_launches = NULL;
   free(o->ocloc);
   o->ocloc = NULL;
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

static const xe_kernel_launch_opt *launch_lookup(const xe_kernel_launch_opts *l,
                                                 const char *kernel)
{
   const xe_kernel_launch_opt *general = NULL, *specific = NULL;
   for (unsigned k = 0; k < l->n; k++) {
      if (!l->v[k].kernel)
         general = &l->v[k];
      else if (!strcmp(l->v[k].kernel, kernel))
         specific = &l->v[k];
   }
   return specific ? specific : general;
}

const xe_kernel_launch_opt *xe_options_subgroup_size(const xe_options *o, const char *kernel)
{
   return launch_lookup(&o->subgroup_size, kernel);
}

const xe_kernel_launch_opt *xe_options_local_size(const xe_options *o, const char *kernel)
{
   return launch_lookup(&o->local_size, kernel);
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
   { "--verify-launch", V_REQUIRED },
   { "--assume-padded", V_OPTIONAL }, { "--assume-aligned", V_NONE },
   { "--subgroup-size", V_REQUIRED }, { "--local-size", V_REQUIRED },
   { "--specialize", V_REQUIRED },
   { "--target", V_REQUIRED }, { "--isa-check", V_REQUIRED },
   { "--measure-path", V_REQUIRED }, { "--ocloc", V_REQUIRED },
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
      xe_out_of_memory();
   return false;
}

/* A decimal number without sign or spaces, at most 9 digits (so that it
 * fits the range checks below); false otherwise. */
static bool parse_dec(const char *s, size_t n, uint32_t *v)
{
   if (!n || n > 9)
      return false;
   uint32_t x = 0;
   for (size_t k = 0; k < n; k++) {
      if (s[k] < '0' || s[k] > '9')
         return false;
      x = x * 10 + (uint32_t)(s[k] - '0');
   }
   *v = x;
   return true;
}

/* Parses "[KERNEL:]VALUE" of --subgroup-size (N: 8, 16 or 32) or
 * --local-size (X[,Y,Z]: each 1..1024) into l. */
static bool parse_launch(xe_kernel_launch_opts *l, const char *name, const char *val, char **err)
{
   bool sg = !strcmp(name, "--subgroup-size");
   const char *colon = strchr(val, ':'), *text = colon ? colon + 1 : val;
   if (colon == val)
      return fail_opt(err, "option %s=%s: empty kernel name before ':'", name, val);
   xe_kernel_launch_opt e = { NULL, NULL, { 0, 1, 1 } };
   if (sg) {
      if (!parse_dec(text, strlen(text), &e.v[0]))
         return fail_opt(err, "option %s: '%s' is not a number (expected [KERNEL:]N with N "
                              "8, 16 or 32)", name, text);
      if (e.v[0] != 8 && e.v[0] != 16 && e.v[0] != 32)
         return fail_opt(err, "option %s: sub-group size %s is not supported (use 8, 16 or 32)",
                         name, text);
   } else {
      const char *s = text;
      for (unsigned d = 0;; d++) {
         const char *comma = strchr(s, ',');
         size_t n = comma ? (size_t)(comma - s) : strlen(s);
         if (d == 3 || !parse_dec(s, n, &e.v[d]))
            return fail_opt(err, "option %s: '%s' is not a local size (expected [KERNEL:]X[,Y,Z])",
                            name, text);
         if (e.v[d] < 1 || e.v[d] > 1024)
            return fail_opt(err, "option %s: local size %s is out of range (each dimension 1 "
                                 "to 1024)", name, text);
         if (!comma)
            break;
         s = comma + 1;
      }
   }
   e.kernel = colon ? strndup(val, (size_t)(colon - val)) : NULL;
   e.text = strdup(text);
   l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
   if (!l->v || !e.text || (colon && !e.kernel))
      xe_out_of_memory();
   l->v[l->n++] = e;
   return true;
}

/* "K1,K2,...": no name empty (an empty value once meant every kernel). */
static bool kernel_list_ok(const char *val)
{
   size_t n = strlen(val);
   return n && val[0] != ',' && val[n - 1] != ',' && !strstr(val, ",,");
}

/* --specialize's value: KERNEL:ARG=VALUE, each part present and VALUE an
 * integer as loop-spec-constants reads it (strtoll or strtoull, base 0);
 * whether it fits the argument's type is the pass's to say. */
static bool specialize_ok(const char *val, char **err)
{
   const char *colon = strchr(val, ':'), *eq = colon ? strchr(colon, '=') : NULL;
   if (!eq || colon == val || eq == colon + 1 || !eq[1])
      return fail_opt(err, "option --specialize: '%s' is not KERNEL:ARG=VALUE%s", val, "");
   char *end;
   errno = 0;
   (void)strtoll(eq + 1, &end, 0);
   if (errno || *end) {
      errno = 0;
      (void)strtoull(eq + 1, &end, 0);
      if (errno || *end || eq[1] == '-')
         return fail_opt(err, "option --specialize=%s: '%s' is not an integer", val, eq + 1);
   }
   return true;
}

/* --verify-launch=FILE: one launch object or an array of them, each with
 * at least "kernel" and "global" (the rest is checked when the launch runs,
 * against the kernel's parameters). */
static bool read_launches(xe_options *o, const char *path, char **err)
{
   FILE *f = fopen(path, "rb");
   char *text = NULL;
   size_t n = 0;
   if (f) {
      FILE *mem = open_memstream(&text, &n);
      char chunk[4096];
      size_t got;
      while (mem && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
         fwrite(chunk, 1, got, mem);
      if (mem)
         fclose(mem);
      fclose(f);
   }
   if (!text)
      return fail_opt(err, "--verify-launch: %s: %s", path, "cannot read the file");
   cJSON *js = cJSON_ParseWithLength(text, n);
   free(text);
   if (!js)
      return fail_opt(err, "--verify-launch: %s: %s", path, "not valid JSON");
   if (!o->verify_launches)
      o->verify_launches = cJSON_CreateArray();
   cJSON *list = js;
   if (!cJSON_IsArray(js)) {
      list = cJSON_CreateArray();
      cJSON_AddItemToArray(list, js);
   }
   bool ok = true;
   cJSON *it;
   cJSON_ArrayForEach(it, list) {
      if (!cJSON_IsString(cJSON_GetObjectItem(it, "kernel")) ||
          !cJSON_IsArray(cJSON_GetObjectItem(it, "global"))) {
         ok = fail_opt(err, "--verify-launch: %s: %s", path,
                       "every launch needs \"kernel\" (a name) and \"global\" (an array)");
         break;
      }
   }
   while (ok && cJSON_GetArraySize(list))
      cJSON_AddItemToArray(o->verify_launches, cJSON_DetachItemFromArray(list, 0));
   cJSON_Delete(list);
   return ok;
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
   } else if (!strcmp(name, "--verify-launch")) {
      if (!read_launches(o, val, err))
         return false;
      if (!o->verify)
         o->verify = 3;
   } else if (!strcmp(name, "--assume-padded")) {
      if (val && !kernel_list_ok(val))
         return fail_opt(err, "option --assume-padded=%s: an empty kernel name (give "
                              "--assume-padded for every kernel, or --assume-padded=K1,K2)%s", val, "");
      xe_strlist_add(&o->assume_padded, val ? val : "");
   } else if (!strcmp(name, "--assume-aligned")) {
      o->assume_aligned = true;
   } else if (!strcmp(name, "--subgroup-size")) {
      return parse_launch(&o->subgroup_size, name, val, err);
   } else if (!strcmp(name, "--local-size")) {
      return parse_launch(&o->local_size, name, val, err);
   } else if (!strcmp(name, "--specialize")) {
      if (!specialize_ok(val, err))
         return false;
      xe_strlist_add(&o->specialize, val);
   } else if (!strcmp(name, "--target") || !strcmp(name, "--isa-check")) {
      unsigned set;
      if (name[2] == 't' && !strcmp(val, "none"))
         set = XE_TARGET_NONE; /* the model is not asked (bench/isa-cases measures it) */
      else if (!xe_device_parse_set(val, &set))
         return fail_opt(err, "option %s takes devices (dg2, pvc, bmg, lnl, ptl, a comma-separated list, or all), not '%s'", name, val);
      *(name[2] == 't' ? &o->target : &o->isa_check) = set;
   } else if (!strcmp(name, "--ocloc")) {
      /* The ocloc --isa-check runs (ocloc 22.x or 26.x, src/igc/ocloc.c),
       * kept here: the library has no process-wide state, so two options
       * objects may name two ocloc. */
      free(o->ocloc);
      if (!(o->ocloc = strdup(val)))
         abort();
   } else if (!strcmp(name, "--measure-path")) {
      if (!strcmp(val, "fast"))
         o->measure_path = XE_MEASURE_FAST;
      else if (!strcmp(val, "slow"))
         o->measure_path = XE_MEASURE_SLOW;
      else
         return fail_opt(err, "option %s takes fast or slow, not '%s'", name, val);
   }
   return true;
}

/* Appends the module's kernels to *msg for an error: at most 20 names. */
static void list_kernels(char **msg, const char *const *names, unsigned n)
{
   FILE *f = open_memstream(msg, &(size_t){ 0 });
   if (!f)
      abort();
   if (!n)
      fputs("it has none", f);
   for (unsigned k = 0; k < n && k < 20; k++)
      fprintf(f, "%s%s", k ? ", " : "its kernels: ", names[k]);
   if (n > 20)
      fprintf(f, ", ... (%u in all)", n);
   fclose(f);
}

static bool known_kernel(const char *name, size_t len, const char *const *names, unsigned n)
{
   for (unsigned k = 0; k < n; k++) {
      if (strlen(names[k]) == len && !strncmp(names[k], name, len))
         return true;
   }
   return false;
}

/* The error for option opt=val naming kernel (len bytes) that the module
 * does not have. */
static bool no_kernel(char **err, const char *opt, const char *val, const char *kernel, size_t len,
                      const char *const *names, unsigned n)
{
   char *list = NULL;
   list_kernels(&list, names, n);
   if (err && asprintf(err, "option %s=%s: the module has no kernel '%.*s' (%s)", opt, val, (int)len,
                       kernel, list) < 0)
      abort();
   free(list);
   return false;
}

static bool launch_kernels_ok(const xe_kernel_launch_opts *l, const char *opt,
                              const char *const *names, unsigned n, char **err)
{
   for (unsigned k = 0; k < l->n; k++) {
      const char *kn = l->v[k].kernel;
      if (kn && !known_kernel(kn, strlen(kn), names, n)) {
         char *val;
         if (asprintf(&val, "%s:%s", kn, l->v[k].text) < 0)
            abort();
         no_kernel(err, opt, val, kn, strlen(kn), names, n);
         free(val);
         return false;
      }
   }
   return true;
}

bool xe_options_check_kernels(const xe_options *o, const char *const *names, unsigned n, char **err)
{
   for (unsigned k = 0; k < o->assume_padded.n; k++) {
      const char *v = o->assume_padded.v[k];
      for (const char *s = v; *s;) {
         size_t len = strcspn(s, ",");
         if (!known_kernel(s, len, names, n))
            return no_kernel(err, "--assume-padded", v, s, len, names, n);
         s += len + (s[len] == ',');
      }
   }
   for (unsigned k = 0; k < o->specialize.n; k++) {
      const char *v = o->specialize.v[k];
      size_t len = strcspn(v, ":");
      if (!known_kernel(v, len, names, n))
         return no_kernel(err, "--specialize", v, v, len, names, n);
   }
   return launch_kernels_ok(&o->subgroup_size, "--subgroup-size", names, n, err) &&
          launch_kernels_ok(&o->local_size, "--local-size", names, n, err);
}
