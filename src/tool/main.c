/*
 * The xeopt command line, a thin layer over the driver (driver.c) that
 * adds files, printing and the host-contract manifest file.
 *
 * Exit status: 0 success, 1 invalid input, usage or a --verify difference,
 * 2 internal error (a pass broke the module).  The outputs (module,
 * manifest, report) are written as a set (output.c): each to a temporary
 * file beside its destination, renamed when all were written, so an error
 * never leaves a partial or clobbered file; with an error no file is
 * written.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "driver.h"
#include "io.h"
#include "report_html.h"

static const char *usage_text =
   "usage: xeopt [options] INPUT.spv -o OUTPUT.spv\n"
   "       xeopt run MODULE.spv --kernel NAME ... [--racecheck]   (see xeopt run --help)\n"
   "\n"
   "Optimizes a SPIR-V module of OpenCL/SYCL kernels for Intel GPUs.\n"
   "INPUT or OUTPUT may be '-' for standard input or output.\n"
   "\n"
   "Pipeline:\n"
   "  -O0, -O1, -O2            optimization level (default -O2; -O0 runs no pass)\n"
   "  --passes=A,B,...         run exactly these passes, in this order\n"
   "  --list-passes            list the passes with their levels and exit\n"
   "\n"
   "Host-contract opt-ins (each recorded in the manifest):\n"
   "  --assume-padded[=K,...]  buffers are padded to the rounded-up NDRange\n"
   "  --assume-aligned         buffer arguments meet the block-I/O alignment\n"
   "  --subgroup-size=[K:]N    add SubgroupSize N (the host must honour it)\n"
   "  --local-size=[K:]X,Y,Z   add LocalSize (the host must launch with it)\n"
   "  --specialize=K:ARG=V     make loop-bound argument ARG a specialization\n"
   "                           constant with default V\n"
   "\n"
   "Cost model (docs/cost-model.md):\n"
   "  --target=DEVICES         devices no rewrite may slow down: dg2, pvc, bmg, lnl,\n"
   "                           ptl, a list, or all (the default; none: do not ask)\n"
   "  --isa-check=DEVICES      compile input and output with IGC (ocloc) and keep a\n"
   "                           kernel's original where its ISA is worse on a device\n"
   "  --ocloc=PATH             the ocloc --isa-check runs: ocloc 22.x (IGC 22.x) or\n"
   "                           26.x (IGC 2.x; bmg, lnl, ptl need it); default\n"
   "                           $XEOPT_OCLOC, else $OCLOC, else ocloc on PATH\n"
   "  --cost=DEVICES           print the model's per-kernel estimates of INPUT and exit\n"
   "  --measure-path=fast|slow for measuring only (the output is NOT correct): a\n"
   "                           versioned kernel keeps its test and one copy\n"
   "\n"
   "Checking and output:\n"
   "  -o FILE                  output module ('-' for standard output)\n"
   "  --validate               validate the input, and the module after each pass\n"
   "  --verify[=N]             run input and output on N launches (default 3)\n"
   "                           and compare every buffer; no output on a difference\n"
   "  --verify-launch=FILE     also verify on the launches in FILE (the\n"
   "                           `xeopt run --launch` JSON; implies --verify)\n"
   "  --manifest=FILE          host-contract manifest (default: OUTPUT with .spv\n"
   "                           replaced by .json; written only when a pass changed\n"
   "                           what the host must or may do)\n"
   "  --remarks                print what each pass did and why it skipped candidates\n"
   "  --report=FILE            write remarks and pass statistics as JSON, or as a\n"
   "                           page to view when FILE ends in .html (docs/report.md)\n"
   "  --print-after=PASS       print disassembly after PASS ('all' for every pass)\n"
   "  --time-passes            print the time each pass took\n"
   "  -q, --quiet              print errors only\n"
   "  --color=WHEN             color diagnostics: auto (default), always, never\n"
   "  --help, --version\n"
   "\n"
   "Exit status: 0 success; 1 invalid input, invalid usage or a --verify\n"
   "difference; 2 internal error.\n";

typedef struct cli {
   xe_options opt;
   const char *in, *out, *manifest, *report;
   const char *cost;     /* --cost=DEVICES: print estimates, optimize nothing */
   bool remarks, quiet;
   xe_pipeline_hooks hooks;
} cli;

