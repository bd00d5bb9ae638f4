/*
 * OpenCL C to SPIR-V for the layer (frontend.h).  The tools run as child
 * processes (posix_spawn), with their messages in a file of the temporary
 * directory: the first line of it is the reason a refusal gives.
 */
#define _GNU_SOURCE
#include "frontend.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- option strings ------------------------------------------------------ */

/* Splits an OpenCL option string into words: blanks separate, double quotes
 * group (as drivers read -I "dir with spaces").  NULL-terminated, malloc'd. */
static char **split_words(const char *s, size_t *n)
{
   size_t cap = 8, k = 0;
   char **w = malloc(cap * sizeof *w);
   while (w && s && *s) {
      while (*s == ' ' || *s == '\t' || *s == '\n')
         s++;
      if (!*s)
         break;
      char *word = malloc(strlen(s) + 1), *o = word;
      if (!word)
         break;
      bool quoted = false;
      for (; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
         if (*s == '"')
            quoted = !quoted;
         else
            *o++ = *s;
      }
      *o = 0;
      if (k + 2 > cap) {
         char **grown = realloc(w, (cap *= 2) * sizeof *w);
         if (!grown) {
            free(word);
            break;
         }
         w = grown;
      }
      w[k++] = word;
   }
   if (w)
      w[k] = NULL;
   *n = k;
   return w;
}

static void free_words(char **w)
{
   for (size_t i = 0; w && w[i]; i++)
      free(w[i]);
   free(w);
}

/* Options that take the next word as their value when written apart. */
static bool takes_value(const char *o)
{
   return !strcmp(o, "-D") || !strcmp(o, "-I") || !strcmp(o, "-x");
}

static bool frontend_only(const char *o)
{
   return !strncmp(o, "-D", 2) || !strncmp(o, "-I", 2) || !strncmp(o, "-cl-std=", 8) ||
          !strncmp(o, "-x", 2);
}

char *xl_frontend_il_build_options(const char *options)
{
   size_t n;
   char **w = split_words(options, &n);
   char *out = calloc(options ? strlen(options) + 1 : 1, 1);
   if (!w || !out) {
      free_words(w);
      free(out);
      return NULL;
   }
   for (size_t i = 0; i < n; i++) {
      if (frontend_only(w[i])) {
         if (takes_value(w[i]) && i + 1 < n)
            i++;
         continue;
      }
      if (*out)
         strcat(out, " ");
      strcat(out, w[i]);
   }
   free_words(w);
   return out;
}

static bool has_word_prefix(char **w, const char *prefix)
{
   for (size_t i = 0; w && w[i]; i++)
      if (!strncmp(w[i], prefix, strlen(prefix)))
         return true;
   return false;
}

/* ---- tools --------------------------------------------------------------- */

static bool in_path(const char *tool)
{
   if (strchr(tool, '/'))
      return access(tool, X_OK) == 0;
   const char *path = getenv("PATH");
   if (!path)
      return false;
   char *copy = strdup(path), *save = NULL;
   bool found = false;
   for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
      char *p;
      if (asprintf(&p, "%s/%s", d, tool) >= 0) {
         found = access(p, X_OK) == 0;
         free(p);
      }
   }
   free(copy);
   return found;
}

static const char *env_or(const char *name, const char *fallback)
{
   const char *v = getenv(name);
   return v && *v ? v : fallback;
}

/* clang and the llvm-spirv of the same LLVM: XEOPT_LAYER_CLANG and
 * XEOPT_LAYER_LLVM_SPIRV, else the unversioned names, else Debian 12's. */
static bool clang_pair(const char **clang, const char **spirv)
{
   static const char *const pairs[][2] = { { "clang", "llvm-spirv" }, { "clang-15", "llvm-spirv-15" } };
   *clang = getenv("XEOPT_LAYER_CLANG");
   *spirv = getenv("XEOPT_LAYER_LLVM_SPIRV");
   if (*clang && *spirv)
      return in_path(*clang) && in_path(*spirv);
   for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
      if (in_path(pairs[i][0]) && in_path(pairs[i][1])) {
         *clang = pairs[i][0];
         *spirv = pairs[i][1];
         return true;
      }
   return false;
}

