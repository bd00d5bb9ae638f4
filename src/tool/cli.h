/*
 * Helpers of the command line: diagnostics in the form
 * "xeopt: error: FILE: message", whole-file reads, atomic writes.
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

/* Writes n bytes to path ("-" = standard output) through a temporary file
 * in the same directory, renamed over path only when everything was
 * written and flushed, so path is never left partial.  A path that exists
 * and is not a regular file (/dev/null, a FIFO) is written in place.
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