static void list_passes(void)
{
   unsigned n;
   const xe_pass_info *p = xe_passes(&n);
   for (unsigned k = 0; k < n; k++) {
      printf("%-20s %-3s %-3s %s\n", p[k].name, p[k].levels & 2 ? "O1" : "",
             p[k].levels & 4 ? "O2" : "", p[k].description);
   }
}

/* The value of "--name=value" or "--name value"; advances *k. */
static const char *value_of(int argc, char **argv, int *k, const char *name)
{
   size_t n = strlen(name);
   if (argv[*k][n] == '=')
      return argv[*k] + n + 1;
   if (*k + 1 >= argc)
      return NULL;
   return argv[++*k];
}

static bool is_opt(const char *arg, const char *name)
{
   size_t n = strlen(name);
   return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(cli *c, int argc, char **argv)
{
   for (int k = 1; k < argc; k++) {
      const char *a = argv[k];
      const char *v = NULL;
      if (a[0] != '-' || !strcmp(a, "-")) {
         if (c->in) {
            xe_error(NULL, "more than one input file (see --help)");
            return 1;
         }
         c->in = a;
      } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         fputs(usage_text, stdout);
         return 0;
      } else if (!strcmp(a, "--version")) {
         printf("xeopt %s\n", xeopt_version());
         return 0;
      } else if (!strcmp(a, "--list-passes")) {
         list_passes();
         return 0;
      } else if (!strncmp(a, "-o", 2)) {
         c->out = a[2] ? a + 2 : k + 1 < argc ? argv[++k] : NULL;
         if (!c->out) {
            xe_error(NULL, "option -o needs a value (see --help)");
            return 1;
         }
      } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
         c->quiet = true;
      } else if (!strcmp(a, "--remarks")) {
         c->remarks = true;
      } else if (!strcmp(a, "--time-passes")) {
         c->hooks.time_passes = true;
      } else if (is_opt(a, "--cost")) {
         if (!(c->cost = value_of(argc, argv, &k, "--cost"))) {
            xe_error(NULL, "option --cost needs a value (see --help)");
            return 1;
         }
      } else if (is_opt(a, "--manifest") || is_opt(a, "--report") || is_opt(a, "--print-after") ||
                 is_opt(a, "--color")) {
         const char *name = a;
         size_t n = strcspn(a, "=");
         char key[32];
         snprintf(key, sizeof(key), "%.*s", (int)n, name);
         if (!(v = value_of(argc, argv, &k, key))) {
            xe_error(NULL, "option %s needs a value (see --help)", key);
            return 1;
         }
         if (!strcmp(key, "--manifest"))
            c->manifest = v;
         else if (!strcmp(key, "--report"))
            c->report = v;
         else if (!strcmp(key, "--print-after"))
            c->hooks.print_after = v;
         else if (!xe_diag_set_color(v)) {
            xe_error(NULL, "option --color takes auto, always or never, not '%s'", v);
            return 1;
         }
      } else {
         /* Pipeline options; a required value may come as the next word. */
         char *joined = NULL, *err = NULL;
         if (!strchr(a, '=') && xe_option_needs_value(a) && k + 1 < argc &&
             asprintf(&joined, "%s=%s", a, argv[++k]) < 0)
            xe_out_of_memory();
         bool ok = xe_options_parse(&c->opt, joined ? joined : a, &err);
         free(joined);
         if (!ok) {
            xe_error(NULL, "%s", err);
            free(err);
            return 1;
         }
      }
   }
   if (!c->in) {
      xe_error(NULL, "no input file (see --help)");
      return 1;
   }
   if (c->cost)
      return xe_cmd_cost(c->cost, c->in);
   if (!c->out) {
      xe_error(NULL, "no output file: give -o FILE (or -o - for standard output)");
      return 1;
   }
   char *err = NULL;
   const char *pa = c->hooks.print_after;
   if (pa && strcmp(pa, "all") && !xe_pass_find(pa)) {
      err = xe_unknown_pass(pa);
      xe_error(NULL, "option --print-after: %s", err);
      free(err);
      return 1;
   }
   if (!xe_pipeline_check(&c->opt, &err)) {
      xe_error(NULL, "%s", err);
      free(err);
      return 1;
   }
   return -1;
}

/* Default manifest path: OUTPUT with a trailing .spv replaced by .json. */
static char *default_manifest_path(const char *out)
{
   size_t n = strlen(out);
   char *p = malloc(n + 6);
   strcpy(p, out);
   if (n > 4 && !strcmp(p + n - 4, ".spv"))
      p[n - 4] = 0;
   strcat(p, ".json");
   return p;
}

