/*
 * Value ranges for integer SSA values and execution-count bounds for
 * blocks, for passes that must prove a value or a count small.
 *
 * Ranges are unsigned intervals [lo, hi] of the value read as unsigned of
 * its type's width; a value with no proof gets the full range of its type.
 * Execution bounds count how many times a block runs per call of its
 * function: the product of the constant trip counts of the loops that
 * enclose it.  Kernel bodies are called once per work-item by the wrapper.
 */
#ifndef XEOPT_RANGES_H
#define XEOPT_RANGES_H

#include "ir.h"

typedef struct xe_range {
   uint64_t lo, hi;
   bool known;     /* false: nothing proven beyond the type's width */
} xe_range;

/* Range of id (an integer value of function f, or a constant). */
xe_range xe_range_of(xe_module *m, xe_function *f, uint32_t id);

/* Constant trip count of loop index li of f (header executions per entry
 * of the loop); false when not a constant. */
bool xe_loop_trip_count(xe_module *m, xe_function *f, uint32_t li, uint64_t *count);

/* Upper bound of executions of block (CFG index) per call of f; false when
 * some enclosing loop has no constant trip count. */
bool xe_block_exec_bound(xe_module *m, xe_function *f, uint32_t block, uint64_t *bound);

#endif
