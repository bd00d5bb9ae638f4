/*
 * The interpreter's integer operations (src/exec/ops.c) against a table
 * computed here from the SPIR-V / OpenCL C definitions, over every sign
 * combination of the operands (issue 33: a wrong sign rule in OpSMod
 * survived every other test, and --verify cannot see an interpreter bug
 * that hits input and output alike).
 *
 * For each width (8, 16, 32, 64 bits) and as scalars and 4-vectors, one
 * kernel generated as SPIR-V assembly applies every operation to pairs
 * (a, b) drawn from {0, +-1, +-2, +-3, +-7, +-13, MIN, MIN+1, MAX-1, MAX}
 * (all pairs) and stores each result in its own slice of the output:
 *   IAdd ISub IMul, SDiv SRem SMod UDiv UMod (divisor d = b, or 5 where b
 *   is 0: division by zero is undefined), the shifts by s in [0, W) (s of
 *   the operand's type, and s converted to 64 bits, or 32 for W = 64),
 *   BitwiseAnd/Or/Xor, Not, SNegate, BitCount, the ten integer
 *   comparisons (through OpSelect), and SConvert/UConvert to and from 64
 *   bits.
 * Expected values: two's complement arithmetic modulo 2^W; SDiv truncates
 * toward zero, SRem takes the sign of a (a - b * SDiv), SMod the sign of b
 * (a - b * floor(a / b)), all computed in 128-bit integers, where nothing
 * overflows; SDiv/SRem/SMod of MIN by -1 (undefined) are not checked.  A
 * few rows are also written out by hand, independent of any formula.
 *
 * The floating-point operations likewise, for float and double, over all
 * pairs of {+-0, +-1, +-2.5, +-3, +-7.25, +-inf, NaN, 1e-30, -1e30}:
 * FAdd FSub FMul FDiv FRem FMod FNegate, the twelve ordered and unordered
 * comparisons, Ordered/Unordered, IsNan/IsInf/IsFinite, SignBitSet (the
 * sweep found FSub computing a + b unnoticed); and OpSwitch on a 64-bit
 * selector (two-word case literals; a one-word reading survived too).
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "io.h"
#include "runnable.h"
#include "testutil.h"

enum {
   OP_ADD, OP_SUB, OP_MUL, OP_SDIV, OP_SREM, OP_SMOD, OP_UDIV, OP_UMOD,
   OP_SLL, OP_SRL, OP_SRA, OP_AND, OP_OR, OP_XOR, OP_NOT, OP_NEG, OP_POPCNT,
   OP_EQ, OP_NE, OP_ULT, OP_ULE, OP_UGT, OP_UGE, OP_SLT, OP_SLE, OP_SGT, OP_SGE,
   OP_SLL_C, OP_SRL_C, OP_SRA_C,   /* shifts by an amount of another width */
   NOPS
};

/* The SPIR-V instruction of each operation; its operands are "a b", "a d"
 * (divisions), "a s" (shifts) or "a" (unary); comparisons select 1 or 0. */
static const struct { const char *name, *operands; bool cmp; } ops[NOPS] = {
   [OP_ADD] = {"OpIAdd", "ab"}, [OP_SUB] = {"OpISub", "ab"}, [OP_MUL] = {"OpIMul", "ab"},
   [OP_SDIV] = {"OpSDiv", "ad"}, [OP_SREM] = {"OpSRem", "ad"}, [OP_SMOD] = {"OpSMod", "ad"},
   [OP_UDIV] = {"OpUDiv", "ad"}, [OP_UMOD] = {"OpUMod", "ad"},
   [OP_SLL] = {"OpShiftLeftLogical", "as"}, [OP_SRL] = {"OpShiftRightLogical", "as"},
   [OP_SRA] = {"OpShiftRightArithmetic", "as"},
   [OP_AND] = {"OpBitwiseAnd", "ab"}, [OP_OR] = {"OpBitwiseOr", "ab"}, [OP_XOR] = {"OpBitwiseXor", "ab"},
   [OP_NOT] = {"OpNot", "a"}, [OP_NEG] = {"OpSNegate", "a"}, [OP_POPCNT] = {"OpBitCount", "a"},
   [OP_EQ] = {"OpIEqual", "ab", true}, [OP_NE] = {"OpINotEqual", "ab", true},
   [OP_ULT] = {"OpULessThan", "ab", true}, [OP_ULE] = {"OpULessThanEqual", "ab", true},
   [OP_UGT] = {"OpUGreaterThan", "ab", true}, [OP_UGE] = {"OpUGreaterThanEqual", "ab", true},
   [OP_SLT] = {"OpSLessThan", "ab", true}, [OP_SLE] = {"OpSLessThanEqual", "ab", true},
   [OP_SGT] = {"OpSGreaterThan", "ab", true}, [OP_SGE] = {"OpSGreaterThanEqual", "ab", true},
   /* c: s converted to 64 bits (to 32 for W = 64) */
   [OP_SLL_C] = {"OpShiftLeftLogical", "ac"}, [OP_SRL_C] = {"OpShiftRightLogical", "ac"},
   [OP_SRA_C] = {"OpShiftRightArithmetic", "ac"},
};

