/*
 * Dense ids for a module whose ids are far sparser than its size (issue
 * 47): a 4 KB module may name id 60,000,000, and every per-id table of the
 * IR, the analyses and the interpreter is sized by the largest id.  Such a
 * module's ids are renumbered before it is read, keeping their order, so
 * that memory follows the module's size.  Only such modules: a module
 * whose largest id is within XE_SPARSE_SLACK of its word count (every
 * module a front end writes: an id takes at least two words to define)
 * is read as it is, and its output keeps its ids.
 */
#include <stdlib.h>
#include <string.h>

/* libspirv.h defines a non-static const; see reader.c. */
#define kDefaultMaxIdBound xe_dense_ids_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "io.h"
#include "spirv_tools.h"
#include "ir_internal.h"

/* Ids up to 4 per word plus this many are read as they are. */
#define XE_SPARSE_SLACK 4096u

struct id_walk {
   uint32_t *words;          /* host order, the module being walked */
   size_t word;              /* word offset of the current instruction */
   uint32_t bound;           /* the header's */
   uint32_t *at;             /* word offsets of every id operand */
   size_t n;
   bool bad;                 /* an id of 0 or past the bound: left to the reader */
};

static spv_result_t walk_header(void *data, spv_endianness_t e, uint32_t magic,
                                uint32_t version, uint32_t generator, uint32_t bound,
                                uint32_t schema)
{
   (void)data, (void)e, (void)magic, (void)version, (void)generator, (void)bound, (void)schema;
   return SPV_SUCCESS;
}

static bool is_id(spv_operand_type_t t)
{
   return t == SPV_OPERAND_TYPE_ID || t == SPV_OPERAND_TYPE_TYPE_ID ||
          t == SPV_OPERAND_TYPE_RESULT_ID || t == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID ||
          t == SPV_OPERAND_TYPE_SCOPE_ID;
}

static spv_result_t walk_inst(void *data, const spv_parsed_instruction_t *p)
{
   struct id_walk *w = data;
   for (uint16_t k = 0; k < p->num_operands; k++) {
      const spv_parsed_operand_t *o = &p->operands[k];
      if (!is_id(o->type))
         continue;
      for (uint16_t j = o->offset; j < o->offset + o->num_words; j++) {
         uint32_t id = w->words[w->word + j];
         w->bad |= id == 0 || id >= w->bound;
         w->at[w->n++] = (uint32_t)(w->word + j);
      }
   }
   w->word += p->num_words;
   return SPV_SUCCESS;
}

static int cmp_u32(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   return (x > y) - (x < y);
}

/* The index of id in the n sorted ids v (it is there). */
static uint32_t rank(const uint32_t *v, size_t n, uint32_t id)
{
   size_t lo = 0, hi = n;
   while (hi - lo > 1) {
      size_t mid = (lo + hi) / 2;
      if (v[mid] <= id)
         lo = mid;
      else
         hi = mid;
   }
   return (uint32_t)lo;
}

bool xe__dense_ids(uint32_t *words, size_t nwords)
{
   if (nwords < 5 || words[3] <= 4 * (uint64_t)nwords + XE_SPARSE_SLACK)
      return true;
   struct id_walk w = { .words = words, .word = 5, .bound = words[3],
                        .at = malloc(nwords * sizeof(uint32_t)) };
   if (!w.at)
      return false;
   spv_context ctx = xe_spv_context_create(SPV_ENV_UNIVERSAL_1_6);
   spv_result_t res = xe_spv_binary_parse(ctx, &w, words, nwords, walk_header, walk_inst, NULL);
   spvContextDestroy(ctx);
   uint32_t *ids = NULL;
   size_t nids = 0;
   uint32_t top = 0;
   for (size_t k = 0; k < w.n; k++)
      top = words[w.at[k]] > top ? words[w.at[k]] : top;
   /* A module the parser or the reader rejects keeps its words, so that
    * the error names them as they are; so does one that only declares a
    * large bound (the reader sizes its tables by the largest id). */
   if (res == SPV_SUCCESS && !w.bad && top > 4 * (uint64_t)nwords + XE_SPARSE_SLACK) {
      if (!(ids = malloc((w.n + 1) * sizeof(uint32_t)))) {
         free(w.at);
         return false;
      }
      for (size_t k = 0; k < w.n; k++)
         ids[k] = words[w.at[k]];
      qsort(ids, w.n, sizeof(uint32_t), cmp_u32);
      for (size_t k = 0; k < w.n; k++) {
         if (!nids || ids[nids - 1] != ids[k])
            ids[nids++] = ids[k];
      }
      for (size_t k = 0; k < w.n; k++)
         words[w.at[k]] = rank(ids, nids, words[w.at[k]]) + 1;
      words[3] = (uint32_t)nids + 1;
   }
   free(ids);
   free(w.at);
   return true;
}
