/*
 * The HTML report (docs/report.md): one self-contained page per run, with
 * a summary of the kernels, each kernel's source (or disassembly) with the
 * remarks beside the lines they concern, the host requirements of the
 * manifest and --isa-check's figures.
 */
#ifndef XEOPT_REPORT_HTML_H
#define XEOPT_REPORT_HTML_H

#include <stddef.h>

#include "driver.h"

struct cJSON;

/* The page for result r of optimizing input[0..size) (the module as given,
 * either byte order).  title names the input (a file name; may be NULL);
 * input_path, when not NULL, is where the input was read from: a source
 * file named by a relative OpString is also looked for beside it.  stats,
 * when not NULL, is the command line's report object (its "passes"
 * array).  Returns malloc'd text (the caller frees), NULL when out of
 * memory. */
char *xe_report_html(const xeopt_result *r, const void *input, size_t size, const char *title,
                     const char *input_path, const struct cJSON *stats);

#endif
