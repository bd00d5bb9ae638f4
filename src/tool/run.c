/*
 * `xeopt run`: try a kernel on the CPU.  Arguments are typed on the command
 * line (--arg I=buf:TYPE:COUNT[:FILL], I=TYPE:VALUE, I=local:BYTES) or given
 * in a JSON launch file with the same strings.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "io.h"
#include "exec.h"
#include "internal.h"
#include "launch.h"
#include "runnable.h"

static const char *usage =
   "usage: xeopt run MODULE.spv --kernel NAME --global X[,Y,Z] [options]\n"
   "  --kernel NAME          kernel entry point to run\n"
   "  --global X[,Y,Z]       global size (work-items)\n"
   "  --local X[,Y,Z]        work-group size (default: LocalSize, else 16)\n"
   "  --offset X[,Y,Z]       global offset\n"
   "  --subgroup-size N      sub-group size (default: SubgroupSize, else 16)\n"
   "  --arg I=buf:TYPE:COUNT[:FILL]   buffer of COUNT elements; FILL is zero (default),\n"
   "                         random, iota or const=V\n"
   "  --arg I=TYPE:VALUE     scalar argument\n"
   "  --arg I=local:BYTES    local-memory pointer argument\n"
   "  --arg I=image:ORDER:CHANNEL:W[xH[xD]][:FILL]   1-D/2-D/3-D image (printed and\n"
   "                         dumped like a buffer of channels, rows packed)\n"
   "  --arg I=sampler:ADDRESSING:COORDS:FILTER   sampler_t argument\n"
   "  --spec ID=VALUE        specialization constant override (converted to the\n"
   "                         constant's type: --spec 0=1.5 for a float)\n"
   "  --seed S               random seed (default 1)\n"
   "  --launch FILE.json     {\"kernel\":..,\"global\":[..],\"local\":[..],\"offset\":[..],\n"
   "                         \"subgroup_size\":N,\"args\":[\"buf:int:16:iota\",..],\"spec\":{\"ID\":V}}\n"
   "                         (command-line options override)\n"
   "  --print-all            print every element of the buffers (default: first 16)\n"
   "  --dump DIR             write buffer I to DIR/argI.bin instead of printing\n"
   "  --racecheck            report data races (one line per racing instruction pair\n"
   "                         on stderr); exit status 1 when there is one\n"
   "\n"
   "       xeopt run --compare ORIGINAL.spv CHANGED.spv [--launches N] [--manifest CHANGED.json]\n"
   "                         the --verify check on two given modules: exit 1 on a difference\n"
   "  TYPE: char uchar short ushort int uint long ulong half float double\n"
   "  ORDER: r a rg ra rgba bgra argb intensity luminance\n"
   "  CHANNEL: unorm8 unorm16 snorm8 snorm16 int8 int16 int32 uint8 uint16 uint32 half float\n"
   "  ADDRESSING: none clamp_to_edge clamp repeat mirrored_repeat; COORDS: normalized\n"
   "  unnormalized; FILTER: nearest linear\n";

static bool parse_dims(const char *s, uint64_t *d, unsigned *dims)
{
   char *end;
   unsigned k = 0;
   d[0] = d[1] = d[2] = 0;
   do {
      if (k == 3) return false;
      errno = 0;
      d[k++] = strtoull(s, &end, 0);
      if (errno || end == s) return false;
      s = end + 1;
   } while (*end == ',');
   if (dims) *dims = k;
   return *end == 0;
}

static void print_elem(const xe_arg_spec *a, const uint8_t *p)
{
   if (a->is_float) printf("%g", ld_f(p, a->elem));
   else if (a->is_signed) printf("%lld", (long long)ld_s(p, a->elem));
   else printf("%llu", (unsigned long long)ld_u(p, a->elem));
}

static xe_module *load(const char *path)
{
   char *err = NULL;
   size_t n;
   void *bytes = xe_read_file(path, &n, &err);
   if (!bytes) { xe_error(path, "%s", err); free(err); return NULL; }
   xe_module *m = xe_read(bytes, n, &err);
   free(bytes);
   if (!m) { xe_error(path, "%s", err); free(err); return NULL; }
   if (!xe_check_runnable(m, &err)) {
      xe_error(path, "cannot run a module that does not validate: %s", err);
      free(err);
      xe_module_free(m);
      return NULL;
   }
   return m;
}

static int compare(int argc, char **argv)
{
   unsigned n = 3;
   const char *files[2] = {0}, *manifest = NULL;
   int nf = 0;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--compare")) continue;
      if (!strcmp(argv[i], "--launches") && i + 1 < argc) n = (unsigned)atoi(argv[++i]);
      else if (!strcmp(argv[i], "--manifest") && i + 1 < argc) manifest = argv[++i];
      else if (nf < 2) files[nf++] = argv[i];
      else { xe_error(NULL, "--compare takes two modules"); return 2; }
   }
   if (nf != 2) { xe_error(NULL, "--compare takes two modules"); return 2; }
   xe_module *a = load(files[0]), *b = a ? load(files[1]) : NULL;
   if (!a || !b) return 1;
   if (manifest) {
      char *err = NULL;
      size_t len;
      char *text = xe_read_file(manifest, &len, &err);
      if (!text || !(b->manifest = cJSON_ParseWithLength(text, len))) {
         xe_error(manifest, "%s", err ? err : "not valid JSON");
         return 1;
      }
      free(text);
   }
   char *text = NULL;
   size_t len = 0;
   FILE *log = open_memstream(&text, &len);
   if (!log) xe_out_of_memory();
   int rc = xe_exec_verify(a, b, n ? n : 3, false, log);
   fclose(log);
   for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
      if ((e = strchr(l, '\n')))
         *e = 0;
      fprintf(stderr, "xeopt run: %s\n", l);
   }
   free(text);
   if (!rc) fprintf(stderr, "xeopt run: %s and %s agree\n", files[0], files[1]);
   xe_module_free(a);
   xe_module_free(b);
   return rc;
}

int xe_cmd_run(int argc, char **argv)
{
   for (int i = 1; i < argc; i++)
      if (!strcmp(argv[i], "--compare")) return compare(argc, argv);
   const char *path = NULL, *kernel = NULL, *dump = NULL, *launch_file = NULL;
   xe_launch l = {0};
   xe_arg_spec specs[XE_EXEC_MAX_ARGS] = {0};
   uint64_t seed = 1;
   bool print_all = false, have_global = false, racecheck = false;
   unsigned dims = 1;
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDVAL() do { if (!val) { xe_error(NULL, "%s needs a value", a); return 2; } i++; } while (0)
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage, stdout); return 0; }
      else if (!strcmp(a, "--kernel")) { NEEDVAL(); kernel = val; }
      else if (!strcmp(a, "--global")) { NEEDVAL(); if (!parse_dims(val, l.global, &dims)) goto bad; have_global = true; }
      else if (!strcmp(a, "--local")) { NEEDVAL(); if (!parse_dims(val, l.local, NULL)) goto bad; }
      else if (!strcmp(a, "--offset")) { NEEDVAL(); if (!parse_dims(val, l.offset, NULL)) goto bad; }
      else if (!strcmp(a, "--subgroup-size")) { NEEDVAL(); l.subgroup_size = (unsigned)atoi(val); }
      else if (!strcmp(a, "--seed")) { NEEDVAL(); seed = strtoull(val, NULL, 0); }
      else if (!strcmp(a, "--dump")) { NEEDVAL(); dump = val; }
      else if (!strcmp(a, "--launch")) { NEEDVAL(); launch_file = val; }
      else if (!strcmp(a, "--print-all")) print_all = true;
      else if (!strcmp(a, "--racecheck")) racecheck = true;
      else if (!strcmp(a, "--arg")) {
         NEEDVAL();
         char *end;
         unsigned k = (unsigned)strtoul(val, &end, 10);
         if (*end != '=' || k >= XE_EXEC_MAX_ARGS || !xe_arg_spec_parse(end + 1, &specs[k])) goto bad;
      } else if (!strcmp(a, "--spec")) {
         NEEDVAL();
         char *end;
         if (l.nspec == XE_EXEC_MAX_SPEC) goto bad;
         l.spec_id[l.nspec] = (uint32_t)strtoul(val, &end, 0);
         if (*end != '=') goto bad;
         if (strpbrk(end + 1, ".eEn")) {
            double f = strtod(end + 1, NULL);
            memcpy(&l.spec_value[l.nspec], &f, 8);
            l.spec_float[l.nspec++] = true;
         } else {
            l.spec_value[l.nspec++] = (uint64_t)strtoll(end + 1, NULL, 0);
         }
      } else if (a[0] == '-' && a[1]) { xe_error(NULL, "unknown option %s (see xeopt run --help)", a); return 2; }
      else if (!path) path = a;
      else { xe_error(NULL, "more than one module given"); return 2; }
      continue;
   bad:
      xe_error(NULL, "bad value for %s: '%s' (see xeopt run --help)", a, val);
      return 2;
   }
   if (!path) { fputs(usage, stderr); return 2; }
   char *err = NULL;
   cJSON *js = NULL;
   if (launch_file) {
      size_t n;
      char *text = xe_read_file(launch_file, &n, &err);
      if (!text) { xe_error(launch_file, "%s", err); return 1; }
      js = cJSON_ParseWithLength(text, n);
      free(text);
      if (!js) { xe_error(launch_file, "not valid JSON"); return 1; }
      cJSON *it;
      if (!kernel && (it = cJSON_GetObjectItem(js, "kernel")) && cJSON_IsString(it)) kernel = it->valuestring;
      const char *dn[3] = {"global", "local", "offset"};
      uint64_t *dv[3] = {l.global, l.local, l.offset};
      for (int d = 0; d < 3; d++) {
         if (d == 0 && have_global) continue;
         cJSON *arr = cJSON_GetObjectItem(js, dn[d]);
         int k = 0;
         cJSON_ArrayForEach(it, arr) if (k < 3) dv[d][k++] = (uint64_t)it->valuedouble;
         if (d == 0 && k) { dims = (unsigned)k; have_global = true; }
      }
      if (!l.subgroup_size && cJSON_IsNumber(it = cJSON_GetObjectItem(js, "subgroup_size")))
         l.subgroup_size = (unsigned)it->valuedouble;
      int k = 0;
      cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, "args")) {
         if (k < XE_EXEC_MAX_ARGS && !specs[k].kind &&
             (!cJSON_IsString(it) || !xe_arg_spec_parse(it->valuestring, &specs[k]))) {
            xe_error(launch_file, "bad argument %d", k);
            return 1;
         }
         k++;
      }
      cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, "spec")) if (l.nspec < XE_EXEC_MAX_SPEC) {
         l.spec_id[l.nspec] = (uint32_t)atoi(it->string);
         memcpy(&l.spec_value[l.nspec], &it->valuedouble, 8);
         l.spec_float[l.nspec++] = true;
      }
   }
   if (!kernel || !have_global) { xe_error(NULL, "--kernel and --global are required (see xeopt run --help)"); return 2; }
   l.kernel = kernel;
   l.dims = dims;
   l.racecheck = racecheck;
   char *race_text = NULL;
   size_t race_len = 0;
   if (racecheck && !(l.race_log = open_memstream(&race_text, &race_len))) xe_out_of_memory();
   size_t nbytes;
   void *bytes = xe_read_file(path, &nbytes, &err);
   if (!bytes) { xe_error(path, "%s", err); free(err); return 1; }
   xe_module *m = xe_read(bytes, nbytes, &err);
   free(bytes);
   if (!m) { xe_error(path, "%s", err); free(err); return 1; }
   if (!xe_check_runnable(m, &err)) {
      xe_error(path, "cannot run a module that does not validate: %s", err);
      free(err);
      xe_module_free(m);
      return 1;
   }
   int np = xe_exec_params(m, kernel, NULL, NULL, NULL, 0);
   if (np < 0) { xe_error(path, "no kernel named '%s'", kernel); xe_module_free(m); return 1; }
   l.nargs = (unsigned)np;
   for (int k = 0; k < np; k++) {
      if (!specs[k].kind) {
         xe_error(NULL, "argument %d of %s is not given (--arg %d=...)", k, kernel, k);
         for (int j = 0; j < k; j++) free(l.args[j].data);
         cJSON_Delete(js);
         xe_module_free(m);
         return 1;
      }
      xe_arg_materialize(&specs[k], &l.args[k], seed * 7919 + (uint64_t)k);
   }
   bool ran = xe_exec_run(m, &l, &err);
   if (l.race_log) {
      fclose(l.race_log);
      for (char *ln = race_text, *e; ln && *ln; ln = e ? e + 1 : NULL) {
         if ((e = strchr(ln, '\n'))) *e = 0;
         fprintf(stderr, "xeopt run: %s\n", ln);
      }
      free(race_text);
   }
   if (!ran) {
      xe_error(path, "%s", err);
      free(err);
      for (int k = 0; k < np; k++) free(l.args[k].data);
      cJSON_Delete(js);
      xe_module_free(m);
      return 1;
   }
   if (dump) mkdir(dump, 0777);
   for (int k = 0; k < np; k++) {
      if (specs[k].kind != XE_ARG_BUFFER && specs[k].kind != XE_ARG_IMAGE) continue;
      if (dump) {
         char *f;
         if (asprintf(&f, "%s/arg%d.bin", dump, k) < 0) return 1;
         if (xe_write_file_atomic(f, l.args[k].data, l.args[k].size, &err)) { xe_error(f, "%s", err); return 1; }
         free(f);
         continue;
      }
      uint64_t n = specs[k].count, shown = print_all || n <= 16 ? n : 16;
      printf("arg %d (%s[%llu]):", k, specs[k].type_name, (unsigned long long)n);
      for (uint64_t e = 0; e < shown; e++) {
         putchar(' ');
         print_elem(&specs[k], l.args[k].data + e * specs[k].elem);
      }
      printf("%s\n", shown < n ? " ..." : "");
   }
   fprintf(stderr, "xeopt run: %llu work-item instructions\n", (unsigned long long)l.steps);
   if (racecheck)
      fprintf(stderr, "xeopt run: %llu data race%s\n", (unsigned long long)l.races, l.races == 1 ? "" : "s");
   for (int k = 0; k < np; k++) free(l.args[k].data);
   cJSON_Delete(js);
   xe_module_free(m);
   return l.races ? 1 : 0;
}
