/*
 * gen_kernels: writes one valid SPIR-V module of many small OpenCL kernels,
 * at least SIZE bytes, for the scale benchmark (bench/scale-size) and the
 * linear-time test (tests/scale_linear.sh).  No clang: the words are made
 * here, so a 64 MB module takes a fraction of a second.
 *
 *   gen_kernels SIZE OUT.spv        SIZE in bytes, or with a K or M suffix
 *
 * Four kernel shapes by index k (no seed; the same output on every run),
 * each with a candidate for a pass, so that every pass sees every kernel:
 *   0 a guard of two compares before a lane-indexed copy (simplify-cfg's
 *     merge, padding, block-io, subgroup-versioning)
 *   1 a loop bounded by an argument (loop-spec-constants)
 *   2 a private uint[4] array with constant indices (private-arrays)
 *   3 a call to a helper of its own that has a branch (a function that is
 *     no kernel: simplify-cfg's gate for helpers)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

typedef struct words {
   uint32_t *w;
   size_t n, cap;
} words;

static void put(words *b, uint32_t v)
{
   if (b->n == b->cap) {
      b->cap = b->cap ? b->cap * 2 : 1 << 16;
      b->w = realloc(b->w, b->cap * sizeof(*b->w));
      if (!b->w) {
         fputs("gen_kernels: out of memory\n", stderr);
         exit(2);
      }
   }
   b->w[b->n++] = v;
}

/* One instruction: opcode and its n operand words. */
static void inst_n(words *b, unsigned op, unsigned n, const uint32_t *ops)
{
   put(b, (n + 1) << 16 | op);
   for (unsigned k = 0; k < n; k++)
      put(b, ops[k]);
}

#define INST(b, op, ...)                                                                     \
   inst_n(b, op, sizeof((uint32_t[]){ __VA_ARGS__ }) / 4, (uint32_t[]){ __VA_ARGS__ })

/* A literal string's words (nul-terminated, padded). */
static unsigned str_words(uint32_t *dst, const char *s)
{
   size_t len = strlen(s) + 1, n = (len + 3) / 4;
   memset(dst, 0, n * 4);
   memcpy(dst, s, len);
   return (unsigned)n;
}

/* The shared ids (types, constants, the GlobalInvocationId variable). */
enum {
   T_VOID = 1, T_BOOL, T_UINT, T_ULONG, T_V3ULONG, T_PIN_V3, T_PCW_UINT, T_FN_KERNEL,
   T_FN_HELPER, T_ARR4, T_PFN_ARR4, T_PFN_UINT, C_0, C_1, C_2, C_3, C_4, C_7, V_GID,
   FIRST_LOCAL,
};

static uint32_t next_id = FIRST_LOCAL;

static uint32_t id(void)
{
   return next_id++;
}

/* The constant a kernel multiplies by: one of the shared ones. */
static uint32_t kconst(unsigned k)
{
   static const uint32_t c[] = { C_2, C_3, C_4, C_7 };
   return c[k % 4];
}

/* The lane index as a 64-bit and a 32-bit value (two instructions). */
static void lane(words *f, uint32_t *g64, uint32_t *g32)
{
   uint32_t g3 = id();
   *g64 = id();
   *g32 = id();
   INST(f, SpvOpLoad, T_V3ULONG, g3, V_GID, SpvMemoryAccessAlignedMask, 32);
   INST(f, SpvOpCompositeExtract, T_ULONG, *g64, g3, 0);
   INST(f, SpvOpUConvert, T_UINT, *g32, *g64);
}

/* kernel void guard(global uint *in, global uint *out, uint n):
 *   if (i < n && i != K) out[i] = in[i] * K; */
