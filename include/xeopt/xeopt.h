/*
 * xeopt: a SPIR-V optimizer for OpenCL/SYCL kernels on Intel GPUs.
 *
 * The C API runs the same pipeline as the xeopt command line on a module
 * in memory.  It keeps no global state: separate calls may run on separate
 * threads at once; one options object may be shared by threads that only
 * read it (xeopt_optimize takes it const).
 *
 * Units: modules are SPIR-V binaries (SPIR-V 1.0-1.6 spec, section 2.3)
 * given as bytes, either byte order; the output is 32-bit words in the
 * input's byte order.  Strings are UTF-8, nul-terminated.
 */
#ifndef XEOPT_XEOPT_H
#define XEOPT_XEOPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes; the command line exits with the same numbers. */
typedef enum xeopt_status {
   XEOPT_OK = 0,
   XEOPT_ERROR_INPUT = 1,     /* invalid module or invalid option */
   XEOPT_ERROR_INTERNAL = 2,  /* a pass broke a valid module (a bug in xeopt), or memory
                               * ran out (error "out of memory") */
   XEOPT_ERROR_VERIFY = 3,    /* --verify found a difference (the CLI exits 1) */
} xeopt_status;

typedef struct xeopt_options xeopt_options;
typedef struct xeopt_result xeopt_result;

/* The library version, e.g. "0.1.0".  Static storage. */
const char *xeopt_version(void);

/* New options with the defaults of the command line (-O2, no
 * validation, no host-contract opt-ins).  Free with xeopt_options_destroy.
 * Returns NULL only when out of memory. */
xeopt_options *xeopt_options_create(void);
void xeopt_options_destroy(xeopt_options *options);

/* Sets one option, spelled as on the command line with its value joined
 * by '=' where it takes one: "-O1", "--passes=padding,block-io",
 * "--assume-padded", "--assume-padded=k1,k2", "--subgroup-size=16",
 * "--local-size=k:32,1,1", "--specialize=k:n=16", "--validate",
 * "--verify=3", "--verify-launch=launches.json" (the file is read here),
 * "--target=pvc" (devices no rewrite may slow down, by the cost model;
 * default all: dg2,pvc,bmg,lnl,ptl), "--isa-check=dg2,pvc" (IGC in the loop; xeopt_optimize
 * then fails with XEOPT_ERROR_INPUT, "--isa-check needs ocloc (IGC), not
 * found", when ocloc is missing, and "--isa-check cannot judge DEVICE:
 * WHY" when IGC cannot judge a device named), "--ocloc=PATH" (the ocloc
 * --isa-check runs, kept in these options only).  Options about files and printing (-o, --manifest,
 * --remarks, --report, --print-after, --quiet, --color) are the command
 * line's and are rejected here.  Returns XEOPT_OK, or XEOPT_ERROR_INPUT
 * with a message in *error (malloc'd, the caller frees) when error is
 * non-NULL. */
xeopt_status xeopt_options_set(xeopt_options *options, const char *option, char **error);

/* Optimizes the module in bytes[0..size).  Always returns a result (NULL
 * only when out of memory before the run starts), whose status says
 * whether it worked; the input is not modified.  The result owns
 * everything it hands out.  Memory running out during the run ends it
 * with XEOPT_ERROR_INTERNAL and the error "out of memory" (never an
 * abort); what that run had allocated besides the result is then not
 * freed.  Memory follows the module's size, not its id bound: a module
 * whose ids are far sparser than its size has them renumbered (in order)
 * as it is read, so its output's ids differ from the input's.
 * A module that is not an OpenCL kernel module, or that has an opcode or
 * extended instruction set SPIRV-Tools does not know, comes back with
 * XEOPT_OK and its own words (a remark or a warning says why); the latter
 * is XEOPT_ERROR_INPUT under --validate or --verify. */
xeopt_result *xeopt_optimize(const xeopt_options *options, const void *bytes, size_t size);

/* XEOPT_OK, or why no output was produced. */
xeopt_status xeopt_result_status(const xeopt_result *result);
/* The error message ("truncated header: ..."), NULL when status is OK. */
const char *xeopt_result_error(const xeopt_result *result);
/* The optimized module, *nwords words (byte order of the input); NULL
 * unless status is OK.  Valid until the result is destroyed. */
const uint32_t *xeopt_result_words(const xeopt_result *result, size_t *nwords);
/* Remarks as a JSON array of {"pass","kernel","kind","message"} objects
 * (kind: "applied", "missed", "note"; "kernel" absent for a remark of no
 * kernel).  The message is for people and may be reworded; what a program
 * acts on is the data a remark with a decision also carries:
 *   "decision": a stable lowercase name: "cost_slower" (missed: the cost
 *     model says the rewrite is slower on a device), "cost_thin" (missed:
 *     not slower, but the gain is under the pass's rule), "cost_straight_line"
 *     (missed, subgroup-versioning: a region without a loop in a kernel
 *     that does not spill), "specialize_unused" (missed: a --specialize
 *     argument bounds no loop), "versioned", "canonical_forms",
 *     "volatile_drop", "isa_kept", "isa_redone", "isa_original",
 *     "isa_probe" (--isa-check's verdicts); names are added, never renamed;
 *   "argument": the kernel argument's index the decision is about (only
 *     where it is about one: "specialize_unused");
 *   "figures": [{"device": "dg2", "before": N, "after": N}, ...] when the
 *     decision has estimates: per device, whole cycles (the cost model's,
 *     the kernel as is -> rewritten; IGC's for the "isa_" decisions).
 * Never NULL. */
const char *xeopt_result_remarks_json(const xeopt_result *result);
/* Warnings, one per line ("" when none): the input does not validate,
 * --verify's findings ("verify: kernel K: ..."), a module passed through
 * unchanged.  The library itself never prints. */
const char *xeopt_result_warnings(const xeopt_result *result);
/* The host-contract manifest as JSON (docs/manifest.md), or NULL when no
 * pass changed what the host must do. */
const char *xeopt_result_manifest_json(const xeopt_result *result);
void xeopt_result_destroy(xeopt_result *result);

/* The HTML report of result (docs/report.md), the page `xeopt
 * --report=FILE.html` writes, without the pass timings: input[0..size) is
 * the module given to xeopt_optimize (its source lines and disassembly),
 * title names it in the page (may be NULL).  Self-contained, no script.
 * Returns malloc'd text the caller frees with free(), NULL when input is
 * NULL or memory runs out. */
char *xeopt_result_report_html(const xeopt_result *result, const void *input, size_t size,
                               const char *title);

#ifdef __cplusplus
}
#endif

#endif
