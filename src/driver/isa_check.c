/*
 * --isa-check: IGC in the loop (isa_check.h).
 *
 * Each kernel heap is counted by isa_count.c, with bench/isa's rules, so
 * the verdicts use the numbers the sweep and the README tables report.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "isa_check.h"
#include "isa_count.h"
#include "io.h"

static char *find_tool(const char *env, const char *name)
{
   const char *e = getenv(env);
   if (e && *e)
      return access(e, X_OK) == 0 ? strdup(e) : NULL;
   const char *path = getenv("PATH");
   if (!path)
      return NULL;
   char *copy = strdup(path), *save = NULL, *found = NULL;
   for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
      char *p;
      if (asprintf(&p, "%s/%s", *d ? d : ".", name) < 0)
         abort();
      if (access(p, X_OK) == 0)
         found = p;
      else
         free(p);
   }
   free(copy);
   return found;
}

/* The ocloc to run: $XEOPT_OCLOC (what --ocloc sets), else $OCLOC, else
 * ocloc on PATH. */
static char *find_ocloc(void)
{
   const char *e = getenv("XEOPT_OCLOC");
   if (e && *e)
      return access(e, X_OK) == 0 ? strdup(e) : NULL;
   return find_tool("OCLOC", "ocloc");
}

static int run_tool(char *const argv[], const char *out, const char *log);
static char *slurp(const char *path);
static void rm_rf(const char *path);

/* What `ocloc --version` says, cached per ocloc path: "26.27.039122" for
 * ocloc 26 (IGC 2.x); ocloc 22.x has no --version ("" then).  The format
 * of ocloc's output is decided by what disasm writes, not by this. */
static const char *ocloc_version(const char *ocloc)
{
   static char *path, version[64];
   if (path && !strcmp(path, ocloc))
      return version;
   free(path);
   path = strdup(ocloc);
   version[0] = 0;
   const char *tmpdir = getenv("TMPDIR");
   char *tmpl;
   if (asprintf(&tmpl, "%s/xeopt-oclocv.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
      abort();
   if (mkdtemp(tmpl)) {
      char *out, *log;
      if (asprintf(&out, "%s/out", tmpl) < 0 || asprintf(&log, "%s/log", tmpl) < 0)
         abort();
      char *argv[] = { (char *)ocloc, "--version", NULL };
      char *text = run_tool(argv, out, log) == 0 ? slurp(out) : NULL;
      if (text) {
         size_t n = strcspn(text, " \t\r\n");
         if (n && n < sizeof(version) && isdigit((unsigned char)text[0]))
            memcpy(version, text, n), version[n] = 0;
      }
      free(text);
      unlink(out);
      unlink(log);
      rmdir(tmpl);
      free(out);
      free(log);
   }
   free(tmpl);
   return version;
}

/* ocloc 23 and later (IGC 2.x) print their kernels as text themselves;
 * ocloc 22.x leaves kernel heaps for iga64. */
static bool ocloc_is_new(const char *ocloc)
{
   return atoi(ocloc_version(ocloc)) >= 23;
}

char *xe_isa_judge(void)
{
   char *o = find_ocloc(), *s;
   if (!o)
      return strdup("no ocloc");
   const char *v = ocloc_version(o);
   if (asprintf(&s, "ocloc %s (%s, IGC %s)", *v ? v : "22.x", o, ocloc_is_new(o) ? "2.x" : "1.0") < 0)
      abort();
   free(o);
   return s;
}

bool xe_isa_check_tools(char **err)
{
   char *o = find_ocloc(), *i = NULL;
   bool ok = o != NULL;
   if (!o)
      *err = strdup("--isa-check needs ocloc (IGC), not found");
   else if (!ocloc_is_new(o) && !(i = find_tool("IGA64", "iga64"))) {
      *err = strdup("--isa-check needs iga64 (Intel Graphics Assembler), not found");
      ok = false;
   }
   free(o);
   free(i);
   return ok;
}

/* Runs argv with standard output to out (NULL: a log file), standard
 * error to the log; returns the exit status, -1 if it could not run. */
static int run_tool(char *const argv[], const char *out, const char *log)
{
   pid_t pid = fork();
   if (pid < 0)
      return -1;
   if (pid == 0) {
      int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      int of = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600) : lf;
      if (lf < 0 || of < 0)
         _exit(127);
      dup2(of, 1);
      dup2(lf, 2);
      int nul = open("/dev/null", O_RDONLY);
      if (nul >= 0)
         dup2(nul, 0);
      execv(argv[0], argv);
      _exit(127);
   }
   int st;
   if (waitpid(pid, &st, 0) < 0)
      return -1;
   return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *buf = NULL;
   size_t len = 0, cap = 0, k;
   char chunk[8192];
   while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0) {
      if (len + k + 1 > cap) {
         cap = (len + k + 1) * 2;
         buf = realloc(buf, cap);
         if (!buf)
            abort();
      }
      memcpy(buf + len, chunk, k);
      len += k;
   }
   fclose(f);
   if (!buf)
      buf = calloc(1, 1);
   else
      buf[len] = 0;
   return buf;
}

