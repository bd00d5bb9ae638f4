/*
 * canonicalize: fold what today's front ends leave unfolded, so the
 * analyses of the later passes see the same kernel from every producer.
 *
 * The OpenCL work-item builtins are defined as "dim < 3 ? id[dim] : 0"
 * (OpenCL C 6.15.1: out-of-range dimensions answer 0).  clang 21 with
 * llvm-spirv 21, and Intel's ocloc 26 front end, inline that definition
 * and leave the select with its condition already known:
 *
 *    %call = OpSelect %ulong %true %id %ulong_0
 *
 * To the lane and affine analyses %call is an unknown value, not the
 * global id, so no guard, block access or versioning candidate is found
 * (issue 29 measured 0 of 10 versioned kernels on darktable).  clang 15
 * and ocloc 22 folded it.  An OpSelect whose condition is OpConstantTrue
 * or OpConstantFalse is replaced by the operand it selects, as SPIR-V
 * 3.52.7 defines it; nothing else is touched.  A specialization constant
 * condition is not known until the module is specialized, so it stays.
 *
 * Why not SPIRV-Tools: spirv-opt --simplify-instructions folds this select
 * too, but applies its whole folding-rule set (it rewrote vector shuffles
 * and composite inserts in 5 of testdata's 96 modules) and validates first,
 * so it refuses the llvm-spirv-15 modules whose blocks are out of
 * dominance order (7 of 96).  docs/layers.md says what else we do ourselves.
 *
 * clang's own SPIR-V backend writes a 32-to-64-bit sign extension of an
 * index as LLVM's sext_inreg, a shift pair
 *
 *    %t = OpShiftLeftLogical %ulong %x %ulong_32
 *    %i = OpShiftRightArithmetic %ulong %t %ulong_32
 *
 * which is OpSConvert(OpUConvert %x to 32 bits) (SPIR-V 3.52.11 and
 * 3.52.14), the form clang 15 writes and the affine analysis reads.  The
 * pair becomes that form for 8-, 16- and 32-bit inner widths.
 *
 * Opaque pointers (LLVM 17 and later) change how addresses are written:
 *  - a private array's zero-init and copy-out (OpCopyMemorySized) and its
 *    lifetime markers take the array variable itself, where typed-pointer
 *    front ends cast it to uchar* first; the cast is put back, the form
 *    private-arrays reads (an OpBitcast is a no-op on the address); a
 *    cast of the array to its element pointer (clang 21 stores v[0]
 *    through one) becomes the chain `v 0 0`;
 *  - clang's SPIR-V backend indexes with byte offsets,
 *        %q = OpInBoundsPtrAccessChain %_ptr_uchar %base %off
 *        %p = OpBitcast %_ptr_T %q
 *    with %off = x << log2(sizeof T), x * sizeof T, or the sign extension
 *    sext32(x + k) << log2(sizeof T) written as ((x << 32) + (k << 32)) >>s
 *    (32 - log2 sizeof T).
 *    Such a pair becomes OpInBoundsPtrAccessChain %_ptr_T (OpBitcast %_ptr_T
 *    %base) x, which addresses the same byte (the chain's arithmetic is
 *    modulo 2^64 either way, SPIR-V 3.52.12: Base + Element * sizeof T).
 *    When the rewritten chain steps from another chain of its type (the
 *    backend's in[i + 1]: &in[i], then 4 bytes on), the two become one
 *    chain with the indices added, the form clang 15 writes.  Only there:
 *    merging the chains clang 15 and ocloc write themselves loses the
 *    pointers IGC shares between them (darktable's splat, dg2 635 -> 686
 *    instructions).  An integer OpConstantNull operand (the backend's array
 *    index 0) becomes OpConstant 0.
 *
 * Three repairs make what the producers write valid for the SPIRV-Tools
 * that checks it (2026.4 checks rules 2023.1 did not, and the reverse):
 *  - llvm-spirv 15 and ocloc 22 decorate one id NoSignedWrap twice (22 of
 *    testdata's 72 clang-15 modules, 27 of 69 from ocloc 22): a decoration
 *    repeated word for word is dropped (SPIR-V 2.16.1: "decorated with
 *    NoSignedWrap multiple times is not allowed" in 2026.4);
 *  - llvm-spirv 21 passes printf's format string as the pointer to the
 *    whole char array (opaque pointers), which SPIRV-Tools 2023.1 (our
 *    --validate and the interpreter's check) rejects: "expected Format data
 *    type to be 8-bit int"; it gets a chain to the first char, as clang 15
 *    wrote it (OpenCL.std 2.5: printf's format is a pointer to i8);
 *  - clang 21's SPIR-V backend writes OpConstantComposite with a
 *    specialization-constant operand (an image's channel order): such a
 *    composite is an OpSpecConstantComposite (SPIR-V 3.52.7).
 *
 * The entry wrappers the new front ends write (an entry point whose one
 * block calls the body with its parameters) need no rewrite: the kernel
 * list already sees through them (xe_kernel.body, src/ir/facts.c).
 *
 * Where the cost model is asked, a kernel that no later pass reading
 * these forms rewrote in the driver's first run (loop-spec-constants does
 * not read them) is left as the front end wrote it, but for the repairs
 * (the judge's XE_PLAIN_CANON, src/driver/plain.h): these rewrites
 * serve the analyses, not IGC, and IGC 2.40 compiled darktable's
 * clang-21 kernels longer after them (vng_interpolate, diffuse_pde,
 * lut3d_pyramid; bench/README "IGC 2.40 as the judge").
 *
 * Host contract: none.  Semantics: unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "passes.h"

/* Is id OpConstantTrue (1), OpConstantFalse (0), or neither (-1)? */
static int known_bool(const xe_module *m, uint32_t id)
{
   const xe_inst *d = xe_def(m, id);
   if (!d)
      return -1;
   if (d->opcode == SpvOpConstantTrue)
      return 1;
   if (d->opcode == SpvOpConstantFalse)
      return 0;
   return -1;
}

