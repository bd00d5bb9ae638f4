/*
 * SPIR-V binary -> xe_module, through SPIRV-Tools' spvBinaryParse, which
 * decodes operands (including the width-dependent literals of OpConstant
 * and OpSwitch) and handles either byte order.
 *
 * The parser checks the grammar; this file checks what it leaves to the
 * validator but the IR itself relies on: the header, the id bound, ids
 * below the bound, single definitions, and where instructions may stand
 * (functions, blocks).  Anything else the validator reports later; xeopt
 * must still read modules that fail only spirv-val's block-order rule.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libspirv.h defines a non-static const, which has external linkage in C;
 * rename it here so writer.c can include the header too. */
#define kDefaultMaxIdBound xe_reader_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "io.h"
#include "spirv_tools.h"
#include "ir_internal.h"

struct reader {
   xe_module *m;
   char *err;
   size_t word;              /* word offset of the current instruction */
   int section;              /* highest section seen before functions */
   xe_function *fn;          /* open function */
   xe_block *block;          /* open block */
   bool after_functions;     /* a function has ended */
   bool forward_pointers;    /* the module uses OpTypeForwardPointer */
   /* Per-id counts of uses and of names/decorations naming the id, for the
    * first build of the use lists (xe__uses_hint): taken here, while each
    * instruction is at hand, they spare that build a walk of the module. */
   uint32_t *uses, *meta;
   uint32_t ncounts;
};

/* Makes the counts cover id (doubling, and never far past the bound:
 * check_ids rejects larger ids first). */
static void counts_reserve(struct reader *r, uint32_t id)
{
   if (id < r->ncounts)
      return;
   uint64_t n = r->ncounts ? r->ncounts : 1024;
   while (n <= id)
      n *= 2;
   if (n > (uint64_t)r->m->bound + 1024)
      n = (uint64_t)r->m->bound + 1024;
   r->uses = realloc(r->uses, n * sizeof(uint32_t));
   r->meta = realloc(r->meta, n * sizeof(uint32_t));
   if (!r->uses || !r->meta)
      xe_out_of_memory();
   memset(r->uses + r->ncounts, 0, (n - r->ncounts) * sizeof(uint32_t));
   memset(r->meta + r->ncounts, 0, (n - r->ncounts) * sizeof(uint32_t));
   r->ncounts = (uint32_t)n;
}

/* Counts the name or decoration i is (section s) for the id it names, as
 * the build of the use lists will enter it (uses_build.c: count_visit); make_inst
 * counted the uses. */
static void count_meta(struct reader *r, const xe_inst *i, int s)
{
   if ((s == XE_SEC_DEBUG_NAME || s == XE_SEC_ANNOTATION) && xe_nops(i) >= 1 &&
       xe_op_kind(i, 0) == XE_W_ID) {
      counts_reserve(r, xe_op(i, 0));
      r->meta[xe_op(i, 0)]++;
   }
}

static spv_result_t fail(struct reader *r, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char msg[256];
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   size_t n = strlen(msg) + 48;
   r->err = malloc(n);
   snprintf(r->err, n, "%s (at word %zu)", msg, r->word);
   return SPV_ERROR_INVALID_BINARY;
}

static spv_result_t on_header(void *data, spv_endianness_t endian, uint32_t magic,
                              uint32_t version, uint32_t generator, uint32_t bound,
                              uint32_t schema)
{
   struct reader *r = data;
   (void)magic;
   r->m->big_endian = endian == SPV_ENDIANNESS_BIG;
   r->m->version = version;
   r->m->generator = generator;
   r->m->bound = bound;
   r->m->header_bound = bound;
   r->m->schema = schema;
   r->word = 5;
   return SPV_SUCCESS;
}

static bool is_id_operand(spv_operand_type_t t)
{
   return t == SPV_OPERAND_TYPE_ID || t == SPV_OPERAND_TYPE_TYPE_ID ||
          t == SPV_OPERAND_TYPE_RESULT_ID || t == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID ||
          t == SPV_OPERAND_TYPE_SCOPE_ID;
}