static void shape_guard(words *f, unsigned k, uint32_t in, uint32_t out, uint32_t n)
{
   uint32_t g64, g32, l1 = id(), l2 = id(), ret = id(), c1 = id(), c2 = id();
   uint32_t pi = id(), v = id(), v2 = id(), po = id();
   lane(f, &g64, &g32);
   INST(f, SpvOpULessThan, T_BOOL, c1, g32, n);
   INST(f, SpvOpBranchConditional, c1, l1, ret);
   INST(f, SpvOpLabel, l1);
   INST(f, SpvOpINotEqual, T_BOOL, c2, g32, kconst(k));
   INST(f, SpvOpBranchConditional, c2, l2, ret);
   INST(f, SpvOpLabel, l2);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, pi, in, g64);
   INST(f, SpvOpLoad, T_UINT, v, pi, SpvMemoryAccessAlignedMask, 4);
   INST(f, SpvOpIMul, T_UINT, v2, v, kconst(k));
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, po, out, g64);
   INST(f, SpvOpStore, po, v2, SpvMemoryAccessAlignedMask, 4);
   INST(f, SpvOpBranch, ret);
   INST(f, SpvOpLabel, ret);
   inst_n(f, SpvOpReturn, 0, NULL);
}

/* kernel void loop(global uint *in, global uint *out, uint n):
 *   uint acc = K; for (uint j = 0; j < n; j++) acc += in[j]; out[i] = acc; */
static void shape_loop(words *f, unsigned k, uint32_t in, uint32_t out, uint32_t n,
                       uint32_t entry)
{
   uint32_t g64, g32, head = id(), body = id(), exit = id(), j = id(), acc = id();
   uint32_t c = id(), pi = id(), v = id(), acc2 = id(), j2 = id(), po = id();
   lane(f, &g64, &g32);
   INST(f, SpvOpBranch, head);
   INST(f, SpvOpLabel, head);
   INST(f, SpvOpPhi, T_UINT, j, C_0, entry, j2, body);
   INST(f, SpvOpPhi, T_UINT, acc, kconst(k), entry, acc2, body);
   INST(f, SpvOpULessThan, T_BOOL, c, j, n);
   INST(f, SpvOpBranchConditional, c, body, exit);
   INST(f, SpvOpLabel, body);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, pi, in, j);
   INST(f, SpvOpLoad, T_UINT, v, pi, SpvMemoryAccessAlignedMask, 4);
   INST(f, SpvOpIAdd, T_UINT, acc2, acc, v);
   INST(f, SpvOpIAdd, T_UINT, j2, j, C_1);
   INST(f, SpvOpBranch, head);
   INST(f, SpvOpLabel, exit);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, po, out, g64);
   INST(f, SpvOpStore, po, acc, SpvMemoryAccessAlignedMask, 4);
   inst_n(f, SpvOpReturn, 0, NULL);
}

/* kernel void array(global uint *in, global uint *out, uint n):
 *   uint a[4]; a[j] = in[i] + j for j < 4; out[i] = a[1] * a[3] + n; */
static void shape_array(words *f, unsigned k, uint32_t in, uint32_t out, uint32_t n,
                        uint32_t var)
{
   (void)k;
   uint32_t g64, g32, pi = id(), v = id();
   lane(f, &g64, &g32);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, pi, in, g64);
   INST(f, SpvOpLoad, T_UINT, v, pi, SpvMemoryAccessAlignedMask, 4);
   static const uint32_t idx[4] = { C_0, C_1, C_2, C_3 };
   for (unsigned e = 0; e < 4; e++) {
      uint32_t p = id(), x = id();
      INST(f, SpvOpIAdd, T_UINT, x, v, idx[e]);
      INST(f, SpvOpInBoundsAccessChain, T_PFN_UINT, p, var, idx[e]);
      INST(f, SpvOpStore, p, x, SpvMemoryAccessAlignedMask, 4);
   }
   uint32_t p1 = id(), p3 = id(), a1 = id(), a3 = id(), m = id(), r = id(), po = id();
   INST(f, SpvOpInBoundsAccessChain, T_PFN_UINT, p1, var, C_1);
   INST(f, SpvOpInBoundsAccessChain, T_PFN_UINT, p3, var, C_3);
   INST(f, SpvOpLoad, T_UINT, a1, p1, SpvMemoryAccessAlignedMask, 4);
   INST(f, SpvOpLoad, T_UINT, a3, p3, SpvMemoryAccessAlignedMask, 4);
   INST(f, SpvOpIMul, T_UINT, m, a1, a3);
   INST(f, SpvOpIAdd, T_UINT, r, m, n);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, po, out, g64);
   INST(f, SpvOpStore, po, r, SpvMemoryAccessAlignedMask, 4);
   inst_n(f, SpvOpReturn, 0, NULL);
}