/* OpUConvert of x to narrow, built before pos, or an equal one already
 * there: in pos's block before it, or in its function's entry block (which
 * dominates pos).  Reusing it lets the analyses see the guard's value and
 * the index as one id (a guard 'UConvert(id) < n' and an index
 * sext(UConvert(id)) name the same UConvert). */
static uint32_t uconvert(xe_module *m, xe_inst *pos, uint32_t x, uint32_t narrow)
{
   uint32_t n;
   const xe_use *u = xe_uses(m, x, &n);
   xe_block *entry = pos->block ? pos->block->fn->first : NULL;
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *c = u[k].inst;
      if (c->opcode != SpvOpUConvert || c->type_id != narrow || !c->block)
         continue;
      if (c->block == entry && pos->block != entry)
         return c->result_id;
      if (c->block == pos->block && xe_layout_before(c, pos))
         return c->result_id;
   }
   xe_builder b = xe_builder_before(m, pos);
   return xe_build1(&b, SpvOpUConvert, narrow, x);
}

/* i is OpShiftRightArithmetic (OpShiftLeftLogical x c) c on a scalar
 * integer of width W with W - c in {8, 16, 32}: rewrites it as
 * OpSConvert(OpUConvert x to W - c bits).  Returns whether it did. */
static bool fold_sext_inreg(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpShiftRightArithmetic)
      return false;
   const xe_inst *type = xe_def(m, i->type_id);
   const xe_inst *shl = xe_def(m, xe_op(i, 0));
   if (!type || type->opcode != SpvOpTypeInt || !shl || shl->opcode != SpvOpShiftLeftLogical ||
       shl->type_id != i->type_id)
      return false;
   uint64_t c1, c2;
   if (!xe_const_uint(m, xe_op(i, 1), &c1) || !xe_const_uint(m, xe_op(shl, 1), &c2) || c1 != c2)
      return false;
   unsigned width = xe_op(type, 0);
   if (c1 >= width)
      return false;
   unsigned inner = width - (unsigned)c1;
   if (inner != 8 && inner != 16 && inner != 32)
      return false;
   /* A Kernel module may use 8- and 16-bit integers only with their
    * capabilities (SPIR-V 2.16.1); the shift pair needed neither. */
   if (inner == 8)
      xe_add_capability(m, SpvCapabilityInt8);
   if (inner == 16)
      xe_add_capability(m, SpvCapabilityInt16);
   uint32_t narrow = uconvert(m, i, xe_op(shl, 0), xe_type_int(m, inner));
   xe_builder b = xe_builder_before(m, i);
   uint32_t wide = xe_build1(&b, SpvOpSConvert, i->type_id, narrow);
   uint32_t shl_id = shl->result_id;
   xe_replace_all_uses(m, i->result_id, wide);
   xe_inst_kill(m, i);
   if (!xe_use_count(m, shl_id))
      xe_inst_kill(m, xe_def(m, shl_id));
   return true;
}

/* Drops decorations that repeat an earlier one word for word; returns how
 * many.  Quadratic only in the decorations of one target: they are
 * compared against the earlier ones of the same target id alone. */