/* Conversions, into the second output (64-bit elements, or 32-bit for
 * W = 64): SConvert and UConvert of a. */
enum { NCONV = 2 };

#define MAXPAIRS 228   /* 15 * 15 = 225, rounded up to whole 4-vectors */

typedef struct table {
   unsigned w, vec, npairs;
   int64_t a[MAXPAIRS], b[MAXPAIRS], d[MAXPAIRS], s[MAXPAIRS];
} table;

static uint64_t mask(unsigned w) { return w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }
static int64_t sext(uint64_t x, unsigned w)
{
   x &= mask(w);
   return w < 64 && (x >> (w - 1) & 1) ? (int64_t)(x | ~mask(w)) : (int64_t)x;
}

static void make_table(table *t, unsigned w, unsigned vec)
{
   int64_t min = sext((uint64_t)1 << (w - 1), w), max = (int64_t)(mask(w) >> 1);
   const int64_t vals[15] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 13, -13, min, min + 1, max - 1, max};
   t->w = w;
   t->vec = vec;
   t->npairs = 0;
   for (int x = 0; x < 15; x++)
      for (int y = 0; y < 15; y++) {
         unsigned k = t->npairs++;
         t->a[k] = vals[x];
         t->b[k] = vals[y];
      }
   while (t->npairs % 4) {   /* whole vectors: pad with (1, 1) */
      t->a[t->npairs] = t->b[t->npairs] = 1;
      t->npairs++;
   }
   for (unsigned k = 0; k < t->npairs; k++) {
      t->d[k] = t->b[k] ? t->b[k] : 5;
      /* Every amount 0..W-1 with varied operands; 0, 1 and W-1 often. */
      t->s[k] = k % 3 == 0 ? (int64_t)((k / 3) % w) : k % 3 == 1 ? (int64_t)(w - 1) : (int64_t)(k % 2);
   }
}

/* The SPIR-V definition of op on (a, b, d, s) at width w, as W-bit
 * unsigned; false when undefined (SDiv/SRem/SMod of MIN by -1). */
static bool expect(unsigned op, unsigned w, int64_t a, int64_t b, int64_t d, int64_t s, uint64_t *r)
{
   uint64_t ua = (uint64_t)a & mask(w), ub = (uint64_t)b & mask(w), ud = (uint64_t)d & mask(w);
   __int128 A = a, B = b, D = d;
   int64_t min = sext((uint64_t)1 << (w - 1), w);
   __int128 q, x;
   switch (op) {
   case OP_ADD: x = A + B; break;
   case OP_SUB: x = A - B; break;
   case OP_MUL: x = (__int128)((unsigned __int128)ua * ub); break;
   case OP_SDIV: case OP_SREM: case OP_SMOD:
      if (a == min && d == -1) return false;
      q = A / D;   /* C: truncation toward zero */
      if (op == OP_SDIV) { x = q; break; }
      if (op == OP_SMOD && A % D != 0 && ((A < 0) != (D < 0))) q -= 1;   /* floor */
      x = A - D * q;
      break;
   case OP_UDIV: x = ua / ud; break;
   case OP_UMOD: x = ua % ud; break;
   case OP_SLL: case OP_SLL_C: x = (__int128)(ua << s); break;
   case OP_SRL: case OP_SRL_C: x = ua >> s; break;
   case OP_SRA: case OP_SRA_C: {
      /* floor(a / 2^s): arithmetic shift, written without >> on a negative */
      __int128 p = (__int128)1 << s;
      x = A >= 0 ? A / p : -((-A + p - 1) / p);
      break;
   }
   case OP_AND: x = ua & ub; break;
   case OP_OR: x = ua | ub; break;
   case OP_XOR: x = ua ^ ub; break;
   case OP_NOT: x = ~ua; break;
   case OP_NEG: x = -A; break;
   case OP_POPCNT: x = __builtin_popcountll(ua); break;
   case OP_EQ: x = a == b; break;
   case OP_NE: x = a != b; break;
   case OP_ULT: x = ua < ub; break;
   case OP_ULE: x = ua <= ub; break;
   case OP_UGT: x = ua > ub; break;
   case OP_UGE: x = ua >= ub; break;
   case OP_SLT: x = a < b; break;
   case OP_SLE: x = a <= b; break;
   case OP_SGT: x = a > b; break;
   case OP_SGE: x = a >= b; break;
   default: return false;
   }
   *r = (uint64_t)x & mask(w);
   return true;
}

