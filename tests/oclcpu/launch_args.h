/*
 * Kernel arguments from `xeopt run --launch` strings, materialized exactly
 * as src/exec/launch.c does (splitmix64 seeded per argument), for the test
 * hosts that run kernels on Intel's CPU runtime: tests/oclcpu/host.c and
 * tests/layer/harness.c.
 */
#ifndef XEOPT_TESTS_LAUNCH_ARGS_H
#define XEOPT_TESTS_LAUNCH_ARGS_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

enum kind { ARG_BUF, ARG_LOCAL, ARG_SCALAR };
struct arg {
   enum kind kind;
   unsigned elem;
   int is_float, is_signed;
   size_t count, size;
   uint8_t *data;
   cl_mem mem;
};

/* Parses "buf:TYPE:COUNT[:FILL]", "local:BYTES" or "TYPE:VALUE" into a,
 * filling a buffer from seed; 0 when malformed. */
int parse_arg(const char *s, struct arg *a, uint64_t seed);

/* Writes p[0..n) to DIR/NAME (a buffer dump, as `xeopt run --dump` lays
 * them out); on failure prints "TOOL: path: why" and exits 1. */
void write_dump(const char *tool, const char *dir, const char *name, const void *p, size_t n);

#endif