/* The module as the manifest names it: its file name when both sit in the
 * same directory (the default), so manifests do not depend on where the
 * build ran; the path as given otherwise. */
static const char *module_ref(const char *out, const char *manifest)
{
   const char *so = strrchr(out, '/'), *sm = strrchr(manifest, '/');
   size_t lo = so ? (size_t)(so - out) : 0, lm = sm ? (size_t)(sm - manifest) : 0;
   if (lo == lm && !strncmp(out, manifest, lo))
      return so ? so + 1 : out;
   return out;
}

static void print_remarks(const xe_remarks *r)
{
   static const char *kinds[] = { "applied", "missed", "note" };
   for (unsigned k = 0; k < r->n; k++) {
      const xe_remark_entry *x = &r->v[k];
      xe_remark_print(x->kernel, x->pass, kinds[x->kind], x->message);
   }
}

/* The result's warning lines; --verify's notes among them (how many
 * launches verified, which were skipped: the library has no other
 * channel) are printed as notes, not warnings. */
static void print_warnings(const char *file, const char *lines)
{
   static const char verify_note[] = "verify: note: ";
   while (*lines) {
      const char *e = strchr(lines, '\n');
      int n = e ? (int)(e - lines) : (int)strlen(lines);
      int v = (int)sizeof verify_note - 1;
      if (n > v && !strncmp(lines, verify_note, (size_t)v))
         xe_note(file, "verify: %.*s", n - v, lines + v);
      else
         xe_warning(file, "%.*s", n, lines);
      lines += n + (e != NULL);
   }
}

/* Is out a stream rather than a file: standard output, or an existing
 * path that is no regular file (/dev/null, a pipe)?  Nothing is written
 * beside a stream: /dev/null.json would be a file in /dev. */
static bool output_is_stream(const char *out)
{
   struct stat st;
   return !strcmp(out, "-") || (!stat(out, &st) && !S_ISREG(st.st_mode));
}

/* Where the manifest goes: --manifest's file, or beside the output; NULL
 * when the output is a stream and no --manifest was given. */
static char *manifest_path(const cli *c)
{
   return c->manifest ? strdup(c->manifest)
          : !output_is_stream(c->out) ? default_manifest_path(c->out) : NULL;
}

/* Does the manifest ask anything of the host?  Every section does but
 * spec_constants with its flags false by default: then the module computes
 * what the input did, and the host may set the constants or ignore them
 * (docs/manifest.md). */
static bool host_must_act(const char *json)
{
   cJSON *j = cJSON_Parse(json);
   bool must = false;
   const cJSON *k, *sec, *e;
   cJSON_ArrayForEach(k, cJSON_GetObjectItem(j, "kernels")) {
      cJSON_ArrayForEach(sec, k) {
         if (strcmp(sec->string, "spec_constants")) {
            must = true;
            continue;
         }
         cJSON_ArrayForEach(e, sec)
            must |= !cJSON_IsFalse(cJSON_GetObjectItem(e, "flag_default"));
      }
   }
   cJSON_Delete(j);
   return must;
}

/* When this run changed no contract, a manifest left where it would go by
 * an earlier run (other options, say) describes another module: a host
 * that read it would pad or specialize for nothing, so it goes.  Only our
 * own manifest for this output is removed, never some other file. */
static void remove_stale_manifest(const cli *c, const char *path)
{
   if (!path)
      return;
   size_t n;
   char *err = NULL;
   char *text = xe_read_file(path, &n, &err);
   cJSON *j = text ? cJSON_ParseWithLength(text, n) : NULL;
   const cJSON *mod = cJSON_GetObjectItem(j, "module");
   if (cJSON_GetObjectItem(j, "xeopt_manifest") && cJSON_IsString(mod) &&
       !strcmp(mod->valuestring, module_ref(c->out, path))) {
      if (unlink(path) == 0 && !c->quiet)
         xe_note(path, "removed: a manifest of an earlier run; this run changed no host contract");
   }
   cJSON_Delete(j);
   free(text);
   free(err);
}

static bool html_name(const char *path)
{
   size_t n = strlen(path);
   return (n > 5 && !strcasecmp(path + n - 5, ".html")) || (n > 4 && !strcasecmp(path + n - 4, ".htm"));
}

/* text with a final line break, malloc'd. */
static char *text_line(const char *text)
{
   char *s;
   if (asprintf(&s, "%s\n", text) < 0)
      abort();
   return s;
}

