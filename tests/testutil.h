/*
 * Helpers shared by the Check suites: paths, running commands, golden
 * comparison, and the external checkers (spirv-val always; ocloc for dg2
 * and pvc where it is installed, required when XEOPT_REQUIRE_OCLOC=1).
 */
#ifndef XEOPT_TESTUTIL_H
#define XEOPT_TESTUTIL_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

/* Runs every test of s (Check's normal output) and frees it; returns
 * the number of failed tests. */
int tu_run_suite(Suite *s);
/* Source-tree path of rel (malloc'd). */
char *tu_src(const char *rel);
/* Path in this test's scratch directory (malloc'd), created on demand. */
char *tu_tmp(const char *name);
/* Runs a shell command; returns its exit status (-1 if it did not run).
 * When out/err are non-NULL they receive its stdout/stderr (malloc'd). */
int tu_sh(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool tu_have(const char *tool);
/* Are ocloc and iga64 (IGC's compiler and disassembler) installed?  False
 * when not, and the test then skips its IGC part, unless
 * XEOPT_REQUIRE_OCLOC=1, which fails the test instead. */
bool tu_have_igc(void);
/* The sid toolchain's ocloc 26 (scripts/toolchains.sh:
 * ${XEOPT_TOOLCHAINS:-<source>/build/toolchains}/bin/ocloc-26), malloc'd,
 * or NULL: then the test skips its IGC 2.x part, unless
 * XEOPT_REQUIRE_OCLOC=1, which fails the test instead. */
char *tu_ocloc26(void);
char *tu_read(const char *path, size_t *n);
/* Reads a SPIR-V module (xe_read); fails the test when it cannot.  The
 * caller frees it (xe_module_free).  tu_load_src takes a path relative to
 * the source tree ("testdata/spv/x.spv"). */
struct xe_module *tu_load(const char *path);
struct xe_module *tu_load_src(const char *rel);
void tu_write(const char *path, const void *data, size_t n);
/* Compares text against the golden file (rewrites it when
 * XEOPT_UPDATE_GOLDEN=1); fails the test with both paths on a difference. */
void tu_golden(const char *golden_path, const char *actual);
/* Disassembly of a binary file for golden comparison (malloc'd). */
char *tu_disassemble_file(const char *path);
/* Assembles SPIR-V assembly text (spirv-as --target-env spv1.4, plus
 * flags such as "--preserve-numeric-ids", or NULL) into NAME.spv in the
 * scratch directory, the text kept beside it as NAME.spvasm; fails the test
 * with spirv-as's message when it does not assemble.  Returns the .spv path
 * (malloc'd). */
char *tu_assemble(const char *text, const char *name, const char *flags);
/* Fails the test unless spirv-val accepts path. */
void tu_spirv_val(const char *path);
/* Fails the test unless IGC (ocloc) compiles path for dg2 and pvc; skips
 * silently when ocloc is missing unless XEOPT_REQUIRE_OCLOC=1. */
void tu_ocloc(const char *path);
/* Absolute paths of the files in the source directory rel whose names end
 * in suffix, sorted, at most max (malloc'd); returns how many. */
int tu_list(const char *rel, const char *suffix, char **out, int max);
/* The command that runs the xeopt binary under test, quoted for the shell
 * (under valgrind when XEOPT_VALGRIND=1). */
const char *tu_xeopt(void);

#endif
