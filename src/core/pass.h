/*
 * What a pass sees: the pass context (xe_ctx) with the module, the options
 * the user gave, and the remarks it writes.  A pass is one file in
 * src/passes/ with one exported function
 *
 *    bool xeopt_pass_NAME(xe_ctx *ctx);
 *
 * returning whether it changed the module.  The registry (pipeline.c) gives
 * each pass its name, a one-line description, the -O levels it runs at and
 * the analyses it preserves; the pipeline drops the others after progress.
 */
#ifndef XEOPT_PASS_H
#define XEOPT_PASS_H

#include <stdarg.h>
#include "cost.h"
#include "ir.h"
#include "manifest.h"

/* A growable list of strings (option values). */
typedef struct xe_strlist {
   unsigned n;
   char **v;
} xe_strlist;
void xe_strlist_add(xe_strlist *l, const char *s);
void xe_strlist_free(xe_strlist *l);

/* Launch options given per kernel or for all kernels (--subgroup-size,
 * --local-size), parsed and checked by xe_options_parse. */
typedef struct xe_kernel_launch_opt {
   char *kernel;            /* NULL: every kernel */
   char *text;              /* the value as given (after "KERNEL:"), for messages */
   uint32_t v[3];           /* --subgroup-size: v[0] (8, 16 or 32);
                               --local-size: X, Y, Z (each 1..1024, Y, Z default 1) */
} xe_kernel_launch_opt;
typedef struct xe_kernel_launch_opts {
   unsigned n;
   xe_kernel_launch_opt *v;
} xe_kernel_launch_opts;
#define XE_TARGET_NONE 0x80000000u

/* --measure-path=fast|slow: for measuring only, the output is NOT
 * correct for every launch.  subgroup-versioning keeps its test but sends
 * the sub-groups that would take the other copy to a return, so IGC's
 * code for one path can be measured (the ISA estimate of a versioned
 * kernel, docs/cost-model.md "Versioning").  A run-time parameter of one
 * run of the pipeline (xe_ctx.measure_path): --isa-check measures both
 * paths of the real output whatever the user asked. */
enum xe_measure_path { XE_MEASURE_NONE, XE_MEASURE_FAST, XE_MEASURE_SLOW };

/* What one run of the pipeline is for, beside the user's options: a run
 * --isa-check makes to measure (one path of a versioned kernel, the real
 * output under --measure-path) says so here instead of in a copy of the
 * options.  NULL where a run takes one (pipeline.h): the options' own
 * (--measure-path as given, --verify when asked). */
typedef struct xe_run {
   enum xe_measure_path measure_path;   /* the passes' (xe_ctx.measure_path) */
   bool no_verify;                      /* no --verify: a measured path is not
                                           the input's program */
} xe_run;

typedef struct xe_options {
   int level;                  /* -O0/-O1/-O2 */
   xe_strlist passes;          /* --passes, overrides level when n > 0 */
   bool validate;              /* --validate: spvValidate input and after each pass */
   int verify;                 /* --verify[=N]: N random launches compared, 0 = off */
   /* --verify-launch=FILE.json (may repeat): the user's launches, each an
    * `xeopt run --launch` object (docs/exec.md), read when the option is
    * parsed; a JSON array (owned), NULL when none. */
   struct cJSON *verify_launches;
   /* Host-contract opt-ins.  Each list holds the raw option values; an
    * empty string means "all kernels". */
   xe_strlist assume_padded;   /* --assume-padded[=K,K] */
   bool assume_aligned;        /* --assume-aligned */
   xe_kernel_launch_opts subgroup_size; /* --subgroup-size=[KERNEL:]N */
   xe_kernel_launch_opts local_size;    /* --local-size=[KERNEL:]X[,Y,Z] */
   xe_strlist specialize;      /* --specialize KERNEL:ARG=VALUE */
   /* Cost model (src/analysis/cost.h; docs/cost-model.md). */
   unsigned target;            /* --target=dg2,pvc: bit set of enum xe_device; 0 = every device the model knows;
                                * XE_TARGET_NONE: --target=none, the model is not asked */
   unsigned isa_check;         /* --isa-check=dg2,pvc: devices IGC checks; 0 = off */
   char *ocloc;                /* --ocloc=PATH (owned), NULL when not given */
   /* --measure-path=fast|slow as the user asked it: the driver runs the
    * pipeline with it (xe_run), the passes read the run's
    * (xe_ctx.measure_path), never this. */
   enum xe_measure_path measure_path;
} xe_options;

void xe_options_init(xe_options *o);
void xe_options_free(xe_options *o);
/* Parses one pipeline option spelled as on the command line, with its
 * value after '=' ("-O1", "--passes=a,b", "--assume-padded=k").  Returns
 * false with *err (malloc'd) for unknown options or bad values. */