const char *xl_frontend_pick(const xl_frontend_request *rq)
{
   const char *clang, *spirv;
   if (rq->forced && !strcmp(rq->forced, "none"))
      return NULL;
   bool ocloc = rq->target && in_path(env_or("XEOPT_LAYER_OCLOC", "ocloc"));
   if (rq->forced && !strcmp(rq->forced, "ocloc"))
      return ocloc ? "ocloc" : NULL;
   if (rq->forced && !strcmp(rq->forced, "clang"))
      return clang_pair(&clang, &spirv) ? "clang" : NULL;
   if (ocloc)
      return "ocloc";
   return clang_pair(&clang, &spirv) ? "clang" : NULL;
}

/* Runs argv with stdin from /dev/null and stdout/stderr into `log`;
 * true when it exited 0. */
static bool run(char *const argv[], const char *log)
{
   posix_spawn_file_actions_t fa;
   posix_spawn_file_actions_init(&fa);
   posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
   posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
   posix_spawn_file_actions_adddup2(&fa, 1, 2);
   pid_t pid;
   int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
   posix_spawn_file_actions_destroy(&fa);
   if (rc != 0)
      return false;
   int status;
   while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR)
         return false;
   return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void *slurp(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   void *p = NULL;
   if (fseek(f, 0, SEEK_END) == 0) {
      long n = ftell(f);
      rewind(f);
      if (n > 0 && (p = malloc((size_t)n)) && fread(p, 1, (size_t)n, f) != (size_t)n) {
         free(p);
         p = NULL;
      }
      *size = n > 0 ? (size_t)n : 0;
   }
   fclose(f);
   return p;
}

/* The first line the tool printed, as the refusal's reason. */
static char *first_line(const char *log, const char *tool)
{
   size_t n = 0;
   char *text = slurp(log, &n), *why = NULL;
   size_t len = 0;
   while (text && len < n && text[len] != '\n' && len < 300)
      len++;
   if (asprintf(&why, "%s failed%s%.*s", tool, len ? ": " : "", (int)len, text ? text : "") < 0)
      why = NULL;
   free(text);
   return why;
}

static bool write_text(const char *path, const char *s)
{
   FILE *f = fopen(path, "w");
   if (!f)
      return false;
   bool ok = fputs(s, f) >= 0;
   return fclose(f) == 0 && ok;
}

/* argv for clang -cc1: the device's extensions exactly, the application's
 * options as words, CL1.2 when it names no version (the OpenCL 3.0 spec's
 * default for clBuildProgram). */
static char **clang_argv(const xl_frontend_request *rq, const char *clang, bool optimize,
                         char **opts, size_t nopts, char **ext_arg)
{
   size_t n = 0;
   char **argv = calloc(nopts + 16, sizeof *argv);
   if (!argv)
      return NULL;
   char *ext = malloc(strlen(rq->extensions ? rq->extensions : "") * 2 + 16);
   if (!ext) {
      free(argv);
      return NULL;
   }
   strcpy(ext, "-cl-ext=-all");
   size_t ne;
   char **names = split_words(rq->extensions, &ne);
   for (size_t i = 0; i < ne; i++) {
      strcat(ext, ",+");
      strcat(ext, names[i]);
   }
   free_words(names);
   *ext_arg = ext;
   argv[n++] = (char *)clang;
   argv[n++] = "-cc1";
   argv[n++] = "-triple";
   argv[n++] = "spir64-unknown-unknown";
   argv[n++] = "-emit-llvm-bc";
   argv[n++] = "-finclude-default-header";
   /* llvm-spirv 15 reads typed pointers only */
   if (strstr(clang, "-15") || strstr(clang, "-14"))
      argv[n++] = "-no-opaque-pointers";
   argv[n++] = optimize && !has_word_prefix(opts, "-cl-opt-disable") ? "-O2" : "-O0";
   if (!has_word_prefix(opts, "-cl-std="))
      argv[n++] = "-cl-std=CL1.2";
   argv[n++] = ext;
   for (size_t i = 0; i < nopts; i++)
      argv[n++] = opts[i];
   /* the driver compiles the source in memory: "x.h" is found from the
    * working directory, not from our temporary one */
   argv[n++] = "-I.";
   return argv;
}