static unsigned drop_repeated_decorations(xe_module *m)
{
   unsigned n = 0;
   uint32_t bound = m->bound;
   xe_inst **last = calloc(bound, sizeof(xe_inst *));   /* latest decoration per target */
   xe_inst **prev = NULL;                               /* chain, by decoration order */
   unsigned count = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_ANNOTATION])
      count++;
   prev = calloc(count ? count : 1, sizeof(xe_inst *));
   if (!last || !prev)
      xe_out_of_memory();
   unsigned k = 0;
   xe_foreach_inst_safe(i, next, &m->sec[XE_SEC_ANNOTATION]) {
      unsigned idx = k++;
      if (i->opcode != SpvOpDecorate || xe_nops(i) < 2 || xe_op(i, 0) >= bound)
         continue;
      uint32_t t = xe_op(i, 0);
      bool repeated = false;
      for (xe_inst *e = last[t]; e && !repeated; e = prev[e->aux]) {
         repeated = e->nwords == i->nwords &&
                    !memcmp(e->words + 1, i->words + 1, (i->nwords - 1) * sizeof(uint32_t));
      }
      if (repeated) {
         xe_inst_delete(m, i);
         n++;
         continue;
      }
      i->aux = idx;
      prev[idx] = last[t];
      last[t] = i;
   }
   xe_foreach_inst(i, &m->sec[XE_SEC_ANNOTATION])
      i->aux = 0;
   free(last);
   free(prev);
   return n;
}

/* OpConstantComposite with a specialization-constant operand becomes
 * OpSpecConstantComposite; returns how many. */
static unsigned spec_composites(xe_module *m)
{
   unsigned n = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      if (i->opcode != SpvOpConstantComposite)
         continue;
      for (unsigned k = 0; k < xe_nops(i); k++) {
         const xe_inst *d = xe_def(m, xe_op(i, k));
         if (d && (d->opcode == SpvOpSpecConstant || d->opcode == SpvOpSpecConstantTrue ||
                   d->opcode == SpvOpSpecConstantFalse || d->opcode == SpvOpSpecConstantComposite ||
                   d->opcode == SpvOpSpecConstantOp)) {
            xe_set_opcode(i, SpvOpSpecConstantComposite);
            n++;
            break;
         }
      }
   }
   return n;
}

/* The variable id when id is a Function-storage OpVariable of array type. */
static bool function_array(const xe_module *m, uint32_t id)
{
   const xe_inst *v = xe_def(m, id);
   if (!v || v->opcode != SpvOpVariable || xe_op(v, 0) != SpvStorageClassFunction)
      return false;
   const xe_inst *pt = xe_def(m, v->type_id);
   const xe_inst *at = pt ? xe_def(m, xe_op(pt, 1)) : NULL;
   return at && at->opcode == SpvOpTypeArray;
}

/* i uses a private array variable directly as a byte address (a memory
 * copy or lifetime marker): gives it an OpBitcast to uchar* instead. */
static bool cast_byte_uses(xe_module *m, xe_inst *i)
{
   unsigned nptr = i->opcode == SpvOpCopyMemorySized ? 2
                   : i->opcode == SpvOpLifetimeStart || i->opcode == SpvOpLifetimeStop ? 1 : 0;
   bool changed = false;
   for (unsigned k = 0; k < nptr; k++) {
      uint32_t v = xe_op(i, k);
      if (!function_array(m, v))
         continue;
      xe_builder b = xe_builder_before(m, i);
      uint32_t bytes = xe_type_pointer(m, SpvStorageClassFunction, xe_type_int(m, 8));
      xe_set_op(i, k, xe_build1(&b, SpvOpBitcast, bytes, v));
      changed = true;
   }
   return changed;
}

/* i is OpenCL.std printf whose format points to an array of i8: gives it a
 * chain to the array's first element. */
static bool printf_format(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpExtInst || xe_nops(i) < 3 || xe_op(i, 1) != 184 /* printf */ ||
       xe_op(i, 0) != xe_opencl_std(m, false))
      return false;
   const xe_inst *f = xe_def(m, xe_op(i, 2));
   const xe_inst *pt = f ? xe_def(m, f->type_id) : NULL;
   const xe_inst *at = pt && pt->opcode == SpvOpTypePointer ? xe_def(m, xe_op(pt, 1)) : NULL;
   const xe_inst *ct = at && at->opcode == SpvOpTypeArray ? xe_def(m, xe_op(at, 0)) : NULL;
   if (!ct || ct->opcode != SpvOpTypeInt || xe_op(ct, 0) != 8)
      return false;
   xe_builder b = xe_builder_before(m, i);
   uint32_t zero = xe_const_int(m, xe_type_int(m, 64), 0);
   uint32_t ops[3] = { f->result_id, zero, zero };
   xe_inst *c = xe_build(&b, SpvOpInBoundsPtrAccessChain,
                         xe_type_pointer(m, (SpvStorageClass)xe_op(pt, 0), at->words[at->first_op]),
                         3, ops);
   xe_set_op(i, 2, c->result_id);
   return true;
}