static int by_name(const void *a, const void *b)
{
   return strcmp(((const xe_isa_kernel *)a)->name, ((const xe_isa_kernel *)b)->name);
}

void xe_isa_kernels_free(xe_isa_kernel *k, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      free(k[i].name);
   free(k);
}

/* The first regular file in dir whose name starts with prefix: what ocloc
 * compile wrote.  ocloc 22.x writes -output's name exactly under
 * -output_no_suffix; ocloc 26 appends ".bin" (or a device suffix) anyway. */
static char *find_output(const char *dir, const char *prefix)
{
   DIR *d = opendir(dir);
   char *found = NULL;
   struct dirent *de;
   while (d && !found && (de = readdir(d))) {
      struct stat st;
      char *p;
      if (strncmp(de->d_name, prefix, strlen(prefix)))
         continue;
      if (asprintf(&p, "%s/%s", dir, de->d_name) < 0)
         abort();
      if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
         found = p;
      else
         free(p);
   }
   if (d)
      closedir(d);
   return found;
}

/* IGC 2.x's own estimates: numCycles per kernel and SIMD width, from the
 * -dumpVISAJsonStats files under an IGC dump directory
 * (OCL_asm<hash>_simd<W>_entry_<n>.stats.json, each a JSON array of
 * {"name", "numCycles", ...}), read once per module. */
typedef struct {
   char *name;
   unsigned simd, cycles;
} igc_stat;

static igc_stat *igc_stats_read(const char *dir, unsigned *n)
{
   igc_stat *v = NULL;
   *n = 0;
   DIR *d = opendir(dir);
   struct dirent *de;
   static const char suffix[] = ".stats.json";
   while (d && (de = readdir(d))) {
      size_t len = strlen(de->d_name), sl = sizeof(suffix) - 1;
      if (len <= sl || strcmp(de->d_name + len - sl, suffix))
         continue;
      const char *w = strstr(de->d_name, "_simd");
      unsigned width = w ? (unsigned)strtoul(w + 5, NULL, 10) : 0;
      char *p;
      if (asprintf(&p, "%s/%s", dir, de->d_name) < 0)
         abort();
      char *text = slurp(p);
      free(p);
      cJSON *j = text ? cJSON_Parse(text) : NULL;
      free(text);
      cJSON *arr = cJSON_IsArray(j) ? j : NULL, *e;
      cJSON_ArrayForEach(e, arr) {
         const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
         const cJSON *cy = cJSON_GetObjectItemCaseSensitive(e, "numCycles");
         if (!cJSON_IsString(nm) || !cJSON_IsNumber(cy) || cy->valuedouble < 0)
            continue;
         v = realloc(v, (*n + 1) * sizeof(*v));
         if (!v)
            abort();
         v[*n] = (igc_stat){ strdup(nm->valuestring), width, (unsigned)cy->valuedouble };
         if (!v[*n].name)
            abort();
         (*n)++;
      }
      cJSON_Delete(j);
   }
   if (d)
      closedir(d);
   return v;
}

static void igc_stats_free(igc_stat *v, unsigned n)
{
   for (unsigned k = 0; k < n; k++)
      free(v[k].name);
   free(v);
}

/* numCycles of kernel at SIMD width simd: the variant of the dispatched
 * width when IGC dumped several, else the first; 0 when none. */
static unsigned igc_cycles(const igc_stat *v, unsigned n, const char *kernel, unsigned simd)
{
   unsigned best = 0;
   for (unsigned k = 0; k < n; k++) {
      if (strcmp(v[k].name, kernel))
         continue;
      if (simd && v[k].simd == simd)
         return v[k].cycles;
      if (!best)
         best = v[k].cycles;
   }
   return best;
}

