/*
 * Affine forms of integer values over the work-item ids; see affine.h for
 * the model and its wrap-around assumption.  Forms are computed on demand
 * by walking definitions and memoized per id (in a hash table of the ids
 * touched); a cycle (an OpPhi in a loop) is not affine.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"

enum { ST_UNKNOWN, ST_BUSY, ST_DONE, ST_NOT };

/* Memo of one id: its state and, when DONE, its form (allocated apart so
 * that a pointer handed out survives the table growing). */
typedef struct memo {
   uint32_t id;        /* 0: empty slot */
   uint8_t state;
   xe_affine *form;
} memo;

/* The memo is a hash table of the ids a kernel's guards touch, not a table
 * of all the module's ids: padding makes one context per kernel, and a
 * module of many kernels must stay linear. */
struct xe_affine_ctx {
   xe_module *m;
   xe_function *body;
   memo *slots;
   uint32_t cap, used;   /* cap a power of two, used <= cap / 2 */
};

static memo *slot_of(xe_affine_ctx *c, uint32_t id)
{
   uint32_t h = (id * 2654435761u) & (c->cap - 1);
   while (c->slots[h].id && c->slots[h].id != id)
      h = (h + 1) & (c->cap - 1);
   return &c->slots[h];
}

/* The memo of id, added (ST_UNKNOWN) when absent.  Valid until the next
 * call: the table may grow. */
static memo *memo_of(xe_affine_ctx *c, uint32_t id)
{
   memo *e = slot_of(c, id);
   if (e->id)
      return e;
   if (2 * (c->used + 1) > c->cap) {
      memo *old = c->slots;
      uint32_t n = c->cap;
      c->cap *= 2;
      c->slots = calloc(c->cap, sizeof(memo));
      if (!c->slots)
         xe_out_of_memory();
      for (uint32_t k = 0; k < n; k++)
         if (old[k].id)
            *slot_of(c, old[k].id) = old[k];
      free(old);
      e = slot_of(c, id);
   }
   c->used++;
   e->id = id;
   return e;
}

xe_affine_ctx *xe_affine_create(xe_module *m, xe_function *body)
{
   xe_affine_ctx *c = calloc(1, sizeof(*c));
   if (!c)
      xe_out_of_memory();
   c->m = m;
   c->body = body;
   c->cap = 64;
   c->slots = calloc(c->cap, sizeof(memo));
   if (!c->slots)
      xe_out_of_memory();
   return c;
}

void xe_affine_free(xe_affine_ctx *c)
{
   if (!c)
      return;
   for (uint32_t k = 0; k < c->cap; k++)
      free(c->slots[k].form);
   free(c->slots);
   free(c);
}

static int term_cmp(const xe_aff_term *a, const xe_aff_term *b)
{
   if (a->var != b->var)
      return a->var < b->var ? -1 : 1;
   if (a->arg != b->arg)
      return a->arg < b->arg ? -1 : 1;
   return 0;
}

/* Adds coeff·(var, arg) to a, keeping the order and merging. */
static bool add_term(xe_affine *a, int64_t coeff, int var, int arg)
{
   xe_aff_term t = { coeff, (int8_t)var, (int16_t)arg };
   unsigned k = 0;
   while (k < a->n && term_cmp(&a->t[k], &t) < 0)
      k++;
   if (k < a->n && term_cmp(&a->t[k], &t) == 0) {
      if (__builtin_add_overflow(a->t[k].coeff, coeff, &a->t[k].coeff))
         return false;
      if (a->t[k].coeff == 0) {
         memmove(&a->t[k], &a->t[k + 1], (a->n - k - 1) * sizeof(t));
         a->n--;
      }
      return true;
   }
   if (coeff == 0)
      return true;
   if (a->n == XE_AFF_MAX_TERMS)
      return false;
   memmove(&a->t[k + 1], &a->t[k], (a->n - k) * sizeof(t));
   a->t[k] = t;
   a->n++;
   return true;
}