/* log2 of a power of two n, or -1. */
static int log2_exact(uint64_t n)
{
   if (!n || (n & (n - 1)))
      return -1;
   int l = 0;
   while (n >>= 1)
      l++;
   return l;
}

/* The element index x with off == x * 2^l (modulo the width), built before
 * pos when needed; 0 when off has none of the forms in the header. */
static uint32_t byte_offset_index(xe_module *m, xe_inst *pos, uint32_t off, int l)
{
   const xe_inst *d = xe_def(m, off);
   uint64_t c, c2;
   if (!d)
      return 0;
   if (xe_const_uint(m, off, &c)) {
      if (c & ((1ull << l) - 1))
         return 0;
      return xe_const_int(m, d->type_id, c >> l);
   }
   if (d->opcode == SpvOpShiftLeftLogical && xe_const_uint(m, xe_op(d, 1), &c) && c == (uint64_t)l)
      return xe_op(d, 0);
   if (d->opcode == SpvOpIMul) {
      for (unsigned k = 0; k < 2; k++)
         if (xe_const_uint(m, xe_op(d, k), &c) && c == (1ull << l))
            return xe_op(d, 1 - k);
   }
   const xe_inst *t = xe_def(m, d->type_id);
   if (d->opcode == SpvOpShiftRightArithmetic && t && t->opcode == SpvOpTypeInt &&
       xe_op(t, 0) == 64 && xe_const_uint(m, xe_op(d, 1), &c) && c == (uint64_t)(32 - l)) {
      /* ((x << 32) + (k << 32)) >>s (32 - l) is sext32(x + k) << l: the
       * backend's in[i + k] (the add is modulo 2^32 in the upper half). */
      const xe_inst *shl = xe_def(m, xe_op(d, 0));
      uint64_t k = 0;
      if (shl && shl->opcode == SpvOpIAdd) {
         const xe_inst *add = shl;
         shl = NULL;
         for (unsigned j = 0; j < 2 && !shl; j++) {
            if (xe_const_uint(m, xe_op(add, 1 - j), &k) && !(k & 0xffffffffull)) {
               shl = xe_def(m, xe_op(add, j));
               k >>= 32;
            }
         }
      }
      if (shl && shl->opcode == SpvOpShiftLeftLogical && xe_const_uint(m, xe_op(shl, 1), &c2) &&
          c2 == 32) {
         uint32_t u32 = xe_type_int(m, 32);
         uint32_t narrow = uconvert(m, pos, xe_op(shl, 0), u32);
         xe_builder b = xe_builder_before(m, pos);
         if (k)
            narrow = xe_build2(&b, SpvOpIAdd, u32, narrow, xe_const_int(m, u32, k));
         return xe_build1(&b, SpvOpSConvert, d->type_id, narrow);
      }
   }
   return 0;
}

static bool merge_chains(xe_module *m, xe_inst *i);

/* src with its OpBitcasts stripped. */
static uint32_t strip_casts(const xe_module *m, uint32_t src)
{
   const xe_inst *d = xe_def(m, src);
   while (d && d->opcode == SpvOpBitcast) {
      src = xe_op(d, 0);
      d = xe_def(m, src);
   }
   return src;
}

/* When ptr (casts stripped) points to an array of T in the storage class
 * of ptr_t (a pointer to T): the chain `ptr 0 0` to its first element,
 * built before pos (the form private-arrays reads), else 0. */
static uint32_t first_element(xe_module *m, xe_inst *pos, uint32_t ptr_t, uint32_t ptr)
{
   const xe_inst *d = xe_def(m, ptr);
   const xe_inst *pt = d ? xe_def(m, d->type_id) : NULL, *want = xe_def(m, ptr_t);
   if (!pt || pt->opcode != SpvOpTypePointer || !want || xe_op(pt, 0) != xe_op(want, 0))
      return 0;
   const xe_inst *at = xe_def(m, xe_op(pt, 1));
   if (!at || at->opcode != SpvOpTypeArray || xe_op(at, 0) != xe_op(want, 1))
      return 0;
   xe_builder b = xe_builder_before(m, pos);
   uint32_t zero = xe_const_int(m, xe_type_int(m, 64), 0);
   return xe_build(&b, SpvOpInBoundsPtrAccessChain, ptr_t, 3, (uint32_t[]){ ptr, zero, zero })
      ->result_id;
}

/* A pointer to T at the start of src's memory, built before pos: src
 * itself, the chain to its first element, or a cast of it. */
static uint32_t element_pointer(xe_module *m, xe_inst *pos, uint32_t ptr_t, uint32_t src)
{
   src = strip_casts(m, src);
   const xe_inst *d = xe_def(m, src);
   if (d && d->type_id == ptr_t)
      return src;
   uint32_t e = first_element(m, pos, ptr_t, src);
   if (e)
      return e;
   xe_builder b = xe_builder_before(m, pos);
   return xe_build1(&b, SpvOpBitcast, ptr_t, src);
}