/* The kernel "intops": (a, b, d, s, out, conv), each buffer of the
 * (vector) type; work-item i handles element i of each. */
static char *kernel_asm(unsigned w, unsigned vec)
{
   char *text;
   size_t len;
   FILE *f = open_memstream(&text, &len);
   unsigned cw = w == 64 ? 32 : 64, al = w / 8 * vec, cal = cw / 8 * vec;
   fprintf(f, "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n");
   if (w == 8) fprintf(f, "OpCapability Int8\n");
   if (w == 16) fprintf(f, "OpCapability Int16\n");
   fprintf(f, "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"intops\" %%gid\n"
              "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n");
   fprintf(f, "%%u64 = OpTypeInt 64 0\n%%u32 = OpTypeInt 32 0\n");
   if (w < 32) fprintf(f, "%%sw = OpTypeInt %u 0\n", w);
   const char *st = w == 64 ? "%u64" : w == 32 ? "%u32" : "%sw", *sc = cw == 64 ? "%u64" : "%u32";
   fprintf(f, "%%bool = OpTypeBool\n%%void = OpTypeVoid\n%%v3 = OpTypeVector %%u64 3\n"
              "%%pin = OpTypePointer Input %%v3\n");
   if (vec > 1)
      fprintf(f, "%%t = OpTypeVector %s %u\n%%c = OpTypeVector %s %u\n%%tb = OpTypeVector %%bool %u\n",
              st, vec, sc, vec, vec);
   const char *t = vec > 1 ? "%t" : st, *c = vec > 1 ? "%c" : sc, *tb = vec > 1 ? "%tb" : "%bool";
   fprintf(f, "%%pt = OpTypePointer CrossWorkgroup %s\n%%pc = OpTypePointer CrossWorkgroup %s\n"
              "%%fn = OpTypeFunction %%void %%pt %%pt %%pt %%pt %%pt %%pc\n", t, c);
   fprintf(f, "%%one_s = OpConstant %s 1\n%%zero_s = OpConstant %s 0\n", st, st);
   if (vec > 1)
      fprintf(f, "%%one = OpConstantComposite %%t %%one_s %%one_s %%one_s %%one_s\n"
                 "%%zero = OpConstantComposite %%t %%zero_s %%zero_s %%zero_s %%zero_s\n");
   const char *one = vec > 1 ? "%one" : "%one_s", *zero = vec > 1 ? "%zero" : "%zero_s";
   unsigned nw = MAXPAIRS / vec;
   for (unsigned op = 0; op < NOPS; op++)
      fprintf(f, "%%off%u = OpConstant %%u64 %u\n", op, op * nw);
   for (unsigned k = 0; k < NCONV; k++)
      fprintf(f, "%%koff%u = OpConstant %%u64 %u\n", k, k * nw);
   fprintf(f, "%%gid = OpVariable %%pin Input\n%%main = OpFunction %%void None %%fn\n");
   const char *params[6] = {"a", "b", "d", "s", "out", "conv"};
   for (int k = 0; k < 6; k++)
      fprintf(f, "%%%s = OpFunctionParameter %s\n", params[k], k == 5 ? "%pc" : "%pt");
   fprintf(f, "%%entry = OpLabel\n%%g = OpLoad %%v3 %%gid Aligned 32\n%%i = OpCompositeExtract %%u64 %%g 0\n");
   for (int k = 0; k < 4; k++)
      fprintf(f, "%%p%s = OpInBoundsPtrAccessChain %%pt %%%s %%i\n%%v%s = OpLoad %s %%p%s Aligned %u\n",
              params[k], params[k], params[k], t, params[k], al);
   fprintf(f, "%%vc = OpUConvert %s %%vs\n", c);
   for (unsigned op = 0; op < NOPS; op++) {
      char operands[64] = "";
      for (const char *o = ops[op].operands; *o; o++)
         sprintf(operands + strlen(operands), " %%v%c", *o);
      if (ops[op].cmp)
         fprintf(f, "%%cmp%u = %s %s%s\n%%r%u = OpSelect %s %%cmp%u %s %s\n", op, ops[op].name, tb, operands,
                 op, t, op, one, zero);
      else
         fprintf(f, "%%r%u = %s %s%s\n", op, ops[op].name, t, operands);
      fprintf(f, "%%x%u = OpIAdd %%u64 %%i %%off%u\n%%q%u = OpInBoundsPtrAccessChain %%pt %%out %%x%u\n"
                 "OpStore %%q%u %%r%u Aligned %u\n", op, op, op, op, op, op, al);
   }
   for (unsigned k = 0; k < NCONV; k++) {
      fprintf(f, "%%k%u = %s %s %%va\n", k, k ? "OpUConvert" : "OpSConvert", c);
      fprintf(f, "%%y%u = OpIAdd %%u64 %%i %%koff%u\n"
                 "%%z%u = OpInBoundsPtrAccessChain %%pc %%conv %%y%u\nOpStore %%z%u %%k%u Aligned %u\n",
              k, k, k, k, k, k, cal);
   }
   fprintf(f, "OpReturn\nOpFunctionEnd\n");
   fclose(f);
   return text;
}