bool xe_isa_module_counts(const char *spv, enum xe_device d, const char *work, xe_isa_kernel **out,
                          unsigned *nout, char **err)
{
   *out = NULL;
   *nout = 0;
   char *ocloc = find_ocloc(), *iga = NULL;
   char *cdir = NULL, *bin0 = NULL, *bin = NULL, *dump = NULL, *log = NULL, *igcdir = NULL,
        *igcopts = NULL;
   bool ok = false;
   if (!ocloc) {
      xe_isa_check_tools(err);
      goto done;
   }
   bool gen2 = ocloc_is_new(ocloc);
   const char *dev = xe_device_name(d);
   if (!gen2 && !xe_device_iga_platform(d)) {
      if (asprintf(err, "%s needs ocloc 26 (IGC 2.x); %s is ocloc 22.x (--ocloc=PATH picks another)", dev,
                   ocloc) < 0)
         abort();
      goto done;
   }
   if (asprintf(&cdir, "%s/%s.c", work, dev) < 0 || asprintf(&bin0, "%s/bin", cdir) < 0 ||
       asprintf(&dump, "%s/%s.dump", work, dev) < 0 || asprintf(&log, "%s/%s.log", work, dev) < 0 ||
       asprintf(&igcdir, "%s/%s.igc", work, dev) < 0 ||
       asprintf(&igcopts, "-igc_opts 'EnableKernelCostInfo=1,ShaderDumpEnable=1,DumpToCustomDir=%s,"
                "VISAOptions=-dumpVISAJsonStats'",
                igcdir) < 0)
      abort();
   /* Nothing of an earlier compile in the same work directory may be read. */
   rm_rf(cdir);
   rm_rf(dump);
   rm_rf(igcdir);
   if (mkdir(cdir, 0700)) {
      if (asprintf(err, "cannot make %s", cdir) < 0)
         abort();
      goto done;
   }
   /* IGC 2.x: its per-kernel statistics (numCycles) and cost info too. */
   char *cargv[] = { ocloc, "compile", "-spirv_input", "-file", (char *)spv, "-device", (char *)dev,
                     "-output", bin0, "-output_no_suffix", "-q", gen2 ? "-options" : NULL, igcopts, NULL };
   if (run_tool(cargv, NULL, log) != 0 || !(bin = find_output(cdir, "bin"))) {
      char *l = slurp(log);
      if (asprintf(err, "ocloc compile for %s failed: %s", dev, l ? l : "") < 0)
         abort();
      free(l);
      goto done;
   }
   char *dargv[] = { ocloc, "disasm", "-file", bin, "-dump", dump, "-device", (char *)dev, NULL };
   if (run_tool(dargv, NULL, log) != 0) {
      if (asprintf(err, "ocloc disasm for %s failed", dev) < 0)
         abort();
      goto done;
   }
   DIR *dir = opendir(dump);
   if (!dir) {
      if (asprintf(err, "ocloc disasm for %s wrote no %s", dev, dump) < 0)
         abort();
      goto done;
   }
   /* ocloc 22.x: <kernel>_KernelHeap.dat, disassembled by iga64.  ocloc
    * 26: .text.<kernel>.asm, the text already. */
   static const char suffix[] = "_KernelHeap.dat", prefix26[] = ".text.", suffix26[] = ".asm";
   struct dirent *de;
   ok = true;
   bool heaps = false;
   while (ok && (de = readdir(dir))) {
      size_t len = strlen(de->d_name), sl = sizeof(suffix) - 1;
      size_t pl26 = sizeof(prefix26) - 1, sl26 = sizeof(suffix26) - 1;
      char *text = NULL, *name = NULL;
      if (len > sl && !strcmp(de->d_name + len - sl, suffix)) {
         heaps = true;
         const char *plat = xe_device_iga_platform(d);
         if (!iga && !(iga = find_tool("IGA64", "iga64"))) {
            *err = strdup("--isa-check needs iga64 (Intel Graphics Assembler), not found");
            ok = false;
            break;
         }
         char *heap, *asmf, pflag[16];
         snprintf(pflag, sizeof(pflag), "-p=%s", plat ? plat : "?");
         if (asprintf(&heap, "%s/%s", dump, de->d_name) < 0 ||
             asprintf(&asmf, "%s/%s.%s.asm", work, de->d_name, dev) < 0)
            abort();
         char *iargv[] = { iga, "-d", pflag, heap, NULL };
         if (!plat || run_tool(iargv, asmf, log) != 0 || !(text = slurp(asmf)) || !*text) {
            if (asprintf(err, "iga64 failed on %s", heap) < 0)
               abort();
            ok = false;
         } else {
            name = strndup(de->d_name, len - sl);
         }
         free(heap);
         free(asmf);
      } else if (len > pl26 + sl26 && !strncmp(de->d_name, prefix26, pl26) &&
                 !strcmp(de->d_name + len - sl26, suffix26) &&
                 /* ocloc 26 adds it to every module: not one of its kernels */
                 strcmp(de->d_name, ".text.Intel_Symbol_Table_Void_Program.asm")) {
         char *asmf;
         if (asprintf(&asmf, "%s/%s", dump, de->d_name) < 0)
            abort();
         text = slurp(asmf);
         free(asmf);
         if (!text) {
            if (asprintf(err, "cannot read %s/%s", dump, de->d_name) < 0)
               abort();
            ok = false;
         } else {
            name = strndup(de->d_name + pl26, len - pl26 - sl26);
         }
      }
      if (ok && name) {
         *out = realloc(*out, (*nout + 1) * sizeof(xe_isa_kernel));
         xe_isa_kernel *k = &(*out)[(*nout)++];
         k->name = name;
         if (!xe_isa_count(d, text, &k->c))
            abort(); /* out of memory */
      }
      free(text);
   }
   closedir(dir);
   if (ok && !*out) {
      if (asprintf(err, "ocloc disasm for %s wrote no kernel to %s", dev, dump) < 0)
         abort();
      ok = false;
   }
   if (ok) {
      /* The SIMD width of each kernel, for xe_cost_isa's per-work-item
       * scale: PTM.txt (ocloc 22.x) or .ze_info (ocloc 26). */
      char *f;
      if (asprintf(&f, heaps ? "%s/PTM.txt" : "%s/.ze_info", dump) < 0)
         abort();
      char *info = slurp(f);
      unsigned nstats = 0;
      igc_stat *stats = gen2 ? igc_stats_read(igcdir, &nstats) : NULL;
      for (unsigned k = 0; info && k < *nout; k++) {
         xe_isa_counts *c = &(*out)[k].c;
         c->simd = heaps ? xe_isa_ptm_simd(info, (*out)[k].name) : xe_isa_zeinfo_simd(info, (*out)[k].name);
         if (gen2) {
            c->igc_cycles = igc_cycles(stats, nstats, (*out)[k].name, c->simd);
            double extra;
            /* A subroutine's loops are in neither numCycles nor the cost
             * info as the kernel's (testdata generic_address_O0's
             * generic_address_global_only: its byte-copy loop in a call,
             * numCycles 108, cost info 1,128 cycles and no loop). */
            if (c->igc_cycles && !c->calls &&
                xe_isa_zeinfo_loop_cycles(info, (*out)[k].name, XE_COST_ASSUMED_TRIPS, &extra))
               c->igc_estimate = c->igc_cycles + extra;
         }
      }
      igc_stats_free(stats, nstats);
      free(info);
      free(f);
      qsort(*out, *nout, sizeof(xe_isa_kernel), by_name);
   }
done:
   if (!ok) {
      xe_isa_kernels_free(*out, *nout);
      *out = NULL;
      *nout = 0;
   }
   free(ocloc);
   free(iga);
   free(cdir);
   free(bin0);
   free(bin);
   free(dump);
   free(log);
   free(igcdir);
   free(igcopts);
   return ok;
}

