/*
 * xe_module -> SPIR-V binary in logical layout order (SPIR-V spec 2.4),
 * plus validation, disassembly and assembly through SPIRV-Tools.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "io.h"
#include "spirv_tools.h"

static size_t list_words(const xe_list *l)
{
   size_t n = 0;
   xe_foreach_inst(i, l)
      n += i->nwords;
   return n;
}

static uint32_t *put(uint32_t *out, const xe_inst *i)
{
   memcpy(out, i->words, i->nwords * 4);
   return out + i->nwords;
}

static uint32_t *put_list(uint32_t *out, const xe_list *l)
{
   xe_foreach_inst(i, l)
      out = put(out, i);
   return out;
}

uint32_t *xe_write(const xe_module *m, size_t *nwords, bool native_order)
{
   size_t n = 5;
   for (int s = 0; s < XE_SEC_COUNT; s++)
      n += list_words(&m->sec[s]);
   xe_foreach_fn(f, m) {
      n += f->def->nwords + list_words(&f->params) + f->end->nwords;
      xe_foreach_block(b, f)
         n += b->label->nwords + list_words(&b->insts);
   }
   uint32_t *words = malloc(n * 4);
   if (!words)
      return NULL;
   uint32_t *out = words;
   *out++ = SpvMagicNumber;
   *out++ = m->version;
   *out++ = m->generator;
   *out++ = m->bound > m->header_bound ? m->bound : m->header_bound;
   *out++ = m->schema;
   for (int s = 0; s < XE_SEC_COUNT; s++)
      out = put_list(out, &m->sec[s]);
   xe_foreach_fn(f, m) {
      out = put(out, f->def);
      out = put_list(out, &f->params);
      xe_foreach_block(b, f) {
         out = put(out, b->label);
         out = put_list(out, &b->insts);
      }
      out = put(out, f->end);
   }
   if (m->big_endian && !native_order) {
      for (size_t k = 0; k < n; k++) {
         uint32_t v = words[k];
         words[k] = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
      }
   }
   *nwords = n;
   return words;
}

static spv_target_env env_for(uint32_t version)
{
   static const spv_target_env envs[] = {
      SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
      SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5, SPV_ENV_UNIVERSAL_1_6,
   };
   unsigned minor = (version >> 8) & 0xff;
   return minor <= 6 ? envs[minor] : SPV_ENV_UNIVERSAL_1_6;
}

static char *diag_message(spv_diagnostic d, const char *fallback)
{
   return strdup(d && d->error ? d->error : fallback);
}

bool xe_validate_words(const uint32_t *words, size_t nwords, char **err)
{
   uint32_t version = nwords > 1 ? words[1] : 0;
   spv_context ctx = xe_spv_context_create(env_for(version));
   spv_const_binary_t bin = { words, nwords };
   spv_diagnostic diag = NULL;
   spv_result_t res = xe_spv_validate(ctx, &bin, &diag);
   if (res != SPV_SUCCESS && err)
      *err = diag_message(diag, "invalid module");
   spvDiagnosticDestroy(diag);
   spvContextDestroy(ctx);
   return res == SPV_SUCCESS;
}

bool xe_validate(const xe_module *m, char **err)
{
   size_t n;
   uint32_t *w = xe_write(m, &n, true);
   if (!w) {
      *err = strdup("out of memory");
      return false;
   }
   bool ok = xe_validate_words(w, n, err);
   free(w);
   return ok;
}

char *xe_disassemble_words(const uint32_t *words, size_t nwords, bool stable)
{
   spv_context ctx = xe_spv_context_create(SPV_ENV_UNIVERSAL_1_6);
   spv_text text = NULL;
   uint32_t opts = SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
   if (stable)
      opts |= SPV_BINARY_TO_TEXT_OPTION_NO_HEADER;
   spv_result_t res = xe_spv_binary_to_text(ctx, words, nwords, opts, &text, NULL);
   char *out = NULL;
   if (res == SPV_SUCCESS && text) {
      out = malloc(text->length + 1);
      memcpy(out, text->str, text->length);
      out[text->length] = 0;
   }
   spvTextDestroy(text);
   spvContextDestroy(ctx);
   return out;
}

char *xe_disassemble(const xe_module *m, bool stable)
{
   size_t n;
   uint32_t *w = xe_write(m, &n, true);
   if (!w)
      return NULL;
   char *s = xe_disassemble_words(w, n, stable);
   free(w);
   return s;
}

uint32_t *xe_assemble(const char *text, uint32_t version, size_t *nwords, char **err)
{
   spv_context ctx = xe_spv_context_create(env_for(version));
   spv_binary bin = NULL;
   spv_diagnostic diag = NULL;
   spv_result_t res = xe_spv_text_to_binary(ctx, text, strlen(text), &bin, &diag);
   uint32_t *out = NULL;
   if (res == SPV_SUCCESS) {
      out = malloc(bin->wordCount * 4);
      memcpy(out, bin->code, bin->wordCount * 4);
      *nwords = bin->wordCount;
   } else if (err) {
      *err = diag_message(diag, "assembly failed");
   }
   spvBinaryDestroy(bin);
   spvDiagnosticDestroy(diag);
   spvContextDestroy(ctx);
   return out;
}