static void put(void *buf, unsigned w, unsigned k, uint64_t v)
{
   memcpy((uint8_t *)buf + (size_t)k * (w / 8), &v, w / 8);   /* little-endian */
}

static uint64_t get(const void *buf, unsigned w, unsigned k)
{
   uint64_t v = 0;
   memcpy(&v, (const uint8_t *)buf + (size_t)k * (w / 8), w / 8);
   return v;
}

static void buffer(xe_launch *l, unsigned k, void *data, size_t size)
{
   l->args[k].kind = XE_ARG_BUFFER;
   l->args[k].data = data;
   l->args[k].size = size;
   if (l->nargs <= k) l->nargs = k + 1;
}

/* Runs the kernel of width w and vector size vec over the table; returns
 * the outputs (malloc'd: out[NOPS * npairs], conv[NCONV * npairs]). */
static void run_table(const table *t, uint8_t **out, uint8_t **conv)
{
   unsigned w = t->w, cw = w == 64 ? 32 : 64;
   char name[64];
   snprintf(name, sizeof name, "intops_%u_%u", w, t->vec);
   char *text = kernel_asm(w, t->vec);
   char *spv = tu_assemble(text, name, NULL), *err = NULL;
   free(text);
   xe_module *m = tu_load(spv);
   ck_assert_msg(xe_check_runnable(m, &err), "%s: %s", spv, err ? err : "?");
   uint8_t *in[4];
   for (int k = 0; k < 4; k++) in[k] = calloc(MAXPAIRS, 8);
   for (unsigned k = 0; k < t->npairs; k++) {
      put(in[0], w, k, (uint64_t)t->a[k]);
      put(in[1], w, k, (uint64_t)t->b[k]);
      put(in[2], w, k, (uint64_t)t->d[k]);
      put(in[3], w, k, (uint64_t)t->s[k]);
   }
   *out = calloc((size_t)NOPS * MAXPAIRS, 8);
   *conv = calloc((size_t)NCONV * MAXPAIRS, 8);
   memset(*out, 0xa5, (size_t)NOPS * MAXPAIRS * 8);
   xe_launch l = { .kernel = "intops", .global = {t->npairs / t->vec, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   for (int k = 0; k < 4; k++) buffer(&l, (unsigned)k, in[k], (size_t)MAXPAIRS * w / 8);
   buffer(&l, 4, *out, (size_t)NOPS * MAXPAIRS * w / 8);
   buffer(&l, 5, *conv, (size_t)NCONV * MAXPAIRS * cw / 8);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (int k = 0; k < 4; k++) free(in[k]);
   xe_module_free(m);
   free(spv);
}

static void check_width(unsigned w, unsigned vec)
{
   table t;
   make_table(&t, w, vec);
   uint8_t *out, *conv;
   run_table(&t, &out, &conv);
   unsigned checked = 0, cw = w == 64 ? 32 : 64;
   for (unsigned op = 0; op < NOPS; op++)
      for (unsigned k = 0; k < t.npairs; k++) {
         uint64_t want;
         if (!expect(op, w, t.a[k], t.b[k], t.d[k], t.s[k], &want))
            continue;
         uint64_t got = get(out, w, op * t.npairs + k);
         ck_assert_msg(got == want, "i%u%s %s(a=%lld, b=%lld, d=%lld, s=%lld) = %#llx, want %#llx", w,
                       vec > 1 ? "x4" : "", ops[op].name, (long long)t.a[k], (long long)t.b[k],
                       (long long)t.d[k], (long long)t.s[k], (unsigned long long)got,
                       (unsigned long long)want);
         checked++;
      }
   for (unsigned k = 0; k < t.npairs; k++) {
      uint64_t s = (uint64_t)t.a[k] & mask(cw), u = (uint64_t)t.a[k] & mask(w) & mask(cw);
      ck_assert_msg(get(conv, cw, k) == s, "i%u SConvert to i%u of %lld", w, cw, (long long)t.a[k]);
      ck_assert_msg(get(conv, cw, t.npairs + k) == u, "i%u UConvert to i%u of %lld", w, cw, (long long)t.a[k]);
   }
   /* Every operation checked on nearly every pair (MIN / -1 left out). */
   ck_assert_uint_ge(checked, NOPS * t.npairs - 3);
   free(out);
   free(conv);
}

START_TEST(int8) { check_width(8, 1); check_width(8, 4); }
END_TEST
START_TEST(int16) { check_width(16, 1); check_width(16, 4); }
END_TEST
START_TEST(int32) { check_width(32, 1); check_width(32, 4); }
END_TEST
START_TEST(int64) { check_width(64, 1); check_width(64, 4); }
END_TEST

/* The sign rules written out, not computed: OpenCL C's / and % (SDiv,
 * SRem) truncate toward zero, the remainder taking a's sign; SMod takes
 * b's; and the expectation code above agrees. */
START_TEST(by_hand)
{
   static const struct { int64_t a, b, sdiv, srem, smod; } rows[] = {
      {7, 3, 2, 1, 1},     {-7, 3, -2, -1, 2},  {7, -3, -2, 1, -2}, {-7, -3, 2, -1, -1},
      {6, 3, 2, 0, 0},     {-6, 3, -2, 0, 0},   {6, -3, -2, 0, 0},  {-6, -3, 2, 0, 0},
      {1, 7, 0, 1, 1},     {-1, 7, 0, -1, 6},   {1, -7, 0, 1, -6},  {-1, -7, 0, -1, -1},
      {0, -5, 0, 0, 0},    {-128, 3, -42, -2, 1}, {127, -2, -63, 1, -1},
   };
   for (unsigned w = 8; w <= 64; w *= 2) {
      table t;
      make_table(&t, w, 1);
      unsigned nrows = sizeof rows / sizeof rows[0];
      for (unsigned k = 0; k < t.npairs; k++) {
         unsigned r = k % nrows;
         t.a[k] = rows[r].a;
         t.b[k] = t.d[k] = rows[r].b;
      }
      uint8_t *out, *conv;
      run_table(&t, &out, &conv);
      for (unsigned k = 0; k < nrows; k++) {
         int64_t got[3] = {sext(get(out, w, OP_SDIV * t.npairs + k), w), sext(get(out, w, OP_SREM * t.npairs + k), w),
                           sext(get(out, w, OP_SMOD * t.npairs + k), w)};
         int64_t want[3] = {rows[k].sdiv, rows[k].srem, rows[k].smod};
         for (int j = 0; j < 3; j++) {
            ck_assert_msg(got[j] == want[j], "i%u %s(%lld, %lld) = %lld, want %lld", w,
                          ops[OP_SDIV + j].name, (long long)rows[k].a, (long long)rows[k].b,
                          (long long)got[j], (long long)want[j]);
            uint64_t e;
            ck_assert(expect(OP_SDIV + (unsigned)j, w, rows[k].a, rows[k].b, rows[k].b, 0, &e));
            ck_assert_int_eq(sext(e, w), want[j]);
         }
      }
      free(out);
      free(conv);
   }
}
END_TEST


/* ---- floating point: the same table for float and double ---- */

enum {
   F_ADD, F_SUB, F_MUL, F_DIV, F_REM, F_MOD, F_NEG,
   F_OEQ, F_ONE, F_OLT, F_OGT, F_OLE, F_OGE, F_UEQ, F_UNE, F_ULT, F_UGT, F_ULE, F_UGE,
   F_ORD, F_UNORD, F_ISNAN, F_ISINF, F_ISFINITE, F_SIGNBIT,
   NFOPS
};

static const struct { const char *name; int arity; bool cmp; } fops[NFOPS] = {
   [F_ADD] = {"OpFAdd", 2}, [F_SUB] = {"OpFSub", 2}, [F_MUL] = {"OpFMul", 2}, [F_DIV] = {"OpFDiv", 2},
   [F_REM] = {"OpFRem", 2}, [F_MOD] = {"OpFMod", 2}, [F_NEG] = {"OpFNegate", 1},
   [F_OEQ] = {"OpFOrdEqual", 2, true}, [F_ONE] = {"OpFOrdNotEqual", 2, true},
   [F_OLT] = {"OpFOrdLessThan", 2, true}, [F_OGT] = {"OpFOrdGreaterThan", 2, true},
   [F_OLE] = {"OpFOrdLessThanEqual", 2, true}, [F_OGE] = {"OpFOrdGreaterThanEqual", 2, true},
   [F_UEQ] = {"OpFUnordEqual", 2, true}, [F_UNE] = {"OpFUnordNotEqual", 2, true},
   [F_ULT] = {"OpFUnordLessThan", 2, true}, [F_UGT] = {"OpFUnordGreaterThan", 2, true},
   [F_ULE] = {"OpFUnordLessThanEqual", 2, true}, [F_UGE] = {"OpFUnordGreaterThanEqual", 2, true},
   [F_ORD] = {"OpOrdered", 2, true}, [F_UNORD] = {"OpUnordered", 2, true},
   [F_ISNAN] = {"OpIsNan", 1, true}, [F_ISINF] = {"OpIsInf", 1, true}, [F_ISFINITE] = {"OpIsFinite", 1, true},
   [F_SIGNBIT] = {"OpSignBitSet", 1, true},
};

#define FVALS 15
#define FPAIRS (FVALS * FVALS)

/* The kernel "fops": (a, b, out) of float (w 32) or double (64). */
static char *fkernel_asm(unsigned w)
{
   char *text;
   size_t len;
   FILE *f = open_memstream(&text, &len);
   fprintf(f, "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n%s"
              "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"fops\" %%gid\n"
              "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n"
              "%%u64 = OpTypeInt 64 0\n%%t = OpTypeFloat %u\n%%bool = OpTypeBool\n%%void = OpTypeVoid\n"
              "%%v3 = OpTypeVector %%u64 3\n%%pin = OpTypePointer Input %%v3\n"
              "%%pt = OpTypePointer CrossWorkgroup %%t\n%%fn = OpTypeFunction %%void %%pt %%pt %%pt\n"
              "%%one = OpConstant %%t 1\n%%zero = OpConstant %%t 0\n",
           w == 64 ? "OpCapability Float64\n" : "", w);
   for (unsigned op = 0; op < NFOPS; op++)
      fprintf(f, "%%off%u = OpConstant %%u64 %u\n", op, op * FPAIRS);
   fprintf(f, "%%gid = OpVariable %%pin Input\n%%main = OpFunction %%void None %%fn\n"
              "%%a = OpFunctionParameter %%pt\n%%b = OpFunctionParameter %%pt\n%%out = OpFunctionParameter %%pt\n"
              "%%entry = OpLabel\n%%g = OpLoad %%v3 %%gid Aligned 32\n%%i = OpCompositeExtract %%u64 %%g 0\n"
              "%%pa = OpInBoundsPtrAccessChain %%pt %%a %%i\n%%va = OpLoad %%t %%pa Aligned %u\n"
              "%%pb = OpInBoundsPtrAccessChain %%pt %%b %%i\n%%vb = OpLoad %%t %%pb Aligned %u\n", w / 8, w / 8);
   for (unsigned op = 0; op < NFOPS; op++) {
      const char *args = fops[op].arity == 2 ? "%va %vb" : "%va";
      if (fops[op].cmp)
         fprintf(f, "%%c%u = %s %%bool %s\n%%r%u = OpSelect %%t %%c%u %%one %%zero\n", op, fops[op].name, args, op, op);
      else
         fprintf(f, "%%r%u = %s %%t %s\n", op, fops[op].name, args);
      fprintf(f, "%%x%u = OpIAdd %%u64 %%i %%off%u\n%%q%u = OpInBoundsPtrAccessChain %%pt %%out %%x%u\n"
                 "OpStore %%q%u %%r%u Aligned %u\n", op, op, op, op, op, op, w / 8);
   }
   fprintf(f, "OpReturn\nOpFunctionEnd\n");
   fclose(f);
   return text;
}

/* The definitions: IEEE arithmetic at the type's width; FRem's result takes
 * the sign of a (C's fmod), FMod's the sign of b (a non-zero fmod result
 * of the other sign gets b added); ordered comparisons are false and
 * unordered ones true when either operand is NaN. */
static double fexpect(unsigned op, unsigned w, double a, double b)
{
   double r;
   switch (op) {
   case F_ADD: return w == 32 ? (double)((float)a + (float)b) : a + b;
   case F_SUB: return w == 32 ? (double)((float)a - (float)b) : a - b;
   case F_MUL: return w == 32 ? (double)((float)a * (float)b) : a * b;
   case F_DIV: return w == 32 ? (double)((float)a / (float)b) : a / b;
   case F_REM: return fmod(a, b);
   case F_MOD:
      r = fmod(a, b);
      return r != 0 && (r < 0) != (b < 0) ? r + b : r;
   case F_NEG: return -a;
   case F_OEQ: return a == b;
   case F_ONE: return !isunordered(a, b) && a != b;
   case F_OLT: return a < b;
   case F_OGT: return a > b;
   case F_OLE: return a <= b;
   case F_OGE: return a >= b;
   case F_UEQ: return isunordered(a, b) || a == b;
   case F_UNE: return isunordered(a, b) || a != b;
   case F_ULT: return isunordered(a, b) || a < b;
   case F_UGT: return isunordered(a, b) || a > b;
   case F_ULE: return isunordered(a, b) || a <= b;
   case F_UGE: return isunordered(a, b) || a >= b;
   case F_ORD: return !isunordered(a, b);
   case F_UNORD: return isunordered(a, b);
   case F_ISNAN: return isnan(a) != 0;
   case F_ISINF: return isinf(a) != 0;
   case F_ISFINITE: return isfinite(a) != 0;
   case F_SIGNBIT: return signbit(a) != 0;
   default: return NAN;
   }
}

static void check_float(unsigned w)
{
   const double vals[FVALS] = {0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -3.0, 7.25, -7.25,
                               INFINITY, -INFINITY, NAN, 1e-30, -1e30};
   double a[FPAIRS], b[FPAIRS];
   for (int x = 0; x < FVALS; x++)
      for (int y = 0; y < FVALS; y++) {
         a[x * FVALS + y] = vals[x];
         b[x * FVALS + y] = vals[y];
      }
   char name[64];
   snprintf(name, sizeof name, "fops_%u", w);
   char *text = fkernel_asm(w), *err = NULL;
   char *spv = tu_assemble(text, name, NULL);
   free(text);
   xe_module *m = tu_load(spv);
   uint8_t *ia = calloc(FPAIRS, 8), *ib = calloc(FPAIRS, 8), *out = calloc((size_t)NFOPS * FPAIRS, 8);
   for (int k = 0; k < FPAIRS; k++) {
      if (w == 32) {
         float fa = (float)a[k], fb = (float)b[k];
         memcpy(ia + 4 * k, &fa, 4);
         memcpy(ib + 4 * k, &fb, 4);
      } else {
         memcpy(ia + 8 * k, &a[k], 8);
         memcpy(ib + 8 * k, &b[k], 8);
      }
   }
   xe_launch l = { .kernel = "fops", .global = {FPAIRS, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   buffer(&l, 0, ia, (size_t)FPAIRS * w / 8);
   buffer(&l, 1, ib, (size_t)FPAIRS * w / 8);
   buffer(&l, 2, out, (size_t)NFOPS * FPAIRS * w / 8);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (unsigned op = 0; op < NFOPS; op++)
      for (int k = 0; k < FPAIRS; k++) {
         double x = w == 32 ? (double)(float)a[k] : a[k], y = w == 32 ? (double)(float)b[k] : b[k];
         double want = fexpect(op, w, x, y), got;
         if (w == 32) {
            float g;
            memcpy(&g, out + 4 * ((size_t)op * FPAIRS + k), 4);
            got = g;
            want = (double)(float)want;
         } else {
            memcpy(&got, out + 8 * ((size_t)op * FPAIRS + k), 8);
         }
         bool same = (isnan(want) && isnan(got)) || (got == want && signbit(got) == signbit(want));
         ck_assert_msg(same, "f%u %s(%g, %g) = %g, want %g", w, fops[op].name, x, y, got, want);
      }
   /* FRem and FMod by hand: -7.25 rem 3 = -1.25, mod 3 = 1.75; 7.25 mod -3 = -1.75. */
   ck_assert(fexpect(F_REM, w, -7.25, 3) == -1.25 && fexpect(F_MOD, w, -7.25, 3) == 1.75 &&
             fexpect(F_MOD, w, 7.25, -3) == -1.75 && fexpect(F_MOD, w, -7.25, -3) == -1.25);
   free(ia); free(ib); free(out);
   xe_module_free(m);
   free(spv);
}

START_TEST(float32) { check_float(32); }
END_TEST
START_TEST(float64) { check_float(64); }
END_TEST

/* OpSwitch on a 64-bit selector: each case literal is two words; values
 * that agree in their low 32 bits (1 and 2^32 + 1) go to different cases. */
START_TEST(switch64)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"sw\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%p64 = OpTypePointer CrossWorkgroup %u64\n%p32 = OpTypePointer CrossWorkgroup %u32\n"
      "%fn = OpTypeFunction %void %p64 %p32\n"
      "%k0 = OpConstant %u32 0\n%k1 = OpConstant %u32 10\n%k2 = OpConstant %u32 20\n"
      "%k3 = OpConstant %u32 30\n%k4 = OpConstant %u32 40\n"
      "%gid = OpVariable %pin Input\n%main = OpFunction %void None %fn\n"
      "%a = OpFunctionParameter %p64\n%out = OpFunctionParameter %p32\n"
      "%entry = OpLabel\n%g = OpLoad %v3 %gid Aligned 32\n%i = OpCompositeExtract %u64 %g 0\n"
      "%pa = OpInBoundsPtrAccessChain %p64 %a %i\n%va = OpLoad %u64 %pa Aligned 8\n"
      "OpSelectionMerge %m None\n"
      "OpSwitch %va %def 1 %c1 4294967296 %c2 4294967297 %c3 18446744073709551615 %c4\n"
      "%c1 = OpLabel\nOpBranch %m\n%c2 = OpLabel\nOpBranch %m\n%c3 = OpLabel\nOpBranch %m\n"
      "%c4 = OpLabel\nOpBranch %m\n%def = OpLabel\nOpBranch %m\n"
      "%m = OpLabel\n%r = OpPhi %u32 %k1 %c1 %k2 %c2 %k3 %c3 %k4 %c4 %k0 %def\n"
      "%po = OpInBoundsPtrAccessChain %p32 %out %i\nOpStore %po %r Aligned 4\nOpReturn\nOpFunctionEnd\n";
   static const uint64_t in[8] = {1, 4294967296ull, 4294967297ull, ~0ull, 0, 2, 0xffffffffull, 8589934593ull};
   static const uint32_t want[8] = {10, 20, 30, 40, 0, 0, 0, 0};
   char *spv = tu_assemble(text, "switch64", NULL), *err = NULL;
   xe_module *m = tu_load(spv);
   uint64_t a[8];
   uint32_t out[8] = {0};
   memcpy(a, in, sizeof a);
   xe_launch l = { .kernel = "sw", .global = {8, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   buffer(&l, 0, a, sizeof a);
   buffer(&l, 1, out, sizeof out);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (int k = 0; k < 8; k++)
      ck_assert_msg(out[k] == want[k], "switch on %#llx went to %u, want %u", (unsigned long long)in[k], out[k], want[k]);
   xe_module_free(m);
   free(spv);
}
END_TEST

/* OpSelect with a scalar bool condition on 4-component vectors picks the
 * whole vector (SPIR-V: a scalar condition selects the entire object);
 * only a vector condition selects component by component.  Lane 0's
 * condition is true, lane 1's false. */
START_TEST(select_scalar_cond)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"sel\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n%v4 = OpTypeVector %u32 4\n"
      "%p32 = OpTypePointer CrossWorkgroup %u32\n%pv4 = OpTypePointer CrossWorkgroup %v4\n"
      "%fn = OpTypeFunction %void %p32 %pv4\n"
      "%z = OpConstant %u32 0\n%k1 = OpConstant %u32 1\n%k2 = OpConstant %u32 2\n"
      "%k3 = OpConstant %u32 3\n%k4 = OpConstant %u32 4\n%k5 = OpConstant %u32 5\n"
      "%k6 = OpConstant %u32 6\n%k7 = OpConstant %u32 7\n%k8 = OpConstant %u32 8\n"
      "%ca = OpConstantComposite %v4 %k1 %k2 %k3 %k4\n%cb = OpConstantComposite %v4 %k5 %k6 %k7 %k8\n"
      "%gid = OpVariable %pin Input\n%main = OpFunction %void None %fn\n"
      "%a = OpFunctionParameter %p32\n%out = OpFunctionParameter %pv4\n"
      "%entry = OpLabel\n%g = OpLoad %v3 %gid Aligned 32\n%i = OpCompositeExtract %u64 %g 0\n"
      "%pa = OpInBoundsPtrAccessChain %p32 %a %i\n%va = OpLoad %u32 %pa Aligned 4\n"
      "%c = OpINotEqual %bool %va %z\n%r = OpSelect %v4 %c %ca %cb\n"
      "%po = OpInBoundsPtrAccessChain %pv4 %out %i\nOpStore %po %r Aligned 16\nOpReturn\nOpFunctionEnd\n";
   static const uint32_t want[8] = {1, 2, 3, 4, 5, 6, 7, 8};
   char *spv = tu_assemble(text, "select_scalar_cond", NULL), *err = NULL;
   xe_module *m = tu_load(spv);
   uint32_t a[2] = {1, 0}, out[8] = {0};
   xe_launch l = { .kernel = "sel", .global = {2, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   buffer(&l, 0, a, sizeof a);
   buffer(&l, 1, out, sizeof out);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (int k = 0; k < 8; k++)
      ck_assert_msg(out[k] == want[k], "component %d of lane %d is %u, want %u", k % 4, k / 4, out[k], want[k]);
   xe_module_free(m);
   free(spv);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("exec_intops");
   TCase *tc = tcase_create("intops");
   tcase_set_timeout(tc, 300);
   tcase_add_test(tc, by_hand);
   tcase_add_test(tc, int8);
   tcase_add_test(tc, int16);
   tcase_add_test(tc, int32);
   tcase_add_test(tc, int64);
   tcase_add_test(tc, float32);
   tcase_add_test(tc, float64);
   tcase_add_test(tc, switch64);
   tcase_add_test(tc, select_scalar_cond);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