static bool is_global_only(uint16_t op)
{
   return (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) ||
          (op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp);
}

/* The instruction p, with the kind of each word.  The same walk over the
 * operands checks that every id is inside the bound (*bad: the first word
 * that is not, 0 if none) and counts the uses of the valid ones, so that
 * the reader reads each instruction's words once. */
static xe_inst *make_inst(struct reader *r, const spv_parsed_instruction_t *p, unsigned *bad)
{
   xe_inst *i = xe__inst_alloc_pooled(r->m, p->num_words);
   memcpy(i->words, p->words, p->num_words * 4);
   i->opcode = p->opcode;
   i->type_id = p->type_id;
   i->result_id = p->result_id;
   i->first_op = 1 + (p->type_id != 0) + (p->result_id != 0);
   uint32_t bound = r->m->bound;
   *bad = 0;
   /* Operands come in word order, so the first bad word is found first. */
   for (uint16_t k = 0; k < p->num_operands; k++) {
      const spv_parsed_operand_t *o = &p->operands[k];
      uint8_t kind = XE_W_LIT;
      if (o->type == SPV_OPERAND_TYPE_TYPE_ID && o->offset == 1 && p->type_id)
         kind = XE_W_TYPE;
      else if (o->type == SPV_OPERAND_TYPE_RESULT_ID)
         kind = XE_W_RESULT;
      else if (is_id_operand(o->type))
         kind = XE_W_ID;
      for (uint16_t w = o->offset; w < o->offset + o->num_words; w++) {
         xe_kinds(i)[w] = kind;
         if (kind == XE_W_LIT || w == 0)
            continue;
         uint32_t id = i->words[w];
         if (id == 0 || id >= bound) {
            if (!*bad)
               *bad = w;
         } else if (kind != XE_W_RESULT) {
            counts_reserve(r, id);
            r->uses[id]++;
         }
      }
   }
   return i;
}

static spv_result_t check_ids(struct reader *r, const xe_inst *i, unsigned bad)
{
   if (bad)
      return fail(r, "%s uses id %u, outside the id bound %u", xe_opcode_name(i->opcode),
                  i->words[bad], r->m->bound);
   if (i->result_id && xe_def(r->m, i->result_id))
      return fail(r, "id %u is defined twice", i->result_id);
   return SPV_SUCCESS;
}

/* Types, constants and global variables may only name ids defined before
 * them (SPIR-V 2.4), except through OpTypeForwardPointer, which the
 * reader then does not second-guess. */
static spv_result_t check_defined(struct reader *r, const xe_inst *i)
{
   if (i->opcode == SpvOpTypeForwardPointer)
      r->forward_pointers = true;
   if (r->forward_pointers || i->opcode == SpvOpLine || i->opcode == SpvOpExtInst)
      return SPV_SUCCESS;
   for (unsigned w = 1; w < i->nwords; w++) {
      if ((xe_kinds(i)[w] == XE_W_ID || xe_kinds(i)[w] == XE_W_TYPE) && !xe_def(r->m, i->words[w]))
         return fail(r, "%s refers to id %u before its definition", xe_opcode_name(i->opcode),
                     i->words[w]);
   }
   return SPV_SUCCESS;
}

