/*
 * Running ocloc and reading what it writes (ocloc.h).
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

#include "isa_count.h"
#include "ocloc.h"

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
         xe_out_of_memory();
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
   char *tmpl = xe_isa_workdir("oclocv");
   if (tmpl) {
      char *out, *log;
      if (asprintf(&out, "%s/out", tmpl) < 0 || asprintf(&log, "%s/log", tmpl) < 0)
         xe_out_of_memory();
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
      xe_out_of_memory();
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
            xe_out_of_memory();
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
         xe_out_of_memory();
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
         xe_out_of_memory();
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
            xe_out_of_memory();
         v[*n] = (igc_stat){ strdup(nm->valuestring), width, (unsigned)cy->valuedouble };
         if (!v[*n].name)
            xe_out_of_memory();
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
         xe_out_of_memory();
      goto done;
   }
   if (asprintf(&cdir, "%s/%s.c", work, dev) < 0 || asprintf(&bin0, "%s/bin", cdir) < 0 ||
       asprintf(&dump, "%s/%s.dump", work, dev) < 0 || asprintf(&log, "%s/%s.log", work, dev) < 0 ||
       asprintf(&igcdir, "%s/%s.igc", work, dev) < 0 ||
       asprintf(&igcopts, "-igc_opts 'EnableKernelCostInfo=1,ShaderDumpEnable=1,DumpToCustomDir=%s,"
                "VISAOptions=-dumpVISAJsonStats'",
                igcdir) < 0)
      xe_out_of_memory();
   /* Nothing of an earlier compile in the same work directory may be read. */
   xe_rm_rf(cdir);
   xe_rm_rf(dump);
   xe_rm_rf(igcdir);
   if (mkdir(cdir, 0700)) {
      if (asprintf(err, "cannot make %s", cdir) < 0)
         xe_out_of_memory();
      goto done;
   }
   /* IGC 2.x: its per-kernel statistics (numCycles) and cost info too. */
   char *cargv[] = { ocloc, "compile", "-spirv_input", "-file", (char *)spv, "-device", (char *)dev,
                     "-output", bin0, "-output_no_suffix", "-q", gen2 ? "-options" : NULL, igcopts, NULL };
   if (run_tool(cargv, NULL, log) != 0 || !(bin = find_output(cdir, "bin"))) {
      char *l = slurp(log);
      if (asprintf(err, "ocloc compile for %s failed: %s", dev, l ? l : "") < 0)
         xe_out_of_memory();
      free(l);
      goto done;
   }
   char *dargv[] = { ocloc, "disasm", "-file", bin, "-dump", dump, "-device", (char *)dev, NULL };
   if (run_tool(dargv, NULL, log) != 0) {
      if (asprintf(err, "ocloc disasm for %s failed", dev) < 0)
         xe_out_of_memory();
      goto done;
   }
   DIR *dir = opendir(dump);
   if (!dir) {
      if (asprintf(err, "ocloc disasm for %s wrote no %s", dev, dump) < 0)
         xe_out_of_memory();
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
            xe_out_of_memory();
         char *iargv[] = { iga, "-d", pflag, heap, NULL };
         if (!plat || run_tool(iargv, asmf, log) != 0 || !(text = slurp(asmf)) || !*text) {
            if (asprintf(err, "iga64 failed on %s", heap) < 0)
               xe_out_of_memory();
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
            xe_out_of_memory();
         text = slurp(asmf);
         free(asmf);
         if (!text) {
            if (asprintf(err, "cannot read %s/%s", dump, de->d_name) < 0)
               xe_out_of_memory();
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
            xe_out_of_memory(); /* out of memory */
      }
      free(text);
   }
   closedir(dir);
   if (ok && !*out) {
      if (asprintf(err, "ocloc disasm for %s wrote no kernel to %s", dev, dump) < 0)
         xe_out_of_memory();
      ok = false;
   }
   if (ok) {
      /* The SIMD width of each kernel, for xe_cost_isa's per-work-item
       * scale: PTM.txt (ocloc 22.x) or .ze_info (ocloc 26). */
      char *f;
      if (asprintf(&f, heaps ? "%s/PTM.txt" : "%s/.ze_info", dump) < 0)
         xe_out_of_memory();
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

void xe_rm_rf(const char *path)
{
   DIR *d = opendir(path);
   if (d) {
      struct dirent *de;
      while ((de = readdir(d))) {
         if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
         char *p;
         if (asprintf(&p, "%s/%s", path, de->d_name) < 0)
            xe_out_of_memory();
         xe_rm_rf(p);
         free(p);
      }
      closedir(d);
      rmdir(path);
   } else {
      unlink(path);
   }
}

char *xe_isa_workdir(const char *what)
{
   const char *tmpdir = getenv("TMPDIR");
   char *tmpl;
   if (asprintf(&tmpl, "%s/xeopt-%s.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp", what) < 0)
      xe_out_of_memory();
   if (!mkdtemp(tmpl)) {
      free(tmpl);
      return NULL;
   }
   return tmpl;
}