static const xe_isa_kernel *find(const xe_isa_kernel *k, unsigned n, const char *name)
{
   for (unsigned i = 0; i < n; i++)
      if (!strcmp(k[i].name, name))
         return &k[i];
   return NULL;
}

static void rm_rf(const char *path)
{
   DIR *d = opendir(path);
   if (d) {
      struct dirent *de;
      while ((de = readdir(d))) {
         if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
         char *p;
         if (asprintf(&p, "%s/%s", path, de->d_name) < 0)
            abort();
         rm_rf(p);
         free(p);
      }
      closedir(d);
      rmdir(path);
   } else {
      unlink(path);
   }
}

static bool write_bytes(const char *path, const void *b, size_t n)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return false;
   bool ok = fwrite(b, 1, n, f) == n;
   return fclose(f) == 0 && ok;
}

static void reset(xeopt_result *r)
{
   free(r->error);
   r->error = NULL;
   r->status = XEOPT_OK;
   free(r->warnings);
   r->warnings = strdup("");
   free(r->words);
   r->words = NULL;
   r->nwords = 0;
   free(r->manifest_json);
   r->manifest_json = NULL;
   xe_remarks_free(&r->remarks);
}

/* Does an "applied" remark of kernel exist (of pass and starting with
 * prefix, when they are not NULL)? */
static bool has_applied(const xe_remarks *rem, const char *kernel, const char *pass,
                        const char *prefix)
{
   for (unsigned k = 0; k < rem->n; k++) {
      const xe_remark_entry *e = &rem->v[k];
      if (e->kind == XE_REMARK_APPLIED && e->kernel && !strcmp(e->kernel, kernel) &&
          (!pass || (e->pass && !strcmp(e->pass, pass))) &&
          (!prefix || !strncmp(e->message, prefix, strlen(prefix))))
         return true;
   }
   return false;
}

static bool kernel_applied(const xe_remarks *rem, const char *kernel)
{
   return has_applied(rem, kernel, NULL, NULL);
}

/* Did subgroup-versioning version this kernel? */
static bool kernel_versioned(const xe_remarks *rem, const char *kernel)
{
   return has_applied(rem, kernel, "subgroup-versioning", "versioned ");
}

/* IGC's counts of the two paths of the versioned kernels of one pipeline
 * output: the module rebuilt with --measure-path=fast and =slow (pass.h),
 * each compiled for the checked devices.  [0] fast, [1] slow. */
typedef struct paths {
   xe_isa_kernel *k[2][XE_DEV_COUNT];
   unsigned n[2][XE_DEV_COUNT];
   bool ok;
} paths;

