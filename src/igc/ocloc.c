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
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
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

/* The ocloc to run: path (--ocloc) when given, else $XEOPT_OCLOC, else
 * $OCLOC, else ocloc on PATH. */
static char *find_ocloc(const char *path)
{
   const char *e = path && *path ? path : getenv("XEOPT_OCLOC");
   if (e && *e)
      return access(e, X_OK) == 0 ? strdup(e) : NULL;
   return find_tool("OCLOC", "ocloc");
}

static int run_tool(char *const argv[], const char *out, const char *log);
static char *slurp(const char *path);

/* What `ocloc --version` prints on its first line, read through a pipe
 * into version (size n): "26.27.039122" for ocloc 26 (IGC 2.x); ocloc
 * 22.x has no --version ("" then).  Asked once per xe_isa_tools_find: no
 * cache, since the library keeps no process-wide state.  The format of
 * ocloc's output is decided by what disasm writes, not by this. */
static void ocloc_version(const char *ocloc, char *version, size_t n)
{
   version[0] = 0;
   int fd[2];
   if (pipe2(fd, O_CLOEXEC))
      return;
   pid_t pid = fork();
   if (pid == 0) {
      int nul = open("/dev/null", O_RDWR);
      dup2(fd[1], 1);
      if (nul >= 0) {
         dup2(nul, 0);
         dup2(nul, 2);
      }
      char *argv[] = { (char *)ocloc, "--version", NULL };
      execv(ocloc, argv);
      _exit(127);
   }
   close(fd[1]);
   char text[256];
   size_t len = 0;
   ssize_t k;
   while (pid > 0 && (k = read(fd[0], text + len, sizeof(text) - 1 - len)) != 0) {
      if (k < 0 && errno == EINTR)
         continue;
      if (k < 0)
         break;
      len += (size_t)k;
      if (len == sizeof(text) - 1) {
         char rest[256]; /* drain, so that ocloc never blocks on a full pipe */
         while (read(fd[0], rest, sizeof(rest)) > 0)
            ;
         break;
      }
   }
   close(fd[0]);
   int st;
   if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
      return;
   text[len] = 0;
   size_t w = strcspn(text, " \t\r\n");
   if (w && w < n && isdigit((unsigned char)text[0]))
      memcpy(version, text, w), version[w] = 0;
}

bool xe_isa_tools_find(xe_isa_tools *t, const char *ocloc, char **err)
{
   memset(t, 0, sizeof(*t));
   if (!(t->ocloc = find_ocloc(ocloc))) {
      *err = strdup("--isa-check needs ocloc (IGC), not found");
      return false;
   }
   ocloc_version(t->ocloc, t->version, sizeof(t->version));
   /* ocloc 23 and later (IGC 2.x) print their kernels as text themselves;
    * ocloc 22.x leaves kernel heaps for iga64. */
   t->gen2 = atoi(t->version) >= 23;
   if (!t->gen2 && !(t->iga = find_tool("IGA64", "iga64"))) {
      *err = strdup("--isa-check needs iga64 (Intel Graphics Assembler), not found");
      xe_isa_tools_free(t);
      return false;
   }
   return true;
}

bool xe_isa_check_tools(const char *ocloc, char **err)
{
   xe_isa_tools t;
   if (!xe_isa_tools_find(&t, ocloc, err))
      return false;
   xe_isa_tools_free(&t);
   return true;
}

void xe_isa_tools_free(xe_isa_tools *t)
{
   free(t->ocloc);
   free(t->iga);
   memset(t, 0, sizeof(*t));
}

char *xe_isa_judge(const xe_isa_tools *t)
{
   char *s;
   if (asprintf(&s, "ocloc %s (%s, IGC %s)", *t->version ? t->version : "22.x", t->ocloc,
                t->gen2 ? "2.x" : "1.0") < 0)
      xe_out_of_memory();
   return s;
}

bool xe_isa_device_supported(const xe_isa_tools *t, enum xe_device d, char **err)
{
   if (t->gen2 || xe_device_iga_platform(d))
      return true;
   if (asprintf(err, "%s needs ocloc 26 (IGC 2.x); %s is ocloc 22.x (--ocloc=PATH picks another)",
                xe_device_name(d), t->ocloc) < 0)
      xe_out_of_memory();
   return false;
}

/* Runs argv with standard output to out (NULL: a log file), standard
 * error to the log; returns the exit status, -1 if it could not run. */
static int run_tool(char *const argv[], const char *out, const char *log)
{
   pid_t parent = getpid(), pid = fork();
   if (pid < 0)
      return -1;
   if (pid == 0) {
      /* IGC does not outlive an xeopt killed under it (SIGTERM reaches
       * xeopt alone), nor writes into a work directory removed then. */
      if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
         _exit(127);
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

/* The binary ocloc compile wrote for -output BIN -output_no_suffix:
 * ocloc 22.x writes BIN exactly, ocloc 26 BIN.bin whatever
 * -output_no_suffix says.  An exact name, never a pattern: beside it
 * ocloc 22.x writes BIN.dbg for a module with debug information (clang
 * -g), which ocloc disasm cannot read (it crashes).  NULL when that file
 * is not there. */
static char *compiled_binary(const xe_isa_tools *t, const char *bin0)
{
   char *p;
   struct stat st;
   if (asprintf(&p, t->gen2 ? "%s.bin" : "%s", bin0) < 0)
      xe_out_of_memory();
   if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
      return p;
   free(p);
   return NULL;
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

bool xe_isa_module_counts(const xe_isa_tools *t, const char *spv, enum xe_device d, unsigned simd,
                          const char *work, xe_isa_kernel **out, unsigned *nout, char **err)
{
   *out = NULL;
   *nout = 0;
   char *ocloc = t->ocloc, *iga = t->iga;
   char *cdir = NULL, *bin0 = NULL, *bin = NULL, *dump = NULL, *log = NULL, *igcdir = NULL,
        *igcopts = NULL;
   bool ok = false;
   bool gen2 = t->gen2;
   const char *dev = xe_device_name(d);
   char force[32] = "";
   if (simd && t->gen2)
      snprintf(force, sizeof(force), "ForceOCLSIMDWidth=%u,", simd);
   if (!xe_isa_device_supported(t, d, err))
      goto done;
   if (asprintf(&cdir, "%s/%s.c", work, dev) < 0 || asprintf(&bin0, "%s/bin", cdir) < 0 ||
       asprintf(&dump, "%s/%s.dump", work, dev) < 0 || asprintf(&log, "%s/%s.log", work, dev) < 0 ||
       asprintf(&igcdir, "%s/%s.igc", work, dev) < 0 ||
       asprintf(&igcopts, "-igc_opts '%sEnableKernelCostInfo=1,ShaderDumpEnable=1,DumpToCustomDir=%s,"
                "VISAOptions=-dumpVISAJsonStats'",
                force, igcdir) < 0)
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
   if (run_tool(cargv, NULL, log) != 0) {
      char *l = slurp(log);
      if (asprintf(err, "ocloc compile for %s failed: %s", dev, l ? l : "") < 0)
         xe_out_of_memory();
      free(l);
      goto done;
   }
   if (!(bin = compiled_binary(t, bin0))) {
      if (asprintf(err, "ocloc compile for %s wrote no %s%s", dev, bin0, gen2 ? ".bin" : "") < 0)
         xe_out_of_memory();
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
         if (!iga) {
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
