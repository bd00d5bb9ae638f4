/*
 * The host-contract manifest (docs/manifest.md; schema
 * docs/manifest.schema.json): the one reader and writer of its JSON.
 *
 * The typed records below are both what the reader returns and what the
 * passes hand the writer: a pass describes each host requirement as an
 * xe_mf_padding, xe_mf_spec_constant or xe_mf_requirement, core's pass.h
 * (xe_manifest_add_padding, ...) passes it to xe_mf_add_padding, ... here,
 * and the one renderer of each kind turns it into the section's JSON
 * object; the driver prints the document.  Consumers read it back with xe_mf_read into typed C
 * structures: the interpreter's --verify (which launches the contract
 * allows, how large a padded buffer is) and the Level Zero helper
 * (src/host/, the spec_constants section).  One reader means one answer to
 * "is this a manifest, and what does it ask of the host": the schema
 * version is checked, every section this file knows is checked field by
 * field, and a broken entry is an error that names the kernel, the section,
 * the entry index and the field.  A section the reader does not know is
 * kept as raw JSON (xe_mf_kernel.other): docs/manifest.md says a host that
 * does not know a section must not run the module, so callers decide.
 *
 * This is the lowest layer (docs/layers.md): it depends on cJSON only, so
 * the Level Zero helper, which sees no IR, can link it.
 *
 * Ownership: an xe_mf owns every string and array it points to (copies,
 * not pointers into the JSON it was read from); xe_mf_free releases them.
 * The strings are const so that a writer's caller can point a record at
 * strings it does not own (names in the IR, literals): the adders only
 * read a record and copy what they keep.
 * Numbers: JSON numbers are doubles; integer fields must be integral and
 * in range, 64-bit values that a double cannot hold (value_default) are
 * decimal strings, as the writer emits them.
 */
#ifndef XEOPT_MANIFEST_H
#define XEOPT_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;

/* The schema version this reader reads and the writer writes
 * ("xeopt_manifest": 1). */
#define XE_MANIFEST_VERSION 1

/* ---- formulas (docs/manifest.md, "Formulas") ---- */

/* A launch quantity a term multiplies by. */
enum xe_mf_quantity {
   XE_MF_Q_ONE,           /* no "launch" member */
   XE_MF_Q_GLOBAL_SIZE,   /* "global_size" */
   XE_MF_Q_GLOBAL_OFFSET, /* "global_offset" */
   XE_MF_Q_LOCAL_SIZE,    /* "local_size" */
};

/* coeff * [argument arg] * [launch[dim]] */
typedef struct xe_mf_term {
   int64_t coeff;
   int arg;                     /* kernel argument index, -1 when absent */
   enum xe_mf_quantity launch;
   unsigned dim;                /* 0..2; 0 when launch is XE_MF_Q_ONE */
} xe_mf_term;

/* A sum of terms, or (nmax > 0) the maximum of several formulas. */
typedef struct xe_mf_formula {
   const char *text;            /* the same for people; NULL when absent */
   unsigned nterms;
   xe_mf_term *terms;
   unsigned nmax;
   struct xe_mf_formula *max_of;
} xe_mf_formula;

/* The launch a formula is evaluated for (elements per dimension, as the
 * host passes them to zeCommandListAppendLaunchKernel). */
typedef struct xe_mf_launch {
   uint64_t global_size[3], global_offset[3], local_size[3];
} xe_mf_launch;

/* Reads one formula object ({"terms"} or {"max_of"}) into *f, checked as
 * in a manifest; on failure *f is empty and err says why.  Release with
 * xe_mf_formula_free. */
enum xe_mf_status xe_mf_formula_read(const struct cJSON *json, xe_mf_formula *f, char *err,
                                     size_t err_size);
void xe_mf_formula_free(xe_mf_formula *f);

/* The formula's value for launch l and argument values args[0..nargs).
 * False when a term names an argument at or past nargs, or a max_of is
 * empty.  Arithmetic wraps as int64_t. */