static void paths_free(paths *p)
{
   for (int w = 0; w < 2; w++)
      for (int d = 0; d < XE_DEV_COUNT; d++)
         xe_isa_kernels_free(p->k[w][d], p->n[w][d]);
   memset(p, 0, sizeof(*p));
}

static void paths_measure(paths *p, const xe_options *o2, unsigned devs, const void *bytes,
                          size_t size, const xe_pipeline_hooks *h, xe_optimize_fn optimize,
                          const char *work, char **err)
{
   memset(p, 0, sizeof(*p));
   p->ok = true;
   for (int w = 0; w < 2 && p->ok; w++) {
      xe_options o3 = *o2;
      o3.measure_path = w ? XE_MEASURE_SLOW : XE_MEASURE_FAST;
      o3.verify = 0;              /* a measured path is not the input's program */
      o3.verify_launches = NULL;
      xeopt_result t = { 0 };
      optimize(&t, &o3, bytes, size, h);
      char *path, *dir;
      if (asprintf(&path, "%s/%s.spv", work, w ? "slow" : "fast") < 0 ||
          asprintf(&dir, "%s/%s", work, w ? "slow" : "fast") < 0)
         abort();
      p->ok = t.status == XEOPT_OK && (mkdir(dir, 0700) == 0 || errno == EEXIST) &&
              write_bytes(path, t.words, t.nwords * 4);
      if (!p->ok && !*err)
         *err = strdup(t.error ? t.error : "could not write the measured path");
      for (int d = 0; d < XE_DEV_COUNT && p->ok; d++)
         if (devs & (1u << d))
            p->ok = xe_isa_module_counts(path, d, dir, &p->k[w][d], &p->n[w][d], err);
      reset(&t);
      free(t.warnings);
      free(t.remarks_json);
      free(path);
      free(dir);
   }
}

/* One kernel's ISA estimate, or with igc IGC 2.x's own (0 when IGC gave
 * none), for simd's work-items. */
static double one_estimate(enum xe_device d, const xe_isa_counts *c, unsigned simd, bool igc)
{
   return igc ? xe_cost_igc_at(d, c, simd) : xe_cost_isa_at(d, c, simd);
}

/* The ISA estimate (igc: IGC's own) of kernel b's output on d: for a
 * versioned kernel the two paths weighted as the sub-groups run them
 * (xe_cost_versioned's XE_COST_FAST_FRACTION; docs/cost-model.md
 * "Versioning"), each path's code compiled on its own with the test kept.
 * 0 for igc when IGC gave none for a code the estimate needs. */
static double estimate(enum xe_device d, const xe_isa_kernel *b, const paths *p, const char *name,
                       unsigned simd, bool igc)
{
   if (p && p->ok) {
      const xe_isa_kernel *f = find(p->k[0][d], p->n[0][d], name);
      const xe_isa_kernel *s = find(p->k[1][d], p->n[1][d], name);
      if (f && s) {
         double ef = one_estimate(d, &f->c, simd, igc), es = one_estimate(d, &s->c, simd, igc);
         if (igc && (!ef || !es))
            return 0;
         return XE_COST_FAST_FRACTION * ef + (1 - XE_COST_FAST_FRACTION) * es;
      }
   }
   return one_estimate(d, &b->c, simd, igc);
}

/* Is the output (ISA estimate eb, IGC's estimate ib) worse than the input
 * a on d?  By the ISA estimate, or, where IGC 2.x estimated both, by IGC's
 * own: IGC judges too, and a rewrite stays only where neither says it
 * costs (IGC's estimate weighs cycles with latencies and each loop by its
 * trips; the ISA estimate weighs memory messages by kind). */
static bool scores_worse(enum xe_device d, const xe_isa_counts *a, double eb, double ib)
{
   if (eb > xe_cost_isa_at(d, a, a->simd) * (1 + XE_COST_TIE))
      return true;
   return a->igc_estimate > 0 && ib > 0 && ib > a->igc_estimate * (1 + XE_COST_TIE);
}

/* "pvc 30 -> 37 (22 -> 31 instructions, 2 -> 1 scattered, 0 -> 1 block, 0 -> 0 private)";
 * the SIMD widths when IGC chose different ones (the counts are per thread,
 * the output's estimate per as many work-items as the input's thread). */