/* i is OpBitcast %_ptr_T of (a cast of) a pointer to an array of T: the
 * chain to the array's first element instead (clang 21 stores v[0]
 * through such a cast).  Returns whether it did. */
static bool array_cast(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpBitcast)
      return false;
   /* A cast to uchar* is the byte view memory copies and lifetime markers
    * take (private-arrays reads those as casts), and only Function arrays
    * are private-arrays' to rewrite. */
   const xe_inst *pt = xe_def(m, i->type_id);
   const xe_inst *et = pt && pt->opcode == SpvOpTypePointer ? xe_def(m, xe_op(pt, 1)) : NULL;
   if (!et || xe_op(pt, 0) != SpvStorageClassFunction ||
       (et->opcode == SpvOpTypeInt && xe_op(et, 0) == 8))
      return false;
   uint32_t e = first_element(m, i, i->type_id, strip_casts(m, xe_op(i, 0)));
   if (!e)
      return false;
   xe_replace_all_uses(m, i->result_id, e);
   xe_inst_kill(m, i);
   return true;
}

/* i is OpBitcast %_ptr_T of e = Op[InBounds]PtrAccessChain %_ptr_vNT ...
 * (a Function pointer to a vector of N T's), and every use of i is a
 * chain `i k` with a constant k < N or a load or store through i (k = 0):
 * each becomes e's chain with k appended, the component's address the way
 * clang 15 writes it (clang 21 takes a float4 element's components through
 * a float* cast of the element pointer, which private-arrays must see as
 * element accesses to split the array).  Returns whether it did. */
static bool vector_component_cast(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpBitcast)
      return false;
   const xe_inst *e = xe_def(m, xe_op(i, 0));
   const xe_inst *rt = xe_def(m, i->type_id), *st = e ? xe_def(m, e->type_id) : NULL;
   if (!e || (e->opcode != SpvOpPtrAccessChain && e->opcode != SpvOpInBoundsPtrAccessChain) ||
       !rt || !st || rt->opcode != SpvOpTypePointer || st->opcode != SpvOpTypePointer ||
       xe_op(rt, 0) != SpvStorageClassFunction || xe_op(st, 0) != SpvStorageClassFunction)
      return false;
   const xe_inst *vt = xe_def(m, xe_op(st, 1));
   if (!vt || vt->opcode != SpvOpTypeVector || xe_op(vt, 0) != xe_op(rt, 1))
      return false;
   uint32_t n = 0, ncomp = xe_op(vt, 1);
   const xe_use *u = xe_uses(m, i->result_id, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *c = u[k].inst;
      uint64_t idx;
      bool chain = (c->opcode == SpvOpPtrAccessChain || c->opcode == SpvOpInBoundsPtrAccessChain) &&
                   xe_nops(c) == 2 && u[k].word == c->first_op &&
                   xe_const_uint(m, xe_op(c, 1), &idx) && idx < ncomp;
      bool access = (c->opcode == SpvOpLoad && u[k].word == c->first_op) ||
                    (c->opcode == SpvOpStore && u[k].word == c->first_op);
      if (!chain && !access)
         return false;
   }
   /* Rewrite every use (the list is copied: the edits change it). */
   xe_inst **users = malloc((n ? n : 1) * sizeof *users);
   if (!users)
      xe_out_of_memory();
   for (uint32_t k = 0; k < n; k++)
      users[k] = u[k].inst;
   unsigned ne = xe_nops(e);
   uint32_t *ops = malloc((ne + 1) * sizeof *ops);
   if (!ops)
      xe_out_of_memory();
   for (unsigned k = 0; k < ne; k++)
      ops[k] = xe_op(e, k);
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *c = users[k];
      bool chain = c->opcode == SpvOpPtrAccessChain || c->opcode == SpvOpInBoundsPtrAccessChain;
      ops[ne] = chain ? xe_op(c, 1) : xe_const_int(m, xe_type_int(m, 64), 0);
      xe_builder b = xe_builder_before(m, c);
      uint32_t p = xe_build(&b, (SpvOp)e->opcode, i->type_id, ne + 1, ops)->result_id;
      if (chain) {
         xe_replace_all_uses(m, c->result_id, p);
         xe_inst_kill(m, c);
      } else {
         xe_set_op(c, 0, p);
      }
   }
   free(ops);
   free(users);
   xe_inst_kill(m, i);
   return true;
}

/* i is OpBitcast %_ptr_T (Op[InBounds]PtrAccessChain %_ptr_uchar %base %off)
 * in one storage class, sizeof T a power of two: rewrites it as an element
 * chain on %base cast to %_ptr_T.  Returns whether it did. */
