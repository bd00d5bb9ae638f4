/*
 * Which kernels the pipeline runs again without the rewrites that only
 * serve later passes (issue 30).  canonicalize and simplify-cfg's
 * bypasses, merges and selects put a kernel in the form the later passes'
 * analyses read; none of them can be priced, and IGC 2.40 compiles them
 * longer on real kernels.  After a first run, a kernel the model judges
 * (verdict XE_JUDGE_MODEL with a target) whose remarks show no later pass reading
 * them rewrote it gets a second run without them.
 */
#ifndef XEOPT_PLAIN_H
#define XEOPT_PLAIN_H

#include "judge.h"

/* From the first run's output m and remarks rem, under the judge j: flags
 * XE_PLAIN_CFG on the kernels that padding, block-io, subgroup-versioning
 * and loop-spec-constants left alone, and XE_PLAIN_CANON on those that
 * canonicalize rewrote and padding, block-io, subgroup-versioning,
 * private-arrays and generic-address left alone (loop-spec-constants does
 * not read canonicalize's forms).  A remark names a kernel by its entry point or by its
 * function's name (a body a front end wraps): both are looked up.
 * Returns whether a second run would differ from the first (a listed
 * kernel that simplify-cfg or canonicalize changed).  Linear in kernels
 * and remarks (names are looked up by hash). */
bool xe_plain_kernels(xe_module *m, const xe_remarks *rem, xe_judge *j);

/* After the second run: its remarks (second) keep what it said, except
 * the missed candidates and notes of the passes after simplify-cfg on the
 * flagged kernels, which come from the first run (first): those passes saw
 * the kernels canonical there, so what they said (a guard padding could
 * remove with --assume-padded, say) holds, while in the second run they
 * see the front end's form.  Moves entries and their text out of first (free it
 * after).
 * The result keeps the first run's order: a second-run remark takes the
 * place of the same remark there or, if applied, of the first run's
 * applied remark of its pass and kernel; so a kernel's remarks read the
 * same whether it had a second run or not (ctest frontends_debug_info).
 * Linear in remarks but for two sorts. */
void xe_plain_merge_remarks(xe_module *m, const xe_judge *j, xe_remarks *first,
                            xe_remarks *second);

#endif