/* The text of --report's file: a page, or the JSON report (malloc'd). */
static char *report_text(const cli *c, const xeopt_result *r, const void *in, size_t size)
{
   cJSON *rep = c->hooks.report;
   if (html_name(c->report)) {
      const char *title = strcmp(c->in, "-") ? c->in : "standard input";
      char *html = xe_report_html(r, in, size, title, strcmp(c->in, "-") ? c->in : NULL, rep);
      char *text = text_line(html ? html : "");
      free(html);
      return text;
   }
   cJSON_AddNumberToObject(rep, "xeopt_report", 1);
   cJSON_AddStringToObject(rep, "input", c->in);
   cJSON_AddItemToObject(rep, "remarks", cJSON_Parse(xeopt_result_remarks_json(r)));
   char *json = cJSON_Print(rep), *text = text_line(json);
   cJSON_free(json);
   return text;
}

static void output_error(const char *path, const char *err)
{
   xe_error(strcmp(path, "-") ? path : "<stdout>", "%s", err);
}

/* Writes the module, the manifest (to mpath; NULL: none) and the report of
 * a successful run as a set (output.c): when one cannot be written, none
 * is replaced. */
static int write_outputs(const cli *c, const xeopt_result *r, const void *in, size_t size,
                         const char *mpath)
{
   size_t nw;
   const uint32_t *w = xeopt_result_words(r, &nw);
   const char *json = xeopt_result_manifest_json(r);
   char *report = c->report ? report_text(c, r, in, size) : NULL;
   char *manifest = json && mpath ? text_line(json) : NULL;
   const struct { const char *path; const void *data; size_t n; } want[] = {
      { c->out, w, nw * 4 },
      { manifest ? mpath : NULL, manifest, manifest ? strlen(manifest) : 0 },
      { c->report, report, report ? strlen(report) : 0 },
   };
   xe_output out[3];
   unsigned n = 0;
   int rc = 0;
   char *err = NULL;
   for (unsigned k = 0; k < 3 && !rc; k++) {
      if (want[k].path && (rc = xe_output_stage(&out[n], want[k].path, want[k].data, want[k].n, &err)))
         output_error(want[k].path, err);
      else if (want[k].path)
         n++;
   }
   for (unsigned k = 0; k < n && !rc; k++) {
      if ((rc = xe_output_write_in_place(&out[k], &err)))
         output_error(out[k].path, err);
   }
   for (unsigned k = 0; k < n && !rc; k++) {
      if ((rc = xe_output_rename(&out[k], &err)))
         output_error(out[k].path, err);
   }
   for (unsigned k = 0; k < n; k++)
      xe_output_discard(&out[k]);
   free(err);
   if (!rc && json && !mpath && !c->quiet && host_must_act(json))
      xe_warning(NULL, "the host must do what this module's manifest says, but the output is "
                       "%s: give --manifest=FILE to keep the manifest",
                 strcmp(c->out, "-") ? "not a regular file" : "standard output");
   else if (!rc && !json)
      remove_stale_manifest(c, mpath);
   free(manifest);
   free(report);
   return rc;
}

/* The command line is one short process that reads one module: it tells
 * malloc to behave accordingly before the module is read.  Measured on a
 * module of 400 kernels (bench/notes/scale.md), glibc's defaults made a
 * fifth of the run page faults: every block of 128 KiB or more is a fresh
 * mmap that faults page by page and is unmapped again on free (the
 * analyses allocate and free per-kernel tables of that size), the heap
 * grows and shrinks in small steps, and each 4 KiB page faults separately.
 * So, for an input of S bytes (the heap peaks at about 25 S):
 *  - blocks up to 32 MiB come from the heap and freed memory stays in the
 *    process for the next pass (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD);
 *  - the heap grows in steps of 32 S, at most 256 MiB (M_TOP_PAD); this
 *    reserves address space, not memory: untouched pages cost nothing;
 *  - that first step is advised for transparent huge pages, one fault per
 *    2 MiB where the kernel's THP mode is "madvise" or "always" (nothing
 *    changes where it is "never").
 *  - blocks above 32 MiB (glibc's largest mmap threshold) come from the
 *    heap too (M_MMAP_MAX 0): from a module of about 16 MB on, the per-id
 *    tables (48 bytes an id) and the use lists are that large, and as
 *    mmaps the second run (plain.h) and every pass that resizes them
 *    faulted them in afresh, page by page, after the last one unmapped
 *    them.  At 64 MB that was 1.2 to 3.3 s of system time in 17 to 19 s
 *    (bench/notes/scale-by-size.md); from the heap the second run reuses
 *    the first one's pages (0.9 s) for 5 % more peak RSS.
 * Peak RSS stays within a few percent.  Library callers (the C API) keep
 * their own malloc settings: this is not in the driver. */