static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

/* c·(group base d) + c·(local id d) is c·(global id d without offset):
 * folding keeps the bound tight (the two maxima do not add up). */
static bool fold_group_ids(xe_affine *a)
{
   for (bool again = true; again;) {
      again = false;
      for (unsigned k = 0; k < a->n && !again; k++) {
         xe_aff_term base = a->t[k];
         if (base.var < XE_AFF_GBASE_X || base.var > XE_AFF_GBASE_Z)
            continue;
         int d = base.var - XE_AFF_GBASE_X;
         for (unsigned j = 0; j < a->n && !again; j++) {
            if (a->t[j].var != XE_AFF_LID_X + d || a->t[j].arg != base.arg ||
                a->t[j].coeff != base.coeff)
               continue;
            if (!add_term(a, -base.coeff, base.var, base.arg) ||
                !add_term(a, -base.coeff, XE_AFF_LID_X + d, base.arg) ||
                !add_term(a, base.coeff, XE_AFF_GLIN_X + d, base.arg))
               return false;
            again = true;
         }
      }
   }
   return true;
}

static bool combine(xe_affine *out, const xe_affine *a, const xe_affine *b, int64_t sign)
{
   *out = *a;
   out->min_bits = min_u(a->min_bits, b->min_bits);
   for (unsigned k = 0; k < b->n; k++) {
      int64_t c;
      if (__builtin_mul_overflow(b->t[k].coeff, sign, &c) ||
          !add_term(out, c, b->t[k].var, b->t[k].arg))
         return false;
   }
   return fold_group_ids(out);
}

/* a · b when one side is a constant, or one side is c·arg and the other has
 * no arguments.  Anything else (id·id, arg·arg) is not affine here. */
static bool multiply(xe_affine *out, const xe_affine *a, const xe_affine *b)
{
   if (b->n <= 1 && (b->n == 0 || (b->t[0].var < 0 && b->t[0].arg < 0)))
      ; /* b constant */
   else if (a->n <= 1 && (a->n == 0 || (a->t[0].var < 0 && a->t[0].arg < 0))) {
      const xe_affine *t = a;
      a = b;
      b = t;
   } else if (a->n == 1 && a->t[0].var < 0) {
      const xe_affine *t = a;
      a = b;
      b = t;
   }
   memset(out, 0, sizeof(*out));
   out->min_bits = min_u(a->min_bits, b->min_bits);
   if (b->n == 0)
      return true;
   if (b->n != 1 || b->t[0].var >= 0)
      return false;
   int arg = b->t[0].arg;
   for (unsigned k = 0; k < a->n; k++) {
      int64_t c;
      if (arg >= 0 && a->t[k].arg >= 0)
         return false;
      if (__builtin_mul_overflow(a->t[k].coeff, b->t[0].coeff, &c) ||
          !add_term(out, c, a->t[k].var, arg >= 0 ? arg : a->t[k].arg))
         return false;
   }
   return true;
}

/* Component k of a built-in vector: `OpCompositeExtract (OpLoad %var) k`;
 * returns the built-in (or -1) and sets *comp. */
static int builtin_comp(const xe_module *m, const xe_inst *i, unsigned *comp)
{
   if (!i || i->opcode != SpvOpCompositeExtract || xe_nops(i) != 2)
      return -1;
   const xe_inst *ld = xe_def(m, xe_op(i, 0));
   if (!ld || ld->opcode != SpvOpLoad)
      return -1;
   *comp = xe_op(i, 1);
   return *comp <= 2 ? xe_builtin_of(m, xe_op(ld, 0)) : -1;
}

static int builtin_var(const xe_module *m, const xe_inst *i)
{
   unsigned comp;
   switch (builtin_comp(m, i, &comp)) {
   case SpvBuiltInGlobalInvocationId: return XE_AFF_GID_X + comp;
   case SpvBuiltInLocalInvocationId: return XE_AFF_LID_X + comp;
   default: return XE_AFF_NONE;
   }
}