static spv_result_t place_in_function(struct reader *r, xe_inst *i)
{
   xe_module *m = r->m;
   switch (i->opcode) {
   case SpvOpFunction:
      xe_inst_free(i);
      return fail(r, "OpFunction inside a function");
   case SpvOpFunctionParameter:
      if (r->block) {
         xe_inst_free(i);
         return fail(r, "OpFunctionParameter after the first block");
      }
      xe_list_append(m, &r->fn->params, i);
      return SPV_SUCCESS;
   case SpvOpLabel: {
      xe_block *b = xe__struct_alloc(m, sizeof(*b));
      b->label = i;
      i->block = b;
      xe_block_insert(r->fn, NULL, b);
      xe_note_def(m, i);
      r->block = b;
      return SPV_SUCCESS;
   }
   case SpvOpFunctionEnd:
      r->fn->end = i;
      r->fn = NULL;
      r->block = NULL;
      r->after_functions = true;
      return SPV_SUCCESS;
   default:
      if (xe_opcode_section(i->opcode) != XE_SEC_GLOBAL || is_global_only(i->opcode)) {
         const char *name = xe_opcode_name(i->opcode);
         xe_inst_free(i);
         return fail(r, "%s inside a function", name);
      }
      if (r->block)
         xe_block_append(m, r->block, i);
      else
         xe_list_append(m, &r->fn->params, i);
      return SPV_SUCCESS;
   }
}

static spv_result_t place_global(struct reader *r, xe_inst *i)
{
   xe_module *m = r->m;
   if (i->opcode == SpvOpFunction) {
      r->fn = xe_function_create(m, i, NULL);
      xe_function_append(m, r->fn);
      return SPV_SUCCESS;
   }
   enum xe_section s = xe_opcode_section(i->opcode);
   spv_result_t res = SPV_SUCCESS;
   if (s == XE_SEC_GLOBAL && (res = check_defined(r, i)) != SPV_SUCCESS) {
      xe_inst_free(i);
      return res;
   }
   bool global_ok = is_global_only(i->opcode) || i->opcode == SpvOpVariable ||
                    i->opcode == SpvOpUndef || i->opcode == SpvOpLine ||
                    i->opcode == SpvOpNoLine || i->opcode == SpvOpExtInst;
   if (r->after_functions || (s == XE_SEC_GLOBAL && !global_ok)) {
      const char *name = xe_opcode_name(i->opcode);
      xe_inst_free(i);
      return fail(r, "%s outside a function", name);
   }
   if ((int)s < r->section)
      m->reordered = true; /* written back in its section */
   else
      r->section = s;
   xe_list_append(m, &m->sec[s], i);
   return SPV_SUCCESS;
}

static spv_result_t on_inst(void *data, const spv_parsed_instruction_t *p)
{
   struct reader *r = data;
   unsigned bad;
   xe_inst *i = make_inst(r, p, &bad);
   spv_result_t res = check_ids(r, i, bad);
   if (res == SPV_SUCCESS && !r->fn)
      count_meta(r, i, (int)xe_opcode_section(i->opcode));
   if (res != SPV_SUCCESS)
      xe_inst_free(i);
   else if (r->fn)
      res = place_in_function(r, i);
   else
      res = place_global(r, i);
   if (res == SPV_SUCCESS)
      r->word += p->num_words;
   return res;
}