static void tune_heap(size_t input)
{
   const size_t huge = (size_t)2 << 20;
   size_t pad = input > ((size_t)8 << 20) ? (size_t)256 << 20 : input * 32;
   if (pad < 2 * huge)
      return; /* a small module: the defaults cost little */
   mallopt(M_MMAP_THRESHOLD, 32 << 20);
   mallopt(M_MMAP_MAX, 0);
   mallopt(M_TRIM_THRESHOLD, (int)(2 * pad));
   mallopt(M_TOP_PAD, (int)pad);
   /* Grow the heap now (a block above the top chunk's free room), so the
    * step exists to be advised. */
   char *p = malloc((size_t)256 << 10);
   char *top = sbrk(0);
   uintptr_t from = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
   uintptr_t to = (uintptr_t)top & ~(uintptr_t)(huge - 1);
#ifdef MADV_HUGEPAGE
   if (p && top != (char *)-1 && to > from)
      madvise((void *)from, to - from, MADV_HUGEPAGE);
#endif
   free(p);
}

/* From an input of this size on, the optimized module and the result are
 * left to the process's end rather than freed (leave_module in
 * pipeline.h): exit hands the memory back at once, while freeing it block
 * by block cost about a second at 64 MB.  Smaller inputs, the tests'
 * under valgrind among them, are freed as the library frees them. */
#define LEAVE_AT ((size_t)128 << 10)

/* Not under AddressSanitizer: its leak check does not read the pools'
 * mappings (pool.c), so what only they point to (a function's cached
 * analyses) would be reported as lost. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* What is left: reachable from here, so that a leak checker sees it as
 * kept, not lost. */
static struct {
   xe_module *module;
   xeopt_result *result;
} left;

static int run(cli *c)
{
   size_t size;
   char *err = NULL;
   void *bytes = xe_read_file(c->in, &size, &err);
   if (!bytes) {
      xe_error(c->in, "%s", err);
      free(err);
      return 1;
   }
   tune_heap(size);
   if (c->report)
      c->hooks.report = cJSON_CreateObject();
   char *mpath = manifest_path(c);
   c->hooks.manifest_module = mpath ? module_ref(c->out, mpath) : NULL;
   /* --isa-check's files go where a signal handler can remove them. */
   char *isa_dir = c->opt.isa_check ? xe_cli_isa_workdir() : NULL;
   c->hooks.isa_workdir = isa_dir;
   bool leave = !UNDER_ASAN && size >= LEAVE_AT;
   c->hooks.leave_module = leave ? &left.module : NULL;
   xeopt_result *r = xe_optimize_ex(&c->opt, bytes, size, &c->hooks);
   xe_cli_isa_workdir_remove(isa_dir);
   c->hooks.isa_workdir = NULL;
   if (!c->report || !html_name(c->report)) {   /* the page shows the input's lines */
      free(bytes);
      bytes = NULL;
   }
   if (!c->quiet)
      print_warnings(c->in, xeopt_result_warnings(r));
   int rc = xeopt_result_status(r);
   if (rc == XEOPT_ERROR_VERIFY)
      rc = 1;
   if (rc)
      xe_error(c->in, "%s", xeopt_result_error(r));
   else
      rc = write_outputs(c, r, bytes, size, mpath);
   free(mpath);
   if (c->remarks && !c->quiet)
      print_remarks(&r->remarks);
   free(bytes);
   if (c->hooks.report)
      cJSON_Delete(c->hooks.report);
   if (leave)
      left.result = r;
   else
      xeopt_result_destroy(r);
   return rc;
}

int main(int argc, char **argv)
{
   if (argc > 1 && !strcmp(argv[1], "run"))
      return xe_cmd_run(argc - 1, argv + 1);
   /* A full disk or a file-size limit must be an error from write(), not
    * a signal that kills xeopt half-way (the temporary file is removed). */
   signal(SIGXFSZ, SIG_IGN);
   cli c = { .hooks = { .print_to = stderr, .time_to = stderr } };
   xe_options_init(&c.opt);
   int rc = parse_args(&c, argc, argv);
   if (rc < 0)
      rc = run(&c);
   xe_options_free(&c.opt);
   return rc;
}