bool xe_mf_formula_eval(const xe_mf_formula *f, const xe_mf_launch *l, const int64_t *args,
                        unsigned nargs, int64_t *value);

/* ---- section "padding" (pass padding) ---- */

enum xe_mf_padding_kind { XE_MF_GUARD, XE_MF_BUFFER };

typedef struct xe_mf_padding {
   enum xe_mf_padding_kind kind;
   /* kind "guard": a removed bounds check. */
   const char *condition;       /* e.g. "x < n" */
   const char *proof;           /* "disjoint" or "same_index" */
   const char *narrowed;        /* NULL when absent */
   const char *file;            /* NULL when absent */
   unsigned line;               /* 0 when absent */
   /* kind "buffer": a buffer that must be padded. */
   unsigned arg;                /* kernel argument index */
   const char *name;
   unsigned element_size;       /* bytes */
   xe_mf_formula min_elements;  /* elements, not bytes */
   bool zero_fill, distinct_allocation;
   unsigned nnonnegative;       /* requires.nonnegative_args */
   unsigned *nonnegative_args;
   bool has_max_elements;       /* requires.max_elements present */
   uint64_t max_elements;
} xe_mf_padding;

/* ---- section "spec_constants" (pass loop-spec-constants) ---- */

typedef struct xe_mf_spec_constant {
   const char *argument;        /* OpName of the argument, "" if unnamed */
   unsigned index;              /* zero-based kernel argument index */
   const char *type;            /* "i32", ...; NULL when absent */
   unsigned size;               /* bytes: 1, 2, 4 or 8 */
   uint32_t flag_spec_id, value_spec_id;
   bool flag_default;           /* false when absent */
   int64_t value_default;       /* 0 when absent */
   unsigned loops;              /* 0 when absent */
   const char *guarantee;       /* NULL when absent */
} xe_mf_spec_constant;

/* ---- sections "launch" and "alignment" (pass block-io) ---- */

enum xe_mf_requirement_kind {
   XE_MF_UNIFORM_WORK_GROUPS,   /* launch: text */
   XE_MF_SUBGROUP_SIZE,         /* launch: value[0], origin */
   XE_MF_LOCAL_SIZE,            /* launch: value[0..2], origin */
   XE_MF_ARGUMENT_ALIGNMENT,    /* alignment: argument, name, bytes, origin */
   XE_MF_GLOBAL_OFFSET,         /* alignment: dimension, multiple_of, origin */
};

typedef struct xe_mf_requirement {
   enum xe_mf_requirement_kind kind;
   const char *pass;            /* the pass that added it */
   const char *text;            /* uniform_work_groups; NULL when absent */
   const char *origin;          /* the option behind it; NULL when absent */
   uint32_t value[3];           /* subgroup_size: value[0]; local_size: X, Y, Z */
   unsigned argument;           /* argument_alignment: argument index */
   const char *name;            /* argument_alignment: argument name */
   unsigned bytes;              /* argument_alignment */
   unsigned dimension;          /* global_offset: 0..2 */
   uint64_t multiple_of;        /* global_offset */
} xe_mf_requirement;

/* ---- the document ---- */

/* A section this reader does not know, kept as it was. */
typedef struct xe_mf_section {
   char *name;
   struct cJSON *entries;       /* owned copy of the array */
} xe_mf_section;

typedef struct xe_mf_kernel {
   char *name;                  /* entry-point name */
   unsigned npadding;
   xe_mf_padding *padding;
   unsigned nspec_constants;
   xe_mf_spec_constant *spec_constants;
   unsigned nlaunch;
   xe_mf_requirement *launch;
   unsigned nalignment;
   xe_mf_requirement *alignment;
   unsigned nother;
   xe_mf_section *other;
} xe_mf_kernel;

typedef struct xe_mf {
   unsigned version;            /* XE_MANIFEST_VERSION */
   const char *module;          /* "module", NULL when absent (the driver's own manifest) */
   unsigned nkernels;
   xe_mf_kernel *kernels;       /* in the document's order */
} xe_mf;