/* `get_group_id(d) * get_local_size(d)` in either order. */
static int group_base(const xe_module *m, const xe_inst *i)
{
   if (i->opcode != SpvOpIMul)
      return XE_AFF_NONE;
   unsigned c0, c1;
   int b0 = builtin_comp(m, xe_def(m, xe_op(i, 0)), &c0);
   int b1 = builtin_comp(m, xe_def(m, xe_op(i, 1)), &c1);
   if (b0 == SpvBuiltInWorkgroupSize) {
      int t = b0;
      b0 = b1;
      b1 = t;
      unsigned u = c0;
      c0 = c1;
      c1 = u;
   }
   if (b0 == SpvBuiltInWorkgroupId && b1 == SpvBuiltInWorkgroupSize && c0 == c1)
      return XE_AFF_GBASE_X + c0;
   return XE_AFF_NONE;
}

static bool compute(xe_affine_ctx *c, uint32_t id, xe_affine *out);

/* a | c == a + c when 0 <= c < 2^t and every coefficient of a (constant
 * term included) is a multiple of 2^t, so the bits do not overlap. */
static bool or_is_add(const xe_affine *a, int64_t c)
{
   if (c < 0)
      return false;
   uint64_t p = 1;
   while (p <= (uint64_t)c)
      p <<= 1;
   for (unsigned k = 0; k < a->n; k++) {
      if ((uint64_t)a->t[k].coeff % p)
         return false;
   }
   return true;
}

static const xe_affine *get(xe_affine_ctx *c, uint32_t id)
{
   if (id == 0 || id >= c->m->bound)
      return NULL;
   memo *e = memo_of(c, id);
   if (e->state == ST_DONE)
      return e->form;
   if (e->state != ST_UNKNOWN)
      return NULL; /* not affine, or a cycle through a phi */
   e->state = ST_BUSY;
   xe_affine a;
   memset(&a, 0, sizeof(a));
   bool ok = compute(c, id, &a);
   e = memo_of(c, id);   /* compute may have grown the table */
   e->state = ok ? ST_DONE : ST_NOT;
   if (!ok)
      return NULL;
   e->form = malloc(sizeof(xe_affine));
   if (!e->form)
      xe_out_of_memory();
   *e->form = a;
   return e->form;
}