static bool compile_clang(const xl_frontend_request *rq, bool optimize, const char *dir,
                          const char *src, const char *log, const char *spv)
{
   const char *clang, *llvm_spirv;
   if (!clang_pair(&clang, &llvm_spirv))
      return false;
   size_t nopts;
   char **opts = split_words(rq->options, &nopts), *ext = NULL;
   char **argv = opts ? clang_argv(rq, clang, optimize, opts, nopts, &ext) : NULL;
   char *bc = NULL;
   bool ok = argv && asprintf(&bc, "%s/k.bc", dir) >= 0;
   if (ok) {
      size_t n = 0;
      while (argv[n])
         n++;
      argv[n++] = (char *)src;
      argv[n++] = "-o";
      argv[n++] = bc;
      ok = run(argv, log);
   }
   if (ok) {
      /* The SPIR-V extensions the device's OpenCL extensions stand for. */
      bool subgroups = rq->extensions && strstr(rq->extensions, "cl_intel_subgroups");
      char *sargv[] = { (char *)llvm_spirv, bc, "-o", (char *)spv,
                        subgroups ? "--spirv-ext=+SPV_INTEL_subgroups" : NULL, NULL };
      ok = run(sargv, log);
   }
   free(bc);
   free(ext);
   free(argv);
   free_words(opts);
   return ok;
}

static bool compile_ocloc(const xl_frontend_request *rq, const char *dir, const char *src,
                          const char *log)
{
   const char *ocloc = env_or("XEOPT_LAYER_OCLOC", "ocloc");
   char *argv[20];
   size_t n = 0;
   argv[n++] = (char *)ocloc;
   argv[n++] = "compile";
   argv[n++] = "-q";
   argv[n++] = "-file";
   argv[n++] = (char *)src;
   argv[n++] = "-device";
   argv[n++] = (char *)rq->target;
   argv[n++] = "-spv_only";
   if (rq->options && *rq->options) {
      argv[n++] = "-options";
      argv[n++] = (char *)rq->options;
   }
   argv[n++] = "-output";
   argv[n++] = "k";
   argv[n++] = "-output_no_suffix";
   argv[n++] = "-out_dir";
   argv[n++] = (char *)dir;
   argv[n] = NULL;
   return run(argv, log);
}

static void remove_dir(const char *dir)
{
   static const char *const files[] = { "k.cl", "k.bc", "k.spv", "k", "log.txt" };
   for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
      char *p;
      if (asprintf(&p, "%s/%s", dir, files[i]) >= 0) {
         unlink(p);
         free(p);
      }
   }
   rmdir(dir);
}

void *xl_frontend_compile(const xl_frontend_request *rq, size_t *size, char **why)
{
   *why = NULL;
   const char *fe = xl_frontend_pick(rq);
   if (!fe) {
      *why = strdup("no front end for this device (XEOPT_LAYER_FRONTEND, docs/layer.md)");
      return NULL;
   }
   char tmpl[4096];
   snprintf(tmpl, sizeof tmpl, "%s/xeopt-layer.XXXXXX", env_or("TMPDIR", "/tmp"));
   if (!mkdtemp(tmpl)) {
      *why = strdup("no temporary directory");
      return NULL;
   }
   char src[4200], log[4200], spv[4200];
   snprintf(src, sizeof src, "%s/k.cl", tmpl);
   snprintf(log, sizeof log, "%s/log.txt", tmpl);
   /* ocloc -output k -output_no_suffix writes k.spv */
   snprintf(spv, sizeof spv, "%s/k.spv", tmpl);
   void *out = NULL;
   bool ok = write_text(src, rq->source);
   if (ok && !strcmp(fe, "ocloc"))
      ok = compile_ocloc(rq, tmpl, src, log);
   /* Where llvm-spirv cannot write LLVM's -O2 output (integers of odd
    * widths: hashcat's kernels with clang 15), the program passes through:
    * an -O0 module would cost the driver's build (hashcat: 22 s against
    * 2 s) more than xeopt can give back. */
   else if (ok)
      ok = compile_clang(rq, true, tmpl, src, log, spv);
   if (ok)
      out = slurp(spv, size);
   if (!out || *size < 20)
      *why = first_line(log, fe);
   if (*why) {
      free(out);
      out = NULL;
   }
   remove_dir(tmpl);
   return out;
}