static bool fold_byte_chain(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpBitcast)
      return false;
   const xe_inst *q = xe_def(m, xe_op(i, 0));
   if (!q || (q->opcode != SpvOpPtrAccessChain && q->opcode != SpvOpInBoundsPtrAccessChain) ||
       xe_nops(q) != 2)
      return false;
   const xe_inst *to = xe_def(m, i->type_id), *from = xe_def(m, q->type_id);
   if (!to || !from || to->opcode != SpvOpTypePointer || from->opcode != SpvOpTypePointer ||
       xe_op(to, 0) != xe_op(from, 0))
      return false;
   const xe_inst *byte = xe_def(m, xe_op(from, 1));
   if (!byte || byte->opcode != SpvOpTypeInt || xe_op(byte, 0) != 8)
      return false;
   const xe_inst *elem = xe_def(m, xe_op(to, 1));
   if (!elem || (elem->opcode != SpvOpTypeInt && elem->opcode != SpvOpTypeFloat &&
                 elem->opcode != SpvOpTypeVector))
      return false;
   int l = log2_exact(xe_type_size(m, xe_op(to, 1)));
   if (l <= 0)
      return false;
   uint32_t idx = byte_offset_index(m, i, xe_op(q, 1), l);
   if (!idx)
      return false;
   uint32_t base = element_pointer(m, i, i->type_id, xe_op(q, 0));
   xe_builder b = xe_builder_before(m, i);
   xe_inst *p = xe_build(&b, (SpvOp)q->opcode, i->type_id, 2, (uint32_t[]){ base, idx });
   uint32_t q_id = q->result_id;
   xe_replace_all_uses(m, i->result_id, p->result_id);
   xe_inst_kill(m, i);
   if (!xe_use_count(m, q_id))
      xe_inst_kill(m, xe_def(m, q_id));
   merge_chains(m, p);
   return true;
}

/* i is Op[InBounds]PtrAccessChain %T (Op[InBounds]PtrAccessChain %T %b %x) %y,
 * one index each of one integer type: rewrites it as a chain on %b at
 * %x + %y.  Returns whether it did. */
static bool merge_chains(xe_module *m, xe_inst *i)
{
   bool ptr_chain = i->opcode == SpvOpPtrAccessChain || i->opcode == SpvOpInBoundsPtrAccessChain;
   if (!ptr_chain || xe_nops(i) != 2)
      return false;
   const xe_inst *in = xe_def(m, xe_op(i, 0));
   if (!in || (in->opcode != SpvOpPtrAccessChain && in->opcode != SpvOpInBoundsPtrAccessChain) ||
       xe_nops(in) < 2 || xe_nops(in) > 3 || in->type_id != i->type_id || !in->block)
      return false;
   /* Both step in units of T (the outer chain's pointer is a T* inside the
    * inner's array, or the inner's own pointer): the last index adds up. */
   unsigned last = xe_nops(in) - 1;
   const xe_inst *x = xe_def(m, xe_op(in, last)), *y = xe_def(m, xe_op(i, 1));
   if (!x || !y || x->type_id != y->type_id)
      return false;
   xe_builder b = xe_builder_before(m, i);
   uint64_t zero;
   uint32_t sum = xe_const_uint(m, x->result_id, &zero) && !zero
                     ? y->result_id
                     : xe_build2(&b, SpvOpIAdd, x->type_id, x->result_id, y->result_id);
   SpvOp op = i->opcode == SpvOpInBoundsPtrAccessChain && in->opcode == SpvOpInBoundsPtrAccessChain
                 ? SpvOpInBoundsPtrAccessChain : SpvOpPtrAccessChain;
   uint32_t ops[3] = { xe_op(in, 0), xe_op(in, 1), xe_op(in, 2) };
   ops[last] = sum;
   uint32_t p = xe_build(&b, op, i->type_id, last + 1, ops)->result_id;
   xe_replace_all_uses(m, i->result_id, p);
   xe_inst_kill(m, i);
   return true;
}

/* i's operands that are integer OpConstantNull become OpConstant 0, the
 * form the analyses read (clang's backend indexes arrays with a null
 * ulong).  Returns whether any did. */
static bool null_ints(xe_module *m, xe_inst *i)
{
   bool changed = false;
   for (unsigned k = 0; k < xe_nops(i); k++) {
      if (xe_op_kind(i, k) != XE_W_ID)
         continue;
      const xe_inst *d = xe_def(m, xe_op(i, k));
      const xe_inst *t = d && d->opcode == SpvOpConstantNull ? xe_def(m, d->type_id) : NULL;
      if (t && t->opcode == SpvOpTypeInt) {
         xe_set_op(i, k, xe_const_int(m, d->type_id, 0));
         changed = true;
      }
   }
   return changed;
}