bool xe_options_parse(xe_options *o, const char *arg, char **err);
/* True if arg names a pipeline option that requires a value (the command
 * line then also accepts the value as the next argument). */
int xe_option_needs_value(const char *arg);
/* Checks every kernel a promise names (--assume-padded=K,...,
 * --specialize=K:..., --subgroup-size=K:..., --local-size=K:...) against
 * the module's kernels, names[0..n).  False with *err (malloc'd), which
 * lists the module's kernels, when one is not there. */
bool xe_options_check_kernels(const xe_options *o, const char *const *names, unsigned n,
                              char **err);
/* Is kernel opted in by a list of "K,K" / "" entries? */
bool xe_options_kernel_listed(const xe_strlist *l, const char *kernel);
/* The value for kernel in a list of "[KERNEL:]VALUE" entries, a
 * kernel-specific entry winning over a general one; NULL if none. */
const char *xe_options_kernel_value(const xe_strlist *l, const char *kernel);
/* The --subgroup-size / --local-size given for kernel (a kernel-specific
 * value wins over a general one, a later one over an earlier one); NULL if
 * none.  The values were checked when parsed. */
const xe_kernel_launch_opt *xe_options_subgroup_size(const xe_options *o, const char *kernel);
const xe_kernel_launch_opt *xe_options_local_size(const xe_options *o, const char *kernel);
/* ---- remarks ---- */

enum xe_remark_kind {
   XE_REMARK_APPLIED,   /* the pass changed something */
   XE_REMARK_MISSED,    /* a candidate was skipped; the message says why */
   XE_REMARK_NOTE,      /* anything else worth telling */
};

/* What a remark records as data (issue 48): the code that acts on a
 * decision (plain -O2's second run, --isa-check, the report) reads these,
 * never the message, which is for people and may be reworded. */
enum xe_decision {
   XE_DECISION_NONE,
   XE_DECISION_CANONICAL_FORMS, /* canonicalize rewrote forms the later passes read */
   XE_DECISION_VOLATILE_DROP,   /* private-arrays dropped Volatile alone (reads no address form) */
   XE_DECISION_VERSIONED,       /* subgroup-versioning versioned the kernel: two copies */
   XE_DECISION_ISA_KEPT,        /* --isa-check wrote the rewrite: figures input -> written */
   XE_DECISION_ISA_REDONE,      /* --isa-check rewrote it again with the cost model asked:
                                 * figures input -> the discarded output */
   XE_DECISION_ISA_ORIGINAL,    /* --isa-check wrote the original: figures input -> the
                                 * discarded output */
   XE_DECISION_ISA_PROBE,       /* --isa-check compared two candidates: figures without ->
                                 * with the cost model */
   XE_DECISION_COST_SLOWER,     /* missed: the cost model says the rewrite is slower on a
                                 * device; figures the kernel as is -> rewritten, per
                                 * device judged (xe_gate_remark) */
   XE_DECISION_COST_THIN,       /* missed: not slower, but the gain is under the pass's rule
                                 * (XE_COST_MIN_GAIN); figures as COST_SLOWER's */
   XE_DECISION_COST_STRAIGHT_LINE, /* missed (subgroup-versioning): a region without a loop
                                    * in a kernel that does not spill; figures as
                                    * COST_SLOWER's */
   XE_DECISION_SPECIALIZE_UNUSED, /* missed (loop-spec-constants): a --specialize argument
                                   * bounds no loop; subject: the argument's index */
};
/* The stable lowercase name of d ("cost_slower"), as the remarks JSON
 * writes it; NULL for XE_DECISION_NONE. */
const char *xe_decision_name(enum xe_decision d);

/* One device's estimates in a decision, as the message prints them
 * (whole cycles). */
typedef struct xe_remark_figure {
   enum xe_device device;
   double before, after;
   char *detail;               /* the counts behind them (owned); may be NULL */
} xe_remark_figure;

typedef struct xe_remark {
   const char *pass;        /* static string */
   const char *kernel;      /* may be NULL; in the remarks' text store */
   const char *message;     /* in the remarks' text store */
   enum xe_remark_kind kind;
   enum xe_decision decision;
   xe_remark_figure *figures;  /* nfigures of them, owned */
   unsigned nfigures;
   int subject;                /* the kernel argument (its index) the decision is
                                * about, where its comment says so; -1 none */
} xe_remark_entry;

/* The entries' kernel names and messages live in chunks of text owned by
 * the remarks and freed with them, not in a block each: a run writes a few
 * remarks per kernel, most of a kernel's under the same name, and at 64 MB
 * of input a block per string was about 2.5 million blocks that outlived
 * the passes' own tables around them in the heap (bench/notes/scale-by-size.md). */
typedef struct xe_remark_text xe_remark_text;

typedef struct xe_remarks {
   unsigned n, cap;
   xe_remark_entry *v;
   const char *pass;        /* the pass running now, set by the pipeline */
   xe_remark_text *text;    /* the chunks the strings are in (remarks.c) */
   const char *last_kernel; /* the kernel name stored last, shared by its next remarks */
} xe_remarks;

