/*
 * The xeopt command line.  Exit codes: 0 success, 1 bad input or usage,
 * 2 internal error (a pass broke the module).  Output files are written to
 * a temporary file beside the destination and renamed, so an error never
 * leaves a partial or clobbered file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "io.h"
#include "pipeline.h"
#include "exec/exec.h"

#ifndef XEOPT_VERSION
#define XEOPT_VERSION "0.1.0"
#endif

static const char *usage_text =
   "usage: xeopt [options] INPUT.spv -o OUTPUT.spv\n"
   "       xeopt run MODULE.spv --kernel NAME ...   (see xeopt run --help)\n"
   "\n"
   "Optimizes a SPIR-V module of OpenCL/SYCL kernels for Intel GPUs.\n"
   "INPUT or OUTPUT may be '-' for standard input or output.\n"
   "\n"
   "Pipeline:\n"
   "  -O0, -O1, -O2          optimization level (default -O2; -O0 runs no pass)\n"
   "  --passes=A,B,...       run exactly these passes, in this order\n"
   "  --list-passes          list passes with their levels and exit\n"
   "\n"
   "Host-contract opt-ins (recorded in the manifest):\n"
   "  --assume-padded[=K,..] buffers are padded to the rounded-up NDRange\n"
   "  --assume-aligned       buffer arguments meet the block-I/O alignment\n"
   "  --subgroup-size=[K:]N  add SubgroupSize N (the host must honour it)\n"
   "  --local-size=[K:]X,Y,Z add LocalSize (the host must launch with it)\n"
   "  --specialize=K:ARG=V   specialize a loop-bound argument to V\n"
   "\n"
   "Checking and output:\n"
   "  -o FILE                output module ('-' for standard output)\n"
   "  --validate             validate the input, and the module after each pass\n"
   "  --verify[=N]           run every kernel of input and output on N (default 3)\n"
   "                         random launches in the interpreter; on a difference\n"
   "                         write nothing and exit 1\n"
   "  --manifest=FILE        host-contract manifest (default: OUTPUT with .json,\n"
   "                         written only when a pass changed the contract)\n"
   "  --remarks              print what each pass did and why it skipped candidates\n"
   "  --report=FILE.json     write remarks and pass statistics as JSON\n"
   "  --print-after=PASS     print disassembly after PASS ('all' for every pass)\n"
   "  --time-passes          print the time each pass took\n"
   "  -q, --quiet            print errors only\n"
   "  --help, --version\n"
   "\n"
   "Exit status: 0 success, 1 invalid input or usage, 2 internal error.\n";

enum {
   OPT_PASSES = 256, OPT_LIST, OPT_VALIDATE, OPT_MANIFEST, OPT_REMARKS, OPT_REPORT,
   OPT_PRINT_AFTER, OPT_TIME, OPT_PADDED, OPT_ALIGNED, OPT_SGSIZE, OPT_LSIZE, OPT_SPEC,
   OPT_VERSION, OPT_HELP, OPT_VERIFY,
};

static const struct option long_opts[] = {
   { "passes", required_argument, 0, OPT_PASSES },
   { "list-passes", no_argument, 0, OPT_LIST },
   { "validate", no_argument, 0, OPT_VALIDATE },
   { "manifest", required_argument, 0, OPT_MANIFEST },
   { "remarks", no_argument, 0, OPT_REMARKS },
   { "report", required_argument, 0, OPT_REPORT },
   { "print-after", required_argument, 0, OPT_PRINT_AFTER },
   { "time-passes", no_argument, 0, OPT_TIME },
   { "assume-padded", optional_argument, 0, OPT_PADDED },
   { "assume-aligned", no_argument, 0, OPT_ALIGNED },
   { "verify", optional_argument, 0, OPT_VERIFY },
   { "subgroup-size", required_argument, 0, OPT_SGSIZE },
   { "local-size", required_argument, 0, OPT_LSIZE },
   { "specialize", required_argument, 0, OPT_SPEC },
   { "quiet", no_argument, 0, 'q' },
   { "version", no_argument, 0, OPT_VERSION },
   { "help", no_argument, 0, OPT_HELP },
   { 0, 0, 0, 0 },
};

static void list_passes(void)
{
   unsigned n;
   const xe_pass_info *p = xe_passes(&n);
   for (unsigned k = 0; k < n; k++) {
      char lv[8] = "";
      if (p[k].levels & 2)
         strcat(lv, "O1 ");
      if (p[k].levels & 4)
         strcat(lv, "O2");
      printf("%-16s %-6s %s\n", p[k].name, lv, p[k].description);
   }
}

static void split_into(xe_strlist *l, const char *s)
{
   char *copy = strdup(s), *save = NULL;
   for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
      xe_strlist_add(l, t);
   free(copy);
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

static void print_remarks(const xe_remarks *r)
{
   static const char *kinds[] = { "applied", "missed", "note" };
   for (unsigned k = 0; k < r->n; k++) {
      const xe_remark_entry *x = &r->v[k];
      fprintf(stderr, "xeopt: remark: %s%s[%s] %s: %s\n", x->kernel ? x->kernel : "",
              x->kernel ? ": " : "", x->pass, kinds[x->kind], x->message);
   }
}

static cJSON *remarks_json(const xe_remarks *r)
{
   static const char *kinds[] = { "applied", "missed", "note" };
   cJSON *arr = cJSON_CreateArray();
   for (unsigned k = 0; k < r->n; k++) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "pass", r->v[k].pass);
      if (r->v[k].kernel)
         cJSON_AddStringToObject(e, "kernel", r->v[k].kernel);
      cJSON_AddStringToObject(e, "kind", kinds[r->v[k].kind]);
      cJSON_AddStringToObject(e, "message", r->v[k].message);
      cJSON_AddItemToArray(arr, e);
   }
   return arr;
}

static int write_json(const char *path, cJSON *j)
{
   char *text = cJSON_Print(j);
   size_t n = strlen(text);
   char *buf = malloc(n + 2);
   memcpy(buf, text, n);
   buf[n] = '\n';
   char *err = NULL;
   int rc = xe_write_file_atomic(path, buf, n + 1, &err);
   if (rc)
      xe_error(path, "%s", err);
   free(err);
   free(buf);
   cJSON_free(text);
   return rc;
}

int main(int argc, char **argv)
{
   if (argc > 1 && !strcmp(argv[1], "run"))
      return xe_cmd_run(argc - 1, argv + 1);

   xe_options opt;
   xe_options_init(&opt);
   const char *out_path = NULL, *manifest_path = NULL, *report_path = NULL;
   xe_pipeline_hooks hooks = { .print_to = stderr, .time_to = stderr };
   bool remarks = false, quiet = false;
   unsigned verify = 0;
   xe_module *orig = NULL;
   int c, rc = XE_OK;
   opterr = 0;
   while ((c = getopt_long(argc, argv, ":o:O:q", long_opts, NULL)) != -1) {
      switch (c) {
      case 'o': out_path = optarg; break;
      case 'O':
         if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2') {
            xe_error(NULL, "unknown optimization level -O%s (use -O0, -O1 or -O2)", optarg);
            return XE_BAD_INPUT;
         }
         opt.level = optarg[0] - '0';
         break;
      case 'q': quiet = true; break;
      case OPT_PASSES: split_into(&opt.passes, optarg); break;
      case OPT_LIST: list_passes(); return 0;
      case OPT_VALIDATE: opt.validate = true; break;
      case OPT_MANIFEST: manifest_path = optarg; break;
      case OPT_REMARKS: remarks = true; break;
      case OPT_REPORT: report_path = optarg; break;
      case OPT_PRINT_AFTER: hooks.print_after = optarg; break;
      case OPT_TIME: hooks.time_passes = true; break;
      case OPT_PADDED: xe_strlist_add(&opt.assume_padded, optarg ? optarg : ""); break;
      case OPT_ALIGNED: opt.assume_aligned = true; break;
      case OPT_SGSIZE: xe_strlist_add(&opt.subgroup_size, optarg); break;
      case OPT_LSIZE: xe_strlist_add(&opt.local_size, optarg); break;
      case OPT_SPEC: xe_strlist_add(&opt.specialize, optarg); break;
      case OPT_VERSION: printf("xeopt %s\n", XEOPT_VERSION); return 0;
      case OPT_HELP: fputs(usage_text, stdout); return 0;
      case OPT_VERIFY: verify = optarg ? (unsigned)atoi(optarg) : 3; break;
      case ':':
         xe_error(NULL, "option %s needs a value (see --help)", argv[optind - 1]);
         return XE_BAD_INPUT;
      default:
         xe_error(NULL, "unknown option %s (see --help)", argv[optind - 1]);
         return XE_BAD_INPUT;
      }
   }
   if (optind + 1 != argc) {
      xe_error(NULL, optind >= argc ? "no input file (see --help)"
                                    : "more than one input file (see --help)");
      return XE_BAD_INPUT;
   }
   const char *in_path = argv[optind];
   if (!out_path) {
      xe_error(NULL, "no output file: give -o FILE (or -o - for standard output)");
      return XE_BAD_INPUT;
   }
   char *err = NULL;
   if (!xe_pipeline_check(&opt, &err)) {
      xe_error(NULL, "%s", err);
      free(err);
      return XE_BAD_INPUT;
   }

   size_t nbytes;
   void *bytes = xe_read_file(in_path, &nbytes, &err);
   if (!bytes) {
      xe_error(in_path, "%s", err);
      free(err);
      return XE_BAD_INPUT;
   }
   xe_module *m = xe_read(bytes, nbytes, &err);
   if (m && verify)
      orig = xe_read(bytes, nbytes, &err);
   free(bytes);
   if (!m) {
      xe_error(in_path, "%s", err);
      free(err);
      return XE_BAD_INPUT;
   }
   if (m->reordered && !quiet)
      xe_warning(in_path, "sections out of logical layout order; writing them in order");

   bool input_valid = true;
   if (opt.validate) {
      input_valid = xe_validate(m, &err);
      if (!input_valid && !quiet)
         xe_warning(in_path, "input does not validate: %s", err);
      free(err);
      err = NULL;
   }
   cJSON *report = report_path ? cJSON_CreateObject() : NULL;
   hooks.report = report;
   xe_remarks rem = { 0 };
   rc = xe_pipeline_run(m, &opt, &rem, &hooks, input_valid, &err);
   if (rc != XE_OK) {
      xe_error(in_path, "%s", err);
      free(err);
      goto done;
   }
   if (opt.validate && (opt.level > 0 || opt.passes.n) && !xe_validate(m, &err)) {
      if (input_valid) {
         xe_error(in_path, "output does not validate: %s", err);
         rc = XE_INTERNAL;
         free(err);
         goto done;
      }
      if (!quiet)
         xe_warning(in_path, "output does not validate (nor did the input): %s", err);
      free(err);
      err = NULL;
   }

   if (verify && xe_verify_modules(orig, m, verify, quiet)) {
      rc = XE_BAD_INPUT;
      goto done;
   }
   size_t nwords;
   uint32_t *words = xe_write(m, &nwords, false);
   rc = xe_write_file_atomic(out_path, words, nwords * 4, &err);
   free(words);
   if (rc) {
      xe_error(out_path, "%s", err);
      free(err);
      goto done;
   }
   if (m->manifest) {
      char *mp = manifest_path ? strdup(manifest_path)
                 : strcmp(out_path, "-") ? default_manifest_path(out_path) : NULL;
      if (mp) {
         cJSON_AddStringToObject(m->manifest, "module", out_path);
         rc = write_json(mp, m->manifest);
      } else if (!quiet) {
         xe_warning(NULL, "passes changed the host contract but the output is standard "
                          "output: give --manifest=FILE to keep it");
      }
      free(mp);
   }
   if (remarks && !quiet)
      print_remarks(&rem);
   if (report) {
      cJSON_AddNumberToObject(report, "xeopt_report", 1);
      cJSON_AddStringToObject(report, "input", in_path);
      cJSON_AddItemToObject(report, "remarks", remarks_json(&rem));
      if (!rc)
         rc = write_json(report_path, report);
   }
done:
   if (report)
      cJSON_Delete(report);
   xe_remarks_free(&rem);
   xe_module_free(m);
   if (orig)
      xe_module_free(orig);
   xe_options_free(&opt);
   return rc;
}