/* uint helper(uint x) { return x > K ? x * K : x; } written with a branch. */
static uint32_t helper(words *f, words *names, unsigned k)
{
   uint32_t fn = id(), x = id(), h0 = id(), h1 = id(), h2 = id(), c = id(), y = id(), r = id();
   uint32_t s[8];
   char name[32];
   snprintf(name, sizeof(name), "helper%u", k);
   s[0] = fn;
   inst_n(names, SpvOpName, 1 + str_words(s + 1, name), s);
   INST(f, SpvOpFunction, T_UINT, fn, SpvFunctionControlDontInlineMask, T_FN_HELPER);
   INST(f, SpvOpFunctionParameter, T_UINT, x);
   INST(f, SpvOpLabel, h0);
   INST(f, SpvOpUGreaterThan, T_BOOL, c, x, kconst(k));
   INST(f, SpvOpBranchConditional, c, h1, h2);
   INST(f, SpvOpLabel, h1);
   INST(f, SpvOpIMul, T_UINT, y, x, kconst(k));
   INST(f, SpvOpBranch, h2);
   INST(f, SpvOpLabel, h2);
   INST(f, SpvOpPhi, T_UINT, r, x, h0, y, h1);
   INST(f, SpvOpReturnValue, r);
   inst_n(f, SpvOpFunctionEnd, 0, NULL);
   return fn;
}

/* kernel void call(global uint *in, global uint *out, uint n):
 *   out[i] = helper(in[i]) + n; */
static void shape_call(words *f, uint32_t hfn, uint32_t in, uint32_t out, uint32_t n)
{
   uint32_t g64, g32, pi = id(), v = id(), r = id(), s = id(), po = id();
   lane(f, &g64, &g32);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, pi, in, g64);
   INST(f, SpvOpLoad, T_UINT, v, pi, SpvMemoryAccessAlignedMask, 4);
   INST(f, SpvOpFunctionCall, T_UINT, r, hfn, v);
   INST(f, SpvOpIAdd, T_UINT, s, r, n);
   INST(f, SpvOpInBoundsPtrAccessChain, T_PCW_UINT, po, out, g64);
   INST(f, SpvOpStore, po, s, SpvMemoryAccessAlignedMask, 4);
   inst_n(f, SpvOpReturn, 0, NULL);
}

static void kernel(words *eps, words *names, words *fns, unsigned k)
{
   static const char *shape[] = { "guard", "loop", "array", "call" };
   char name[32];
   snprintf(name, sizeof(name), "%s%u", shape[k % 4], k);
   uint32_t hfn = k % 4 == 3 ? helper(fns, names, k) : 0;
   uint32_t fn = id(), in = id(), out = id(), n = id(), entry = id(), s[16];
   s[0] = SpvExecutionModelKernel;
   s[1] = fn;
   unsigned w = str_words(s + 2, name);
   s[2 + w] = V_GID;
   inst_n(eps, SpvOpEntryPoint, 3 + w, s);
   s[0] = fn;
   inst_n(names, SpvOpName, 1 + str_words(s + 1, name), s);
   INST(fns, SpvOpFunction, T_VOID, fn, SpvFunctionControlMaskNone, T_FN_KERNEL);
   INST(fns, SpvOpFunctionParameter, T_PCW_UINT, in);
   INST(fns, SpvOpFunctionParameter, T_PCW_UINT, out);
   INST(fns, SpvOpFunctionParameter, T_UINT, n);
   INST(fns, SpvOpLabel, entry);
   switch (k % 4) {
   case 0:
      shape_guard(fns, k, in, out, n);
      break;
   case 1:
      shape_loop(fns, k, in, out, n, entry);
      break;
   case 2: {
      uint32_t var = id();
      INST(fns, SpvOpVariable, T_PFN_ARR4, var, SpvStorageClassFunction);
      shape_array(fns, k, in, out, n, var);
      break;
   }
   default:
      shape_call(fns, hfn, in, out, n);
      break;
   }
   inst_n(fns, SpvOpFunctionEnd, 0, NULL);
}