void xe_remark(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* As xe_remark, recording decision d.  Returns the entry, to add figures
 * to (valid until the next remark to r), or NULL when r is NULL. */
xe_remark_entry *xe_remark_decision(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
                                    enum xe_decision d, const char *fmt, ...)
   __attribute__((format(printf, 5, 6)));
/* xe_remark_decision with its arguments as a va_list (for writers that
 * take a format of their own, such as xe_gate_remark). */
xe_remark_entry *xe_remark_vdecision(xe_remarks *r, const char *kernel, enum xe_remark_kind kind,
                                     enum xe_decision d, const char *fmt, va_list ap)
   __attribute__((format(printf, 5, 0)));
/* Adds device dev's figures to e (detail copied; may be NULL). */
void xe_remark_figure_add(xe_remark_entry *e, enum xe_device dev, double before, double after,
                          const char *detail);
/* Writes e again into r, under the pass r runs now: kernel, kind, message,
 * decision, subject and figures copied. */
void xe_remark_copy(xe_remarks *r, const xe_remark_entry *e);
/* Does kernel have an applied remark recording decision d? */
bool xe_remarks_decided(const xe_remarks *r, const char *kernel, enum xe_decision d);
/* Frees r's entries and their text. */
void xe_remarks_free(xe_remarks *r);
/* Frees r's entry array and the figures of its entries, keeping the text
 * its entries point to: for entries moved out of r (plain.c).  r is left
 * without entries. */
void xe_remarks_free_entries(xe_remarks *r);
/* Moves from's text into to's, so entries moved from `from` to `to` stay
 * valid after from is freed. */
void xe_remarks_take_text(xe_remarks *to, xe_remarks *from);

/* ---- manifest: the host contract ----
 * A pass describes each requirement it puts on the host as a typed record
 * of the manifest layer (manifest.h) and adds it here, to the module's
 * manifest under kernels[kernel][section]; the manifest layer renders it
 * (one renderer per kind) and adds the schema version.  The record and
 * the strings and arrays it points to are only read: the caller keeps
 * them (a stack record pointing at IR names and literals is fine).
 * Sections and fields are docs/manifest.md's:
 *  - xe_manifest_add_padding: section "padding", kind guard (a removed
 *    bounds check) or buffer (min_elements: a formula, see
 *    xe_formula_max_record in launch_formula.h);
 *  - xe_manifest_add_spec_constant: section "spec_constants";
 *  - xe_manifest_add_requirement: section "launch" (uniform_work_groups,
 *    subgroup_size, local_size) or "alignment" (argument_alignment,
 *    global_offset), by the record's kind.
 * Entries keep the order of the calls.  Out of memory aborts. */
void xe_manifest_add_padding(xe_module *m, const char *kernel, const xe_mf_padding *p);
void xe_manifest_add_spec_constant(xe_module *m, const char *kernel,
                                   const xe_mf_spec_constant *s);
void xe_manifest_add_requirement(xe_module *m, const char *kernel, const xe_mf_requirement *q);

/* ---- analyses passes may preserve ----
 * Edits through the IR's edit functions make the analyses of the
 * functions they touch stale by themselves (generation counters).  After a
 * pass that changed the module and does not declare XE_PRESERVE_CFG, the
 * pipeline also drops every cached analysis (O(1), the module epoch), for
 * changes made behind the edit functions' back. */
enum {
   XE_PRESERVE_NONE = 0,
   XE_PRESERVE_CFG = 1 << 0,      /* blocks and terminators unchanged */
   XE_PRESERVE_ALL = ~0u,
};

/* The pass context: what the pipeline hands every pass.  The module and
 * remarks are the pass's to change (remarks may be NULL when a caller runs
 * a repair pass for itself); the options are read-only. */
typedef struct xe_ctx {
   xe_module *module;
   const xe_options *options;
   xe_remarks *remarks;
   /* Who judges each kernel's rewrites (judge.h; ask it with
    * xe_judge_devices and xe_judge_rewritable); NULL: the cost model, for
    * options->target. */
   const struct xe_judge *judge;
   /* This run's --measure-path (set by the pipeline from its run's
    * parameters, xe_run); XE_MEASURE_NONE but when measuring. */
   enum xe_measure_path measure_path;
} xe_ctx;

typedef bool (*xe_pass_fn)(xe_ctx *ctx);

typedef struct xe_pass_info {
   const char *name;
   const char *description;
   xe_pass_fn run;
   unsigned levels;         /* bit 1 = -O1, bit 2 = -O2 */
   unsigned preserves;
} xe_pass_info;

/* The registry in default order. */
const xe_pass_info *xe_passes(unsigned *count);
const xe_pass_info *xe_pass_find(const char *name);

#endif