enum xe_mf_status {
   XE_MF_OK = 0,
   XE_MF_INVALID,               /* not a manifest of this version, or a broken entry */
   XE_MF_NO_MEMORY,
};

/* Reads a parsed manifest into *out.  On anything but XE_MF_OK, *out is
 * empty (nothing to free) and err holds a one-line message (err_size > 0),
 * e.g. `kernel "k": padding[1]: "min_elements": missing`.  json is only
 * read. */
enum xe_mf_status xe_mf_read(const struct cJSON *json, xe_mf *out, char *err, size_t err_size);
/* The same from JSON text of len bytes (need not be NUL-terminated). */
enum xe_mf_status xe_mf_read_text(const char *text, size_t len, xe_mf *out, char *err,
                                  size_t err_size);
/* Releases everything *m owns and empties it; m may be empty already. */
void xe_mf_free(xe_mf *m);
/* The kernel's contract, NULL when the manifest does not name it. */
const xe_mf_kernel *xe_mf_find(const xe_mf *m, const char *kernel);

/* ---- the writer ---- */

/* An index from kernel name to the kernel's object under "kernels", for a
 * document built with the two functions below.  Why: cJSON finds an object
 * member by a linear search, and every pass looks up each kernel it writes
 * for, so without an index a module of n kernels cost O(n^2) string
 * compares (15 million at 1,600 kernels).  The index is created on first
 * use through *index, rebuilt when the document changed behind it (another
 * root, or kernels added without it), and released with xe_mf_index_free.
 * It holds pointers into the document: kernels must not be removed from a
 * document while its index lives (nothing in xeopt removes them). */
typedef struct xe_mf_index xe_mf_index;
void xe_mf_index_free(xe_mf_index *index);

/* Appends entry (owned by the document afterwards) to
 * kernels[kernel][section] of *root, creating the document (with its
 * schema version), the kernel and the section when missing.  index may be
 * NULL (a linear search per call).  Aborts when out of memory, as the rest
 * of the optimizer does. */
void xe_mf_add(struct cJSON **root, xe_mf_index **index, const char *kernel,
               const char *section, struct cJSON *entry);
/* Typed adders: render the record as its section's entry (docs/manifest.md,
 * "padding", "spec_constants", "launch" and "alignment"; a NULL string,
 * a line of 0 and max_elements without has_max_elements are left out) and
 * append it as xe_mf_add does; xe_mf_write renders with the same code.  The record
 * and what it points to are only read; the caller keeps them.
 * A padding entry of kind buffer must have min_elements with nterms or
 * nmax > 0 (a formula with neither renders as "terms": []).
 * xe_mf_add_requirement picks the section from the kind: "launch" for
 * uniform_work_groups, subgroup_size and local_size, "alignment" for
 * argument_alignment and global_offset.  Abort when out of memory. */
void xe_mf_add_padding(struct cJSON **root, xe_mf_index **index, const char *kernel,
                       const xe_mf_padding *p);
void xe_mf_add_spec_constant(struct cJSON **root, xe_mf_index **index, const char *kernel,
                             const xe_mf_spec_constant *s);
void xe_mf_add_requirement(struct cJSON **root, xe_mf_index **index, const char *kernel,
                           const xe_mf_requirement *q);
/* The kernel's object in *root, created (with the document) when missing;
 * index as for xe_mf_add. */
struct cJSON *xe_mf_kernel_json(struct cJSON **root, xe_mf_index **index, const char *kernel);
/* The JSON of a read manifest: xe_mf_write(xe_mf_read(j)) equals j for
 * every manifest xeopt writes.  NULL when out of memory. */
struct cJSON *xe_mf_write(const xe_mf *m);
/* A formula's object ({"text", "terms"} or {"text", "max_of"}), the
 * caller's to delete; NULL when out of memory. */
struct cJSON *xe_mf_formula_json(const xe_mf_formula *f);

#endif