/* The types, constants and the lane-id variable. */
static void globals(words *g, words *dec)
{
   INST(dec, SpvOpDecorate, V_GID, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId);
   INST(dec, SpvOpDecorate, V_GID, SpvDecorationConstant);
   INST(g, SpvOpTypeVoid, T_VOID);
   INST(g, SpvOpTypeBool, T_BOOL);
   INST(g, SpvOpTypeInt, T_UINT, 32, 0);
   INST(g, SpvOpTypeInt, T_ULONG, 64, 0);
   INST(g, SpvOpTypeVector, T_V3ULONG, T_ULONG, 3);
   INST(g, SpvOpTypePointer, T_PIN_V3, SpvStorageClassInput, T_V3ULONG);
   INST(g, SpvOpTypePointer, T_PCW_UINT, SpvStorageClassCrossWorkgroup, T_UINT);
   INST(g, SpvOpTypeFunction, T_FN_KERNEL, T_VOID, T_PCW_UINT, T_PCW_UINT, T_UINT);
   INST(g, SpvOpTypeFunction, T_FN_HELPER, T_UINT, T_UINT);
   INST(g, SpvOpConstant, T_UINT, C_0, 0);
   INST(g, SpvOpConstant, T_UINT, C_1, 1);
   INST(g, SpvOpConstant, T_UINT, C_2, 2);
   INST(g, SpvOpConstant, T_UINT, C_3, 3);
   INST(g, SpvOpConstant, T_UINT, C_4, 4);
   INST(g, SpvOpConstant, T_UINT, C_7, 7);
   INST(g, SpvOpTypeArray, T_ARR4, T_UINT, C_4);
   INST(g, SpvOpTypePointer, T_PFN_ARR4, SpvStorageClassFunction, T_ARR4);
   INST(g, SpvOpTypePointer, T_PFN_UINT, SpvStorageClassFunction, T_UINT);
   INST(g, SpvOpVariable, T_PIN_V3, V_GID, SpvStorageClassInput);
}

static size_t parse_size(const char *s)
{
   char *end;
   double v = strtod(s, &end);
   if (end == s || v <= 0)
      return 0;
   if (*end == 'K' || *end == 'k')
      v *= 1024, end++;
   else if (*end == 'M' || *end == 'm')
      v *= 1024 * 1024, end++;
   return *end ? 0 : (size_t)v;
}

int main(int argc, char **argv)
{
   size_t size = argc == 3 ? parse_size(argv[1]) : 0;
   if (!size) {
      fputs("usage: gen_kernels SIZE[K|M] OUT.spv\n", stderr);
      return 2;
   }
   words pre = { 0 }, eps = { 0 }, names = { 0 }, dec = { 0 }, g = { 0 }, fns = { 0 };
   INST(&pre, SpvOpCapability, SpvCapabilityAddresses);
   INST(&pre, SpvOpCapability, SpvCapabilityKernel);
   INST(&pre, SpvOpCapability, SpvCapabilityInt64);
   INST(&pre, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
   globals(&g, &dec);
   size_t fixed = 5 + pre.n + dec.n + g.n;
   unsigned n = 0;
   while ((fixed + eps.n + names.n + fns.n) * 4 < size)
      kernel(&eps, &names, &fns, n++);
   uint32_t hdr[5] = { SpvMagicNumber, 0x00010000, 0, next_id, 0 };
   FILE *out = fopen(argv[2], "wb");
   if (!out) {
      perror(argv[2]);
      return 1;
   }
   fwrite(hdr, 4, 5, out);
   words *parts[] = { &pre, &eps, &names, &dec, &g, &fns };
   for (unsigned p = 0; p < sizeof(parts) / sizeof(*parts); p++) {
      fwrite(parts[p]->w, 4, parts[p]->n, out);
      free(parts[p]->w);
   }
   if (fclose(out)) {
      perror(argv[2]);
      return 1;
   }
   printf("%s: %zu bytes, %u kernels, bound %u\n", argv[2], (fixed + eps.n + names.n + fns.n) * 4,
          n, next_id);
   return 0;
}