/* i is a call of OpenCL C's to_global(), to_local() or to_private() as an
 * import (clang's SPIR-V backend writes them so; llvm-spirv writes the
 * instruction): rewrites it as the OpGenericCastToPtrExplicit it means, so
 * generic-address and the lane analyses see a cast, not an opaque call.
 * The import's declaration stays (unused; linking needs nothing of it). */
static bool import_cast(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpFunctionCall || xe_nops(i) != 2)
      return false;
   uint32_t sc = xe_import_generic_cast(m, xe_op(i, 0));
   if (sc == SpvStorageClassMax)
      return false;
   xe_builder b = xe_builder_before(m, i);
   const uint32_t ops[2] = { xe_op(i, 1), sc };
   const uint8_t kinds[2] = { XE_W_ID, XE_W_LIT };
   xe_inst *c = xe_build_inst(&b, xe_inst_create(SpvOpGenericCastToPtrExplicit, i->type_id,
                                                 xe_fresh_id(m), ops, 2, kinds));
   xe_replace_all_uses(m, i->result_id, c->result_id);
   xe_inst_kill(m, i);
   return true;
}

/* Folds f's selects on a known condition and shift-pair sign extensions;
 * returns how many. */
static int cmp_pair(const void *a, const void *b)
{
   const uint32_t *x = a, *y = b;   /* parent, value, position */
   for (int k = 0; k < 3; k++) {
      if (x[k] != y[k])
         return x[k] < y[k] ? -1 : 1;
   }
   return 0;
}

/* An OpPhi with a (value, parent) pair repeated word for word keeps the
 * first: llvm-spirv 21 writes one pair per switch case that reaches the
 * block (LLVM's one entry per edge), where SPIR-V 2.16.1 wants one per
 * parent block (spirv-val 2026: "OpPhi's number of incoming blocks (38)
 * does not match block's predecessor count", darktable's blendop.cl).
 * Only in SPIR-V 1.5 and later modules: IGC 22.43 aborts on the repaired
 * form (its reader wants LLVM's one pair per edge) but does not read 1.5
 * or later at all, and IGC 2.40 takes both forms.  The same parent with
 * two values is left as it came. */
static bool dedupe_phi(const xe_module *m, xe_inst *i)
{
   unsigned np = xe_nops(i) / 2;
   if (i->opcode != SpvOpPhi || np < 2 || m->version < 0x00010500)
      return false;
   uint32_t *t = malloc(np * 3 * sizeof(uint32_t));
   bool *drop = calloc(np, sizeof(bool));
   if (!t || !drop)
      xe_out_of_memory();
   for (unsigned k = 0; k < np; k++) {
      t[3 * k] = xe_op(i, 2 * k + 1);
      t[3 * k + 1] = xe_op(i, 2 * k);
      t[3 * k + 2] = k;
   }
   qsort(t, np, 3 * sizeof(uint32_t), cmp_pair);
   unsigned ndrop = 0;
   for (unsigned k = 1; k < np; k++) {
      if (t[3 * k] == t[3 * k - 3] && t[3 * k + 1] == t[3 * k - 2]) {
         drop[t[3 * k + 2]] = true;
         ndrop++;
      }
   }
   if (ndrop) {
      uint32_t *ops = malloc(2 * np * sizeof(uint32_t));
      if (!ops)
         xe_out_of_memory();
      unsigned n = 0;
      for (unsigned k = 0; k < np; k++) {
         if (drop[k])
            continue;
         ops[n++] = xe_op(i, 2 * k);
         ops[n++] = xe_op(i, 2 * k + 1);
      }
      xe_set_ops(i, ops, n, NULL);
      free(ops);
   }
   free(t);
   free(drop);
   return ndrop > 0;
}

/* The repairs of one instruction (printf's format, repeated phi pairs):
 * made in every function, also where the judge flags the kernel
 * XE_PLAIN_CANON. */
static bool repair_inst(xe_module *m, xe_inst *i)
{
   return printf_format(m, i) || dedupe_phi(m, i);
}

/* The repairs only, for a function whose kernels the judge flags
 * XE_PLAIN_CANON. */
static unsigned repair_function(xe_module *m, xe_function *f)
{
   unsigned n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst_safe(i, next, &b->insts)
         n += repair_inst(m, i);
   }
   return n;
}

