/*
 * Scale: a module with 100,000 kernels and a 100 MB module must go through
 * `xeopt -O2 --validate` (a quadratic step would not finish within the
 * test's timeout) and come out valid.  Not a timed test: the budget is
 * only there to catch blow-ups.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "testutil.h"

typedef struct words {
   uint32_t *w;
   size_t n, cap;
} words;

static void put(words *b, uint32_t v)
{
   if (b->n == b->cap) {
      b->cap = b->cap ? b->cap * 2 : 1 << 16;
      b->w = realloc(b->w, b->cap * 4);
   }
   b->w[b->n++] = v;
}

static void inst(words *b, unsigned op, unsigned n, const uint32_t *ops)
{
   put(b, (n + 1) << 16 | op);
   for (unsigned k = 0; k < n; k++)
      put(b, ops[k]);
}

/* Header and the common prologue: %1 void, %2 fn type, %3 uint, %4 = 1. */
static void prologue(words *b, uint32_t bound)
{
   uint32_t hdr[5] = { 0x07230203, 0x00010400, 0, bound, 0 };
   for (int k = 0; k < 5; k++)
      put(b, hdr[k]);
   inst(b, SpvOpCapability, 1, (uint32_t[]){ SpvCapabilityAddresses });
   inst(b, SpvOpCapability, 1, (uint32_t[]){ SpvCapabilityKernel });
   inst(b, SpvOpMemoryModel, 2, (uint32_t[]){ SpvAddressingModelPhysical64, SpvMemoryModelOpenCL });
}

/* Runs xeopt -O2 (with --validate when validate is set: SPIRV-Tools'
 * validator itself grows faster than linearly with the number of entry
 * points) and spirv-val on the output. */
static void run_xeopt(const char *name, words *b, bool validate, bool same)
{
   char *in = tu_tmp(name), *out;
   if (asprintf(&out, "%s.out", in) < 0)
      abort();
   tu_write(in, b->w, b->n * 4);
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "%s -O2 %s '%s' -o '%s'", tu_xeopt(), validate ? "--validate" : "",
                  in, out);
   ck_assert_msg(rc == 0, "%s: exit %d", name, rc);
   if (same)
      ck_assert_int_eq(tu_sh(NULL, NULL, "cmp '%s' '%s'", in, out), 0);
   else
      tu_spirv_val(out);
   unlink(in);
   unlink(out);
   free(err);
   free(in);
   free(out);
}

/* n trivial kernels, one function each. */
static void many_kernels(words *b, uint32_t n)
{
   /* ids: 1 void, 2 fn type, then per kernel k: function 3+2k, label 4+2k */
   prologue(b, 3 + 2 * n);
   for (uint32_t k = 0; k < n; k++) {
      char name[16];
      snprintf(name, sizeof(name), "k%u", k);
      uint32_t ops[8] = { SpvExecutionModelKernel, 3 + 2 * k };
      memset(ops + 2, 0, 16);
      memcpy(ops + 2, name, strlen(name));
      inst(b, SpvOpEntryPoint, 2 + (unsigned)(strlen(name) / 4 + 1), ops);
   }
   inst(b, SpvOpTypeVoid, 1, (uint32_t[]){ 1 });
   inst(b, SpvOpTypeFunction, 2, (uint32_t[]){ 2, 1 });
   for (uint32_t k = 0; k < n; k++) {
      inst(b, SpvOpFunction, 4, (uint32_t[]){ 1, 3 + 2 * k, 0, 2 });
      inst(b, SpvOpLabel, 1, (uint32_t[]){ 4 + 2 * k });
      inst(b, SpvOpReturn, 0, NULL);
      inst(b, SpvOpFunctionEnd, 0, NULL);
   }
}

START_TEST(hundred_thousand_kernels)
{
   /* spirv-val needs minutes for 100,000 entry points (its checks grow
    * faster than linearly), so the generator's output is validated at
    * 10,000 kernels, and at 100,000 xeopt -O2 (without --validate) must
    * finish and, having nothing to change, write the input back. */
   words b = { 0 };
   many_kernels(&b, 10000);
   run_xeopt("10k-kernels.spv", &b, true, false);
   free(b.w);
   b = (words){ 0 };
   many_kernels(&b, 100000);
   run_xeopt("100k-kernels.spv", &b, false, true);
   free(b.w);
}
END_TEST

START_TEST(hundred_megabytes)
{
   /* One kernel of 820 blocks, each ending in an OpSwitch with 16,000
    * cases to the next block: 100 MB with few ids (the validator limits
    * ids to 4,194,303) and a CFG with 13 million edges. */
   enum { CASES = 16000, BLOCKS = 820 };
   words b = { 0 };
   prologue(&b, 6 + BLOCKS + 1);
   inst(&b, SpvOpEntryPoint, 3, (uint32_t[]){ SpvExecutionModelKernel, 5, 'k' });
   inst(&b, SpvOpTypeVoid, 1, (uint32_t[]){ 1 });
   inst(&b, SpvOpTypeFunction, 2, (uint32_t[]){ 2, 1 });
   inst(&b, SpvOpTypeInt, 3, (uint32_t[]){ 3, 32, 0 });
   inst(&b, SpvOpConstant, 3, (uint32_t[]){ 3, 4, 7 });
   inst(&b, SpvOpFunction, 4, (uint32_t[]){ 1, 5, 0, 2 });
   uint32_t *ops = malloc((2 + 2 * CASES) * 4);
   for (uint32_t k = 0; k < BLOCKS; k++) {
      uint32_t next = 6 + k + 1;
      inst(&b, SpvOpLabel, 1, (uint32_t[]){ 6 + k });
      ops[0] = 4;
      ops[1] = next;
      for (uint32_t c = 0; c < CASES; c++) {
         ops[2 + 2 * c] = c;
         ops[3 + 2 * c] = next;
      }
      inst(&b, SpvOpSwitch, 2 + 2 * CASES, ops);
   }
   free(ops);
   inst(&b, SpvOpLabel, 1, (uint32_t[]){ 6 + BLOCKS });
   inst(&b, SpvOpReturn, 0, NULL);
   inst(&b, SpvOpFunctionEnd, 0, NULL);
   ck_assert_uint_ge(b.n * 4, 100u << 20);
   run_xeopt("100mb.spv", &b, true, false);
   free(b.w);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("scale");
   TCase *tc = tcase_create("scale");
   tcase_set_timeout(tc, 600);
   tcase_add_test(tc, hundred_thousand_kernels);
   tcase_add_test(tc, hundred_megabytes);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