static int describe(char *buf, size_t n, enum xe_device d, const xe_isa_counts *a, const xe_isa_counts *b,
                    double eb, double ib, bool versioned)
{
   char simd[80] = "", igc[64] = "";
   if (a->simd && b->simd && a->simd != b->simd)
      snprintf(simd, sizeof(simd), ", SIMD%u -> SIMD%u, estimated per %u work-items", a->simd, b->simd,
               xe_cost_isa_per(d, a->simd));
   if (a->igc_estimate > 0 && ib > 0)
      snprintf(igc, sizeof(igc), ", IGC's estimate %.0f -> %.0f cycles", a->igc_estimate, ib);
   return snprintf(buf, n, "%s %.0f -> %.0f (%u -> %u instructions, loop %u -> %u, %u -> %u "
                   "scattered, %u -> %u block, %u -> %u private%s%s%s)", xe_device_name(d),
                   xe_cost_isa_at(d, a, a->simd), eb, a->instructions, b->instructions, a->loop,
                   b->loop, a->scattered, b->scattered, a->block, b->block, a->priv, b->priv,
                   simd, igc, versioned ? "; counts of both copies, estimate of the two paths as sub-groups run them" : "");
}

/* The rounds start without the cost model and keep whatever IGC does not
 * find worse than the input; the rewrite the model asks for may still be
 * the better one (testdata sg_wide on dg2: ISA estimate 62 with the
 * model, 74 without it, 91 as input).  So once the rounds settle, one
 * probe: the same run with the model asked for every rewritable kernel.
 * When its output differs, it is compiled and scored like a round, and
 * each kernel whose probe estimate is not higher on any checked device
 * and lower on one joins ask_model.  cur/ncur and pcur are the settled
 * round's counts and paths, rem its remarks.  Returns how many kernels
 * joined (the rounds then run again and judge them as usual). */
static unsigned probe_model(xe_options *o2, unsigned devs, const void *bytes, size_t size,
                            const xe_pipeline_hooks *h, xe_optimize_fn optimize, const char *work,
                            const xeopt_result *r, xe_isa_kernel *const *cur, const unsigned *ncur,
                            const paths *pcur, const xe_kernel *ks, unsigned nk, xe_remarks *notes)
{
   xe_options o3 = *o2;
   memset(&o3.ask_model, 0, sizeof(o3.ask_model));
   bool any = false;
   for (unsigned k = 0; k < nk; k++) {
      if (!xe_kernel_rewritable(o2, ks[k].name))
         continue;
      xe_strlist_add(&o3.ask_model, ks[k].name);
      any |= !xe_strlist_has(&o2->ask_model, ks[k].name);
   }
   xeopt_result t = { 0 };
   unsigned added = 0;
   if (any)
      optimize(&t, &o3, bytes, size, h);
   char *path = NULL, *dir = NULL, *err = NULL;
   bool differs = any && t.status == XEOPT_OK &&
                  (t.nwords != r->nwords || memcmp(t.words, r->words, t.nwords * 4));
   if (differs && (asprintf(&path, "%s/probe.spv", work) < 0 || asprintf(&dir, "%s/probe", work) < 0))
      abort();
   bool ok = differs && (mkdir(dir, 0700) == 0 || errno == EEXIST) && write_bytes(path, t.words, t.nwords * 4);
   xe_isa_kernel *pk[XE_DEV_COUNT] = { 0 };
   unsigned npk[XE_DEV_COUNT] = { 0 };
   for (int d = 0; d < XE_DEV_COUNT && ok; d++)
      if (devs & (1u << d))
         ok = xe_isa_module_counts(path, d, dir, &pk[d], &npk[d], &err);
   paths pp = { 0 };
   bool versioned = false;
   for (unsigned k = 0; k < nk && ok; k++)
      versioned |= kernel_versioned(&t.remarks, ks[k].name);
   if (ok && versioned) {
      paths_measure(&pp, &o3, devs, bytes, size, h, optimize, work, &err);
      ok = pp.ok;
   }
   for (unsigned k = 0; k < nk && ok; k++) {
      const char *name = ks[k].name;
      if (!xe_kernel_rewritable(o2, name) || xe_strlist_has(&o2->ask_model, name))
         continue;
      bool lower = false, higher = false;
      char figs[2 * XE_DEV_COUNT][64];
      unsigned nf = 0;
      for (int d = 0; d < XE_DEV_COUNT; d++) {
         const xe_isa_kernel *a = find(cur[d], ncur[d], name), *b = find(pk[d], npk[d], name);
         if (!(devs & (1u << d)) || !a || !b)
            continue;
         /* Both per as many work-items as the current output's thread. */
         const paths *pa = kernel_versioned(&r->remarks, name) ? pcur : NULL;
         const paths *pb = kernel_versioned(&t.remarks, name) ? &pp : NULL;
         double ea = estimate(d, a, pa, name, a->c.simd, false), eb = estimate(d, b, pb, name, a->c.simd, false);
         double ia = estimate(d, a, pa, name, a->c.simd, true), ib = estimate(d, b, pb, name, a->c.simd, true);
         lower |= eb < ea * (1 - XE_COST_TIE);
         higher |= eb > ea * (1 + XE_COST_TIE) || (ia > 0 && ib > ia * (1 + XE_COST_TIE));
         snprintf(figs[nf++], sizeof(figs[0]), "%s %.0f -> %.0f", xe_device_name(d), ea, eb);
      }
      if (!lower || higher)
         continue;
      xe_strlist_add(&o2->ask_model, name);
      added++;
      char all[2 * XE_DEV_COUNT * 66] = "";
      for (unsigned f = 0; f < nf; f++) {
         size_t at = strlen(all);
         snprintf(all + at, sizeof(all) - at, "%s%s", f ? "; " : "", figs[f]);
      }
      xe_remark(notes, name, XE_REMARK_NOTE,
                "rewritten again with the cost model asked: IGC's output of the model's rewrite scores "
                "better than the one without it (ISA estimate without -> with the model: %s)", all);
   }
   for (int d = 0; d < XE_DEV_COUNT; d++)
      xe_isa_kernels_free(pk[d], npk[d]);
   paths_free(&pp);
   reset(&t);
   free(t.warnings);
   free(t.remarks_json);
   xe_strlist_free(&o3.ask_model);
   free(err);
   free(path);
   free(dir);
   return added;
}

