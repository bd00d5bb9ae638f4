/*
 * Look-ups into the opcode-information table generated from the SPIR-V
 * grammar (tools/gen_opinfo.c writes it into the build directory).  Both
 * tables are dense arrays indexed by number, so every question is O(1).
 */
#include <string.h>

#include "opinfo.h"

extern const uint8_t xe_opinfo_core[];
extern const size_t xe_opinfo_core_count;
extern const uint8_t xe_opinfo_ocl[];
extern const size_t xe_opinfo_ocl_count;

#define UNKNOWN (XE_OPI_READS | XE_OPI_WRITES | XE_OPI_EFFECT)

unsigned xe_opcode_info(unsigned opcode)
{
   return opcode < xe_opinfo_core_count ? xe_opinfo_core[opcode] : UNKNOWN;
}

unsigned xe_ocl_ext_info(unsigned n)
{
   return n < xe_opinfo_ocl_count ? xe_opinfo_ocl[n] : UNKNOWN;
}

/* The debug-info sets: their instructions only describe the source. */
static bool debug_info_set(const char *name)
{
   return !strcmp(name, "OpenCL.DebugInfo.100") || !strcmp(name, "DebugInfo") ||
          !strcmp(name, "SPIRV.debug") ||
          (!strncmp(name, "NonSemantic.", 12) && strstr(name, "DebugInfo"));
}

bool xe_inst_is_debug_info(const xe_module *m, const xe_inst *i)
{
   if (i->opcode != SpvOpExtInst || xe_nops(i) < 2)
      return false;
   const xe_inst *set = xe_def(m, xe_op(i, 0));
   return set && set->opcode == SpvOpExtInstImport && debug_info_set(xe_op_string(set, 0));
}

unsigned xe_inst_info(const xe_module *m, const xe_inst *i)
{
   if (i->opcode != SpvOpExtInst)
      return xe_opcode_info(i->opcode);
   if (xe_nops(i) < 2)
      return UNKNOWN;
   const xe_inst *set = xe_def(m, xe_op(i, 0));
   const char *name = set && set->opcode == SpvOpExtInstImport ? xe_op_string(set, 0) : NULL;
   if (!name)
      return UNKNOWN;
   if (!strcmp(name, "OpenCL.std"))
      return xe_ocl_ext_info(xe_op(i, 1));
   if (!strncmp(name, "NonSemantic.", 12) || debug_info_set(name))
      return XE_OPI_PURE;
   return UNKNOWN;
}