static bool compute(xe_affine_ctx *c, uint32_t id, xe_affine *out)
{
   const xe_inst *i = xe_def(c->m, id);
   if (!i)
      return false;
   unsigned bits = xe_type_width(c->m, i->type_id);
   if (!bits)
      return false;
   const xe_inst *ty = xe_def(c->m, i->type_id);
   if (!ty || ty->opcode != SpvOpTypeInt)
      return false;
   out->min_bits = bits;
   if (i->opcode == SpvOpConstant) {
      uint64_t v;
      if (!xe_const_uint(c->m, id, &v))
         return false;
      /* Read as signed at its width: `i - 1` arrives as `i + 0xffffffff`. */
      int64_t s = bits < 64 && (v >> (bits - 1)) & 1 ? (int64_t)(v | ~0ull << bits) : (int64_t)v;
      out->min_bits = 64; /* a constant itself does not narrow anything */
      return add_term(out, s, XE_AFF_NONE, -1);
   }
   if (i->opcode == SpvOpFunctionParameter) {
      int k = i->block ? -1 : xe_param_index(c->body, id);
      if (k < 0)
         return false;
      return add_term(out, 1, XE_AFF_NONE, k);
   }
   int var = builtin_var(c->m, i);
   if (var == XE_AFF_NONE)
      var = group_base(c->m, i);
   if (var != XE_AFF_NONE)
      return add_term(out, 1, var, -1);

   const xe_affine *a = xe_nops(i) >= 1 ? get(c, xe_op(i, 0)) : NULL;
   const xe_affine *b = xe_nops(i) >= 2 ? get(c, xe_op(i, 1)) : NULL;
   switch (i->opcode) {
   case SpvOpUConvert:
   case SpvOpSConvert:
      /* Exact under the no-wrap assumption (affine.h): the value is
       * non-negative and below 2^(w-1) at the narrower width, so zero- and
       * sign-extension and truncation all keep it. */
      if (!a)
         return false;
      *out = *a;
      out->min_bits = min_u(a->min_bits, bits);
      return true;
   case SpvOpIAdd:
      if (!a || !b || !combine(out, a, b, 1))
         return false;
      break;
   case SpvOpISub:
      if (!a || !b || !combine(out, a, b, -1))
         return false;
      break;
   case SpvOpIMul:
      if (!a || !b || !multiply(out, a, b))
         return false;
      break;
   case SpvOpShiftLeftLogical: {
      uint64_t sh;
      if (!a || xe_nops(i) < 2 || !xe_const_uint(c->m, xe_op(i, 1), &sh) || sh >= bits - 1)
         return false;
      xe_affine p;
      memset(&p, 0, sizeof(p));
      p.min_bits = 64;
      add_term(&p, (int64_t)1 << sh, XE_AFF_NONE, -1);
      if (!multiply(out, a, &p))
         return false;
      break;
   }
   case SpvOpBitwiseOr:
      /* clang writes `(i << 2) + 3` as `(i << 2) | 3`: an OR is an add when
       * one side is a constant below 2^t and the other a multiple of 2^t. */
      if (!a || !b)
         return false;
      if (!(b->n <= 1 && xe_affine_is_uniform(b) && (b->n == 0 || b->t[0].arg < 0))) {
         const xe_affine *t = a;
         a = b;
         b = t;
      }
      if (!(b->n <= 1 && xe_affine_is_uniform(b) && (b->n == 0 || b->t[0].arg < 0)) ||
          !or_is_add(a, xe_affine_const(b)) || !combine(out, a, b, 1))
         return false;
      break;
   default:
      return false;
   }
   out->min_bits = min_u(out->min_bits, bits);
   return true;
}

const xe_affine *xe_affine_of(xe_affine_ctx *c, uint32_t id)
{
   return get(c, id);
}

int64_t xe_affine_const(const xe_affine *a)
{
   for (unsigned k = 0; k < a->n; k++) {
      if (a->t[k].var < 0 && a->t[k].arg < 0)
         return a->t[k].coeff;
   }
   return 0;
}

bool xe_affine_uses_var(const xe_affine *a, int var)
{
   for (unsigned k = 0; k < a->n; k++) {
      if (a->t[k].var == var)
         return true;
   }
   return false;
}

bool xe_affine_is_var(const xe_affine *a, int var)
{
   return a->n == 1 && a->t[0].var == var && a->t[0].arg < 0 && a->t[0].coeff == 1;
}

bool xe_affine_is_uniform(const xe_affine *a)
{
   for (unsigned k = 0; k < a->n; k++) {
      if (a->t[k].var >= 0)
         return false;
   }
   return true;
}

bool xe_affine_nonneg(const xe_affine *a)
{
   for (unsigned k = 0; k < a->n; k++) {
      if (a->t[k].coeff < 0)
         return false;
   }
   return true;
}

bool xe_affine_equal(const xe_affine *a, const xe_affine *b)
{
   if (a->n != b->n)
      return false;
   for (unsigned k = 0; k < a->n; k++) {
      if (term_cmp(&a->t[k], &b->t[k]) || a->t[k].coeff != b->t[k].coeff)
         return false;
   }
   return true;
}

bool xe_affine_add(xe_affine *a, const xe_affine *b, const xe_affine *c)
{
   return combine(a, b, c, 1);
}