void xe_isa_check_optimize(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                           const xe_pipeline_hooks *h, xe_optimize_fn optimize)
{
   const char *tmpdir = getenv("TMPDIR");
   char *tmpl;
   if (asprintf(&tmpl, "%s/xeopt-isa.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
      abort();
   char *work = mkdtemp(tmpl);
   xe_options o2 = *o;
   memset(&o2.exclude, 0, sizeof(o2.exclude));
   for (unsigned k = 0; k < o->exclude.n; k++)
      xe_strlist_add(&o2.exclude, o->exclude.v[k]);
   /* IGC is the judge: the passes first rewrite without the cost model;
    * a kernel IGC finds worse is rewritten again with the model asked
    * (ask_model), and keeps its original if that is worse too. */
   memset(&o2.ask_model, 0, sizeof(o2.ask_model));
   o2.model_off = true;
   xe_isa_kernel *in[XE_DEV_COUNT] = { 0 };
   unsigned nin[XE_DEV_COUNT] = { 0 };
   xe_remarks notes = { 0 };   /* isa-check's remarks: exclusions, then the final verdicts */
   notes.pass = "isa-check";
   char *err = NULL, *inpath = NULL, *outpath = NULL, *indir = NULL, *outdir = NULL;
   bool check = work != NULL;
   if (check && (asprintf(&inpath, "%s/in.spv", work) < 0 || asprintf(&outpath, "%s/out.spv", work) < 0 ||
                 asprintf(&indir, "%s/in", work) < 0 || asprintf(&outdir, "%s/out", work) < 0))
      abort();
   if (check && (mkdir(indir, 0700) || mkdir(outdir, 0700) || !write_bytes(inpath, bytes, size)))
      check = false;
   for (int d = 0; check && d < XE_DEV_COUNT; d++) {
      if ((o->isa_check & (1u << d)) && !xe_isa_module_counts(inpath, d, indir, &in[d], &nin[d], &err)) {
         xe_remark(&notes, NULL, XE_REMARK_NOTE, "not checked: IGC could not compile the input: %s", err);
         free(err);
         err = NULL;
         check = false;
      }
   }
   if (check) {
      char *j = xe_isa_judge();
      xe_remark(&notes, NULL, XE_REMARK_NOTE, "judged by %s", j);
      free(j);
   }
   o2.measure_path = XE_MEASURE_NONE;
   bool probed = false; /* probe_model has run */
   for (unsigned round = 0;; round++) {
      reset(r);
      optimize(r, &o2, bytes, size, h);
      if (r->status != XEOPT_OK || !check)
         break;
      unsigned nk;
      xe_module *m = xe_read(r->words, r->nwords * 4, &err);
      xe_kernel *ks = m ? xe_kernels_all(m, &nk) : NULL;
      free(err);
      err = NULL;
      if (!m || !write_bytes(outpath, r->words, r->nwords * 4)) {
         xe_module_free(m);
         free(ks);
         break;
      }
      xe_isa_kernel *out[XE_DEV_COUNT] = { 0 };
      unsigned nout[XE_DEV_COUNT] = { 0 };
      bool compiled = true;
      for (int d = 0; d < XE_DEV_COUNT && compiled; d++) {
         if ((o->isa_check & (1u << d)) && !xe_isa_module_counts(outpath, d, outdir, &out[d], &nout[d], &err)) {
            xe_remark(&notes, NULL, XE_REMARK_NOTE, "IGC could not compile the output: %s", err);
            free(err);
            err = NULL;
            compiled = false;
         }
      }
      /* Versioned kernels are scored by their paths (estimate()). */
      paths pm = { 0 };
      bool any_versioned = false;
      for (unsigned k = 0; k < nk && compiled; k++)
         any_versioned |= kernel_versioned(&r->remarks, ks[k].name);
      if (any_versioned) {
         paths_measure(&pm, &o2, o->isa_check, bytes, size, h, optimize, work, &err);
         if (!pm.ok) {
            xe_remark(&notes, NULL, XE_REMARK_NOTE, "versioned kernels scored with both copies: "
                      "IGC could not compile a measured path: %s", err ? err : "?");
            free(err);
            err = NULL;
         }
      }
      unsigned added = 0;
      xe_remarks verdicts = { 0 };
      verdicts.pass = "isa-check";
      for (unsigned k = 0; k < nk; k++) {
         const char *name = ks[k].name;
         if (!xe_kernel_rewritable(&o2, name))
            continue;
         /* Changed: a pass says so, or IGC's output differs (helpers
          * rewritten for several kernels carry no kernel name). */
         bool changed = !compiled || kernel_applied(&r->remarks, name);
         for (int d = 0; d < XE_DEV_COUNT && !changed; d++) {
            const xe_isa_kernel *a = find(in[d], nin[d], name), *b = find(out[d], nout[d], name);
            changed = a && b && memcmp(&a->c, &b->c, sizeof(a->c));
         }
         if (!changed)
            continue;
         char figs[XE_DEV_COUNT][320], all[XE_DEV_COUNT * 324] = "";
         bool worse = !compiled;
         const char *worst = compiled ? NULL : "IGC could not compile the output";
         for (int d = 0; d < XE_DEV_COUNT && compiled; d++) {
            figs[d][0] = 0;
            if (!(o->isa_check & (1u << d)))
               continue;
            const xe_isa_kernel *a = find(in[d], nin[d], name), *b = find(out[d], nout[d], name);
            if (!a || !b)
               continue;
            bool v = pm.ok && kernel_versioned(&r->remarks, name);
            double eb = estimate(d, b, v ? &pm : NULL, name, a->c.simd, false);
            double ib = estimate(d, b, v ? &pm : NULL, name, a->c.simd, true);
            describe(figs[d], sizeof(figs[d]), d, &a->c, &b->c, eb, ib, v);
            if (scores_worse(d, &a->c, eb, ib)) {
               worse = true;
               if (!worst)
                  worst = xe_device_name(d);
            }
            size_t at = strlen(all);
            snprintf(all + at, sizeof(all) - at, "%s%s", at ? "; " : "", figs[d]);
         }
         bool asked = xe_strlist_has(&o2.ask_model, name);
         if (worse && !asked && compiled) {
            xe_strlist_add(&o2.ask_model, name);
            added++;
            xe_remark(&notes, name, XE_REMARK_NOTE,
                      "rewritten again with the cost model asked: IGC's output without it is worse "
                      "on %s (ISA estimate %s)", worst, all);
         } else if (worse) {
            xe_strlist_add(&o2.exclude, name);
            added++;
            xe_remark(&notes, name, XE_REMARK_MISSED,
                      "original kept: IGC's output is worse on %s (ISA estimate %s)", worst, all);
         } else {
            xe_remark(&verdicts, name, XE_REMARK_APPLIED, "rewrite kept: ISA estimate %s", all);
         }
      }
      if (!added && !probed && compiled) {
         probed = true;
         added = probe_model(&o2, o->isa_check, bytes, size, h, optimize, work, r, out, nout, &pm, ks, nk,
                             &notes);
      }
      for (int d = 0; d < XE_DEV_COUNT; d++)
         xe_isa_kernels_free(out[d], nout[d]);
      paths_free(&pm);
      free(ks);
      xe_module_free(m);
      if (!added || round > 2 * nk) {
         for (unsigned k = 0; k < verdicts.n; k++)
            xe_remark(&notes, verdicts.v[k].kernel, verdicts.v[k].kind, "%s", verdicts.v[k].message);
         xe_remarks_free(&verdicts);
         break;
      }
      xe_remarks_free(&verdicts);
   }
   if (o->measure_path != XE_MEASURE_NONE && r->status == XEOPT_OK) {
      /* The rounds measured the real output; the one asked for is one path
       * of it, with the same kernels kept. */
      xe_options o3 = o2;
      o3.measure_path = o->measure_path;
      reset(r);
      optimize(r, &o3, bytes, size, h);
   }
   /* The check's remarks go after the final pipeline's. */
   for (unsigned k = 0; k < notes.n; k++) {
      r->remarks.pass = "isa-check";
      xe_remark(&r->remarks, notes.v[k].kernel, notes.v[k].kind, "%s", notes.v[k].message);
   }
   xe_remarks_free(&notes);
   for (int d = 0; d < XE_DEV_COUNT; d++)
      xe_isa_kernels_free(in[d], nin[d]);
   xe_strlist_free(&o2.exclude);
   xe_strlist_free(&o2.ask_model);
   if (work)
      rm_rf(work);
   free(tmpl);
   free(inpath);
   free(outpath);
   free(indir);
   free(outdir);
}