static uint32_t swap32(uint32_t v)
{
   return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

/* A host-order copy of a module's words: SPIRV-Tools 2023.1 mis-decodes
 * literal strings of big-endian modules, so they are swapped here and that
 * is parsed.  *swapped says whether they were; the magic number is left
 * to the caller to check. */
static uint32_t *host_words(const void *bytes, size_t nbytes, bool *swapped)
{
   uint32_t *w = malloc(nbytes);
   if (!w)
      xe_out_of_memory();
   memcpy(w, bytes, nbytes);
   *swapped = w[0] == swap32(SpvMagicNumber);
   if (*swapped)
      for (size_t k = 0; k < nbytes / 4; k++)
         w[k] = swap32(w[k]);
   return w;
}

/* Reserves the pool room every instruction will take, from the word
 * counts, so that they are carved from one chunk in layout order; and the
 * room of the block structures and of the function structures, in two
 * more.  A word count the parser will reject ends the walk: the estimate
 * only sizes the chunks. */
static void reserve_pool(xe_module *m, const uint32_t *w, size_t n)
{
   size_t bytes = 0, structs = 0, fns = 0;
   for (size_t at = 5; at < n;) {
      uint32_t wc = w[at] >> 16;
      if (wc == 0 || wc > n - at)
         break;
      bytes += xe__pool_size(xe__inst_bytes(wc));
      uint32_t op = w[at] & 0xffff;
      if (op == SpvOpFunction)
         fns += xe__pool_size(sizeof(xe_function));
      else if (op == SpvOpLabel)
         structs += xe__pool_size(sizeof(xe_block));
      at += wc;
   }
   xe__pool_reserve(m, bytes);
   if (structs)
      xe__struct_reserve(m, structs);
   if (fns)
      xe__fn_struct_reserve(m, fns);
}

/* xe_read_over; *old is recycled into the new module and set to NULL
 * once the header checks pass (else left to the caller to free). */
static xe_module *read_module(const void *bytes, size_t nbytes, char **err, xe_module **old)
{
   *err = NULL;
   char buf[160];
   if (nbytes == 0) {
      *err = strdup("empty file");
      return NULL;
   }
   if (nbytes < 20) {
      snprintf(buf, sizeof(buf), "truncated header: %zu bytes, a SPIR-V header has 20", nbytes);
      *err = strdup(buf);
      return NULL;
   }
   if (nbytes % 4) {
      snprintf(buf, sizeof(buf), "size %zu bytes is not a whole number of 32-bit words", nbytes);
      *err = strdup(buf);
      return NULL;
   }
   size_t nwords = nbytes / 4;
   bool swapped;
   uint32_t *words = host_words(bytes, nbytes, &swapped);
   if (words[0] != SpvMagicNumber) {
      snprintf(buf, sizeof(buf), "not a SPIR-V module: magic number 0x%08x, expected 0x%08x",
               words[0], SpvMagicNumber);
      *err = strdup(buf);
      free(words);
      return NULL;
   }
   uint32_t version = words[1];
   uint32_t bound = words[3];
   if ((version >> 16) != 1 || ((version >> 8) & 0xff) > 6 || (version & 0xff0000ff)) {
      snprintf(buf, sizeof(buf), "unsupported SPIR-V version 0x%08x (xeopt reads 1.0 to 1.6)",
               version);
      *err = strdup(buf);
      free(words);
      return NULL;
   }
   if (bound == 0 || bound > XE_MAX_BOUND) {
      if (bound)
         snprintf(buf, sizeof(buf), "id bound %u is too large (xeopt accepts up to %u)", bound,
                  XE_MAX_BOUND);
      else
         snprintf(buf, sizeof(buf), "id bound is 0, but every module defines ids");
      *err = strdup(buf);
      free(words);
      return NULL;
   }
   if (nwords == 5) {
      /* spirv-val refuses it too (no OpMemoryModel); passed through, it
       * would reach the runtime as a module without kernels. */
      *err = strdup("a header and no instructions: not a module of kernels (it needs at least "
                    "OpMemoryModel and an OpEntryPoint)");
      free(words);
      return NULL;
   }

   if (!xe__dense_ids(words, nwords)) {
      *err = strdup("out of memory");
      free(words);
      return NULL;
   }
   bound = words[3];
   struct reader r = { .m = xe_module_create(), .section = 0 };
   xe__module_recycle(*old, r.m);
   *old = NULL;
   r.m->bound = bound;
   reserve_pool(r.m, words, nwords);
   spv_context ctx = xe_spv_context_create(SPV_ENV_UNIVERSAL_1_6);
   spv_diagnostic diag = NULL;
   spv_result_t res = xe_spv_binary_parse(ctx, &r, words, nwords, on_header, on_inst, &diag);
   if (res == SPV_SUCCESS && r.fn)
      res = fail(&r, "missing OpFunctionEnd at the end of the module");
   if (res == SPV_SUCCESS)
      r.m->big_endian = swapped;
   if (res == SPV_SUCCESS && (r.err = xe_check_structure(r.m)))
      res = SPV_ERROR_INVALID_BINARY;
   if (res == SPV_SUCCESS) {
      /* Per-id tables are sized by the ids in use, not by a header bound
       * that may be far larger (up to XE_MAX_BOUND in a tiny module); the
       * writer still writes the header's bound, and fresh ids stay below
       * it where they can. */
      uint32_t top = r.m->defs_cap < r.m->bound ? r.m->defs_cap : r.m->bound;
      while (top > 1 && !r.m->defs[top - 1])
         top--;
      r.m->bound = top;
      xe__uses_hint(r.m, r.ncounts, r.uses, r.meta);
      r.uses = r.meta = NULL;
   }
   free(r.uses);
   free(r.meta);
   if (res != SPV_SUCCESS) {
      if (!r.err) {
         /* SPIRV-Tools' messages name the word themselves. */
         r.err = strdup(diag && diag->error ? diag->error : "invalid SPIR-V binary");
      }
      *err = r.err;
      xe_module_free(r.m);
      r.m = NULL;
   }
   spvDiagnosticDestroy(diag);
   spvContextDestroy(ctx);
   free(words);
   return r.m;
}

xe_module *xe_read_over(xe_module *old, const void *bytes, size_t nbytes, char **err)
{
   xe_module *m = read_module(bytes, nbytes, err, &old);
   xe_module_free(old);   /* a header check failed first */
   return m;
}

xe_module *xe_read(const void *bytes, size_t nbytes, char **err)
{
   return xe_read_over(NULL, bytes, nbytes, err);
}

static spv_result_t skip_header(void *u, spv_endianness_t e, uint32_t magic, uint32_t version,
                                uint32_t generator, uint32_t bound, uint32_t schema)
{
   (void)u, (void)e, (void)magic, (void)version, (void)generator, (void)bound, (void)schema;
   return SPV_SUCCESS;
}

static spv_result_t skip_inst(void *u, const spv_parsed_instruction_t *i)
{
   (void)u, (void)i;
   return SPV_SUCCESS;
}

char *xe_read_unknown(const void *bytes, size_t nbytes)
{
   if (nbytes % 4 || nbytes < 20)
      return NULL;
   size_t n = nbytes / 4;
   bool swapped;
   uint32_t *w = host_words(bytes, nbytes, &swapped);
   (void)swapped;
   char *why = NULL;
   size_t at = 5;
   while (w[0] == SpvMagicNumber && at < n) {
      uint32_t wc = w[at] >> 16;
      if (wc == 0 || wc > n - at)
         break;
      at += wc;
   }
   if (w[0] == SpvMagicNumber && at == n) {
      spv_context ctx = xe_spv_context_create(SPV_ENV_UNIVERSAL_1_6);
      spv_diagnostic diag = NULL;
      spv_result_t res = xe_spv_binary_parse(ctx, NULL, w, n, skip_header, skip_inst, &diag);
      const char *msg = res != SPV_SUCCESS && diag && diag->error ? diag->error : "";
      char buf[320];
      buf[0] = 0;
      if (!strncmp(msg, "Invalid opcode: ", 16)) {
         /* The diagnostic counts instructions; name the word. */
         size_t word = 5;
         while (word < n && (w[word] & 0xffff) != strtoul(msg + 16, NULL, 10))
            word += w[word] >> 16;
         snprintf(buf, sizeof buf, "opcode %s at word %zu is unknown to SPIRV-Tools", msg + 16, word);
      }
      else if (!strncmp(msg, "Invalid extended instruction import '", 37))
         snprintf(buf, sizeof buf, "extended instruction set %.200s is unknown to SPIRV-Tools",
                  msg + 36);
      if (buf[0])
         why = strdup(buf);
      spvDiagnosticDestroy(diag);
      spvContextDestroy(ctx);
   }
   free(w);
   return why;
}