bool xe_affine_sub(xe_affine *a, const xe_affine *b, const xe_affine *c)
{
   return combine(a, b, c, -1);
}

bool xe_affine_ratio(const xe_affine *b, const xe_affine *k, int64_t *alpha, int64_t *beta)
{
   /* k's non-constant terms, matched one by one against b's. */
   int64_t al = 0;
   unsigned nk = 0, nb = 0;
   for (unsigned j = 0; j < k->n; j++) {
      const xe_aff_term *kt = &k->t[j];
      if (kt->var < 0 && kt->arg < 0)
         continue;
      nk++;
      const xe_aff_term *bt = NULL;
      for (unsigned q = 0; q < b->n; q++) {
         if (!term_cmp(&b->t[q], kt))
            bt = &b->t[q];
      }
      if (!bt || bt->coeff % kt->coeff)
         return false;
      int64_t r = bt->coeff / kt->coeff;
      if (nk > 1 && r != al)
         return false;
      al = r;
   }
   for (unsigned q = 0; q < b->n; q++) {
      if (b->t[q].var >= 0 || b->t[q].arg >= 0)
         nb++;
   }
   if (nk == 0 || nb != nk)
      return false;
   *alpha = al;
   *beta = xe_affine_const(b);
   return true;
}

static const char *var_name(int v, xe_aff_spelling sp)
{
   static const char *n[] = { "x", "y", "z", "lx", "ly", "lz", "bx", "by", "bz", "gx", "gy", "gz" };
#define GBASE(d) "get_group_id(" d ")*get_local_size(" d ")"
   static const char *cl[] = {
      "get_global_id(0)", "get_global_id(1)", "get_global_id(2)",
      "get_local_id(0)", "get_local_id(1)", "get_local_id(2)",
      GBASE("0"), GBASE("1"), GBASE("2"),
      GBASE("0") " + get_local_id(0)", GBASE("1") " + get_local_id(1)",
      GBASE("2") " + get_local_id(2)",
   };
#undef GBASE
   if (v < 0 || v >= XE_AFF_NVARS)
      return "?";
   return sp == XE_AFF_SPELL_OPENCL ? cl[v] : n[v];
}

char *xe_affine_str(const xe_affine *a, const char *const *names, xe_aff_spelling sp)
{
   char *buf = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&buf, &len);
   bool first = true;
   /* Var terms first (x before y), then arguments, then the constant. */
   for (int pass = 0; pass < 3; pass++) {
      for (unsigned k = 0; k < a->n; k++) {
         const xe_aff_term *t = &a->t[k];
         int cls = t->var >= 0 ? 0 : t->arg >= 0 ? 1 : 2;
         if (cls != pass)
            continue;
         int64_t c = t->coeff;
         if (!first)
            fputs(c < 0 ? " - " : " + ", f);
         else if (c < 0)
            fputs("-", f);
         if (c < 0)
            c = -c;
         first = false;
         bool any = false;
         if (c != 1 || cls == 2) {
            fprintf(f, "%lld", (long long)c);
            any = true;
         }
         if (t->var >= 0) {
            /* OpenCL's spelling of gx is a sum: bracketed when multiplied
             * or subtracted. */
            bool sum = sp == XE_AFF_SPELL_OPENCL && t->var >= XE_AFF_GLIN_X;
            bool br = sum && (t->coeff != 1 || t->arg >= 0);
            fprintf(f, "%s%s%s%s", any ? "*" : "", br ? "(" : "", var_name(t->var, sp),
                    br ? ")" : "");
            any = true;
         }
         if (t->arg >= 0) {
            if (names && names[t->arg])
               fprintf(f, "%s%s", any ? "*" : "", names[t->arg]);
            else
               fprintf(f, "%sarg%d", any ? "*" : "", t->arg);
         }
      }
   }
   if (first)
      fputs("0", f);
   fclose(f);
   return buf;
}
