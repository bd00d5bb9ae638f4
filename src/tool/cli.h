/*
 * Helpers of the command line: diagnostics in the form
 * "xeopt: error: FILE: message", whole-file reads, outputs written as a set.
 */
#ifndef XEOPT_CLI_H
#define XEOPT_CLI_H

#include <stdbool.h>
#include <stddef.h>

void xe_error(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "xeopt: remark: KERNEL: [PASS] KIND: message" (KERNEL: omitted when NULL). */
void xe_remark_print(const char *kernel, const char *pass, const char *kind, const char *msg);
/* --color=auto|always|never; false for other values.  Auto colors when
 * standard error is a terminal and NO_COLOR is unset. */
bool xe_diag_set_color(const char *when);
void xe_warning(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "xeopt: note: FILE: message": something done that the user did not ask for. */
void xe_note(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads a whole file ("-" = standard input) into a malloc'd buffer.
 * NULL with *err (malloc'd) on failure: missing, a directory, unreadable. */
void *xe_read_file(const char *path, size_t *n, char **err);

/* One output file of a run (src/tool/output.c). */
typedef struct xe_output {
   const char *path;     /* as given; "-" is standard output */
   char *target;         /* path with its links followed: the file the rename replaces */
   char *tmp;            /* the written temporary beside target, NULL when none */
   int fd;               /* written in place: open descriptor (1: standard output), else -1 */
   const void *data;     /* the bytes, kept by the caller until the output is done */
   size_t n;
} xe_output;

/* The outputs of a run are written as a set: xe_output_stage each, and
 * only when all succeeded xe_output_write_in_place and then
 * xe_output_rename each; on any failure xe_output_discard all (a discarded
 * or renamed output may be discarded again).  Staging writes data in full
 * to a temporary file beside the target (following a symbolic link to the
 * file it names; a file that exists keeps its mode); standard output and
 * existing files that are not regular (/dev/null, a FIFO) are only opened
 * then and written in place.  A missing or read-only directory, a
 * read-only file (no write bit, even as root) or a directory is an error.
 * Each returns 0, or 1 with *err (malloc'd, without the path). */
int xe_output_stage(xe_output *o, const char *path, const void *data, size_t n, char **err);
int xe_output_write_in_place(xe_output *o, char **err);
int xe_output_rename(xe_output *o, char **err);
void xe_output_discard(xe_output *o);

/* A set of one output: path is never left partial or replaced on error.
 * Returns 0, or 1 with *err set. */
int xe_write_file_atomic(const char *path, const void *data, size_t n, char **err);

/* --isa-check's work directory ($TMPDIR/xeopt-isa.XXXXXX, malloc'd; NULL
 * when it cannot be made), removed by a handler of SIGINT, SIGTERM and
 * SIGHUP (src/tool/workdir.c) should one come before
 * xe_cli_isa_workdir_remove, which removes it and frees dir. */
char *xe_cli_isa_workdir(void);
void xe_cli_isa_workdir_remove(char *dir);

/* `xeopt run ...`: the interpreter's command (exec/). */
int xe_cmd_run(int argc, char **argv);

/* `xeopt --cost=DEVICES MODULE`: per-kernel estimates of the cost model
 * (src/tool/cost.c).  Returns the exit status. */
int xe_cmd_cost(const char *devices, const char *path);

#endif