static unsigned fold_function(xe_module *m, xe_function *f)
{
   unsigned n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst_safe(i, next, &b->insts) {
         if (i->opcode != SpvOpPhi && null_ints(m, i))
            n++;
         if (cast_byte_uses(m, i) || fold_byte_chain(m, i) || array_cast(m, i) ||
             repair_inst(m, i) || import_cast(m, i)) {
            n++;
            continue;
         }
         if (fold_sext_inreg(m, i)) {
            n++;
            continue;
         }
         if (i->opcode != SpvOpSelect)
            continue;
         int c = known_bool(m, xe_op(i, 0));
         if (c < 0)
            continue;
         uint32_t chosen = xe_op(i, c ? 1 : 2);
         xe_replace_all_uses(m, i->result_id, chosen);
         xe_inst_kill(m, i);
         n++;
      }
   }
   /* Second walk: the byte-chain fold above writes the element casts
    * this one reads, before the instruction it visits.  The casts are
    * listed first: a rewrite deletes the chains after them. */
   unsigned ncast = 0, cap = 0;
   xe_inst **casts = NULL;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpBitcast)
            continue;
         if (ncast == cap && !(casts = realloc(casts, (cap = cap ? 2 * cap : 16) * sizeof *casts)))
            xe_out_of_memory();
         casts[ncast++] = i;
      }
   }
   for (unsigned k = 0; k < ncast; k++)
      n += vector_component_cast(m, casts[k]);
   free(casts);
   return n;
}

/* What a remark about function f names: its kernel, else its own name. */
static const char *who(const xe_module *m, const xe_function *f, const char *owner)
{
   const char *name = owner ? owner : xe_name(m, xe_function_id(f));
   return name ? name : "?";
}

bool xeopt_pass_canonicalize(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   unsigned nk;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   /* A kernel --isa-check kept as it came keeps its code byte for byte:
    * fold only in its rewritable kernels' functions, and in the helpers
    * only when no kernel is held back. */
   bool all_rewritable = true;
   for (unsigned k = 0; k < nk; k++)
      all_rewritable &= xe_judge_rewritable(ctx, ks[k].name);
   /* Kernels the driver's second run leaves as the front end wrote them
    * (no later pass rewrote them in the first run, plain.h); helpers too
    * when every kernel is such. */
   bool *plain = xe_judge_plain_flags(ctx->judge, XE_PLAIN_CANON, ks, nk);
   bool all_plain = plain != NULL;
   for (unsigned k = 0; plain && k < nk; k++)
      all_plain &= plain[k];
   bool progress = false;
   unsigned dup = drop_repeated_decorations(m);
   if (dup)
      xe_remark(ctx->remarks, NULL, XE_REMARK_APPLIED,
                "dropped %u decoration(s) that repeat an earlier one word for word "
                "(spirv-val 2026 rejects them)", dup);
   unsigned sc = spec_composites(m);
   if (sc)
      xe_remark(ctx->remarks, NULL, XE_REMARK_APPLIED,
                "%u OpConstantComposite(s) with a specialization-constant operand made "
                "OpSpecConstantComposite", sc);
   progress = dup || sc;
   /* Each function's kernel through its scratch mark (k + 1), so the walk
    * stays linear in the module at thousands of kernels. */
   for (unsigned k = nk; k-- > 0;) {
      if (ks[k].body)
         ks[k].body->mark = k + 1;
      if (ks[k].fn)
         ks[k].fn->mark = k + 1;
   }
   xe_foreach_fn(f, m) {
      const char *owner = NULL;
      bool rewritable = all_rewritable;
      if (f->mark) {
         owner = ks[f->mark - 1].name;
         rewritable = xe_judge_rewritable(ctx, owner);
      }
      if (!rewritable)
         continue;
      bool as_written = f->mark ? plain && plain[f->mark - 1] : all_plain;
      if (as_written) {
         if (f->mark && f == ks[f->mark - 1].body)
            xe_remark(ctx->remarks, owner, XE_REMARK_MISSED,
                      "kernel %s left as the front end wrote it: in a first run no later pass "
                      "that reads its forms rewrote it, and IGC 2.40 compiles canonicalized code longer (darktable "
                      "vng_interpolate through clang 21, bmg: 5044 -> 8609 by the estimate per work-item); "
                      "canonicalized with --target=none and under --isa-check", owner);
         unsigned nr = repair_function(m, f);
         if (nr)
            xe_remark(ctx->remarks, owner, XE_REMARK_APPLIED,
                      "repaired %u instruction(s) in %s%s (printf format strings, repeated OpPhi "
                      "pairs)", nr, owner ? "kernel " : "function ", who(m, f, owner));
         progress |= nr > 0;
         continue;
      }
      unsigned n = fold_function(m, f);
      if (!n)
         continue;
      progress = true;
      xe_remark_decision(ctx->remarks, owner, XE_REMARK_APPLIED, XE_DECISION_CANONICAL_FORMS,
                "rewrote %u instruction(s) in %s%s (selects on a constant condition, "
                "shift-pair sign extensions, byte-offset addresses, address-space casts)", n,
                owner ? "kernel " : "function ", who(m, f, owner));
   }
   xe_foreach_fn(f, m)
      f->mark = 0;
   free(plain);
   free(ks);
   return progress;
}
