/* Build-time generator: reads spirv.core.grammar.json and
 * extinst.opencl.std.100.grammar.json (SPIRV-Headers) and writes one C
 * table of what every opcode, and every OpenCL.std extended instruction,
 * does besides computing its result (src/ir/opinfo.h has the flags).
 *
 * The grammar has no memory-effect field, so the effect comes from each
 * instruction's "class" (Arithmetic, Memory, Atomic, Barrier, Group, ...)
 * and, where a class mixes kinds (Memory holds OpLoad, OpStore and the
 * access chains), from the explicit override lists below; every override
 * says why.  Anything not covered, including every class a later grammar
 * adds, gets the conservative answer: reads, writes, has effects.
 *
 *    gen_opinfo CORE_GRAMMAR.json OPENCL_STD_GRAMMAR.json OUT.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

/* Keep in step with src/ir/opinfo.h. */
enum {
   PURE = 1 << 0,
   READS = 1 << 1,
   WRITES = 1 << 2,
   BARRIER = 1 << 3,
   CONVERGENT = 1 << 4,
   ATOMIC = 1 << 5,
   EFFECT = 1 << 6,
   ADDRESS = 1 << 7,
};
#define UNKNOWN (READS | WRITES | EFFECT)

struct rule {
   const char *name;
   unsigned flags;
   /* why: in the comment beside each entry */
};

/* Per-opcode answers that win over the class rule. */
static const struct rule core_overrides[] = {
   /* Memory class: the class holds loads, stores, copies and pointer
    * arithmetic side by side. */
   { "OpVariable", 0 },                      /* allocates; no value read or written */
   { "OpLoad", READS },
   { "OpStore", WRITES },
   { "OpCopyMemory", READS | WRITES },
   { "OpCopyMemorySized", READS | WRITES },
   { "OpAccessChain", PURE | ADDRESS },      /* address arithmetic, no access */
   { "OpInBoundsAccessChain", PURE | ADDRESS },
   { "OpPtrAccessChain", PURE | ADDRESS },
   { "OpInBoundsPtrAccessChain", PURE | ADDRESS },
   { "OpImageTexelPointer", PURE | ADDRESS },
   { "OpArrayLength", READS },               /* the length of the bound buffer, not of an operand */
   { "OpGenericPtrMemSemantics", PURE },     /* a function of the pointer value */
   { "OpPtrEqual", PURE },
   { "OpPtrNotEqual", PURE },
   { "OpPtrDiff", PURE },
   /* Control-Flow class: only OpPhi computes a value. */
   { "OpPhi", PURE },
   { "OpLifetimeStart", 0 },                 /* a hint: no value changes */
   { "OpLifetimeStop", 0 },
   /* Group class: collectives are convergent; these also touch memory or
    * wait. */
   { "OpGroupAsyncCopy", READS | WRITES | CONVERGENT },
   { "OpGroupWaitEvents", BARRIER | CONVERGENT },
   { "OpSubgroupBlockReadINTEL", READS | CONVERGENT },
   { "OpSubgroupBlockWriteINTEL", WRITES | CONVERGENT },
   { "OpSubgroupImageBlockReadINTEL", READS | CONVERGENT },
   { "OpSubgroupImageBlockWriteINTEL", WRITES | CONVERGENT },
   { "OpSubgroupImageMediaBlockReadINTEL", READS | CONVERGENT },
   { "OpSubgroupImageMediaBlockWriteINTEL", WRITES | CONVERGENT },
   /* Barrier class: control barriers wait for the whole scope. */
   { "OpControlBarrier", BARRIER | CONVERGENT },
   { "OpControlBarrierArriveINTEL", BARRIER | CONVERGENT },
   { "OpControlBarrierWaitINTEL", BARRIER | CONVERGENT },
   { "OpMemoryBarrier", BARRIER },
   { "OpMemoryNamedBarrier", BARRIER },
   { "OpNamedBarrierInitialize", 0 },        /* creates the barrier object */
   /* Function class: a call may do anything its callee does. */
   { "OpFunctionCall", READS | WRITES | EFFECT | BARRIER | CONVERGENT },
   /* Miscellaneous class. */
   { "OpNop", PURE },
   { "OpUndef", PURE },
   { "OpSizeOf", PURE },
   { "OpExpectKHR", PURE },
   { "OpAssumeTrueKHR", 0 },                 /* a promise to the compiler, no value */
   /* Reserved class: integer ALU instructions of
    * SPV_INTEL_shader_integer_functions2 (OpenCL's intel_* built-ins). */
   { "OpUCountLeadingZerosINTEL", PURE },
   { "OpUCountTrailingZerosINTEL", PURE },
   { "OpAbsISubINTEL", PURE },
   { "OpAbsUSubINTEL", PURE },
   { "OpIAddSatINTEL", PURE },
   { "OpUAddSatINTEL", PURE },
   { "OpIAverageINTEL", PURE },
   { "OpUAverageINTEL", PURE },
   { "OpIAverageRoundedINTEL", PURE },
   { "OpUAverageRoundedINTEL", PURE },
   { "OpISubSatINTEL", PURE },
   { "OpUSubSatINTEL", PURE },
   { "OpIMul32x16INTEL", PURE },
   { "OpUMul32x16INTEL", PURE },
};

/* The class rule. */
static unsigned class_flags(const char *cls, const char *name)
{
   static const char *pure_classes[] = {
      "Arithmetic", "Bit", "Relational_and_Logical", "Conversion", "Composite",
      "Constant-Creation", "Debug", /* OpLine, OpNoLine, OpString, OpName: no effect */
   };
   for (size_t k = 0; k < sizeof pure_classes / sizeof *pure_classes; k++)
      if (!strcmp(cls, pure_classes[k]))
         return PURE;
   /* Declarations: not values an analysis evaluates, and no effect. */
   if (!strcmp(cls, "Type-Declaration") || !strcmp(cls, "Annotation") ||
       !strcmp(cls, "Mode-Setting"))
      return 0;
   if (!strcmp(cls, "Atomic")) /* an atomic load also orders memory */
      return READS | WRITES | ATOMIC;
   if (!strcmp(cls, "Group") || !strcmp(cls, "Non-Uniform") || !strcmp(cls, "Derivative"))
      return CONVERGENT; /* the result depends on the other invocations */
   if (!strcmp(cls, "Control-Flow") || !strcmp(cls, "Function"))
      return 0; /* labels, merges, branches, returns, function boundaries */
   if (!strcmp(cls, "Extension"))
      return strcmp(name, "OpExtInst") ? 0 : UNKNOWN; /* resolved per set at run time */
   if (!strcmp(cls, "Image")) {
      if (strstr(name, "Write"))
         return WRITES;
      if (strstr(name, "Query") || !strcmp(name, "OpSampledImage") || !strcmp(name, "OpImage"))
         return PURE;
      return READS;
   }
   return UNKNOWN; /* Memory, Barrier leftovers, Pipe, Device-Side_Enqueue, Primitive,
                      Reserved, @exclude, anything new */
}

/* OpenCL.std: every instruction is a pure function of its operands except
 * these.  The grammar's operand names cannot tell a pointer from a value
 * ('p' is a pointer in vloadn and a vector in length), so the list is
 * explicit (OpenCL.ExtendedInstructionSet.100 spec). */
static const struct rule ocl_overrides[] = {
   { "fract", WRITES },           /* writes floor(x) through 'ptr' */
   { "frexp", WRITES },           /* writes the exponent through 'exp' */
   { "lgamma_r", WRITES },        /* writes the sign through 'signp' */
   { "modf", WRITES },            /* writes the integral part through 'iptr' */
   { "remquo", WRITES },          /* writes the quotient bits through 'quo' */
   { "sincos", WRITES },          /* writes the cosine through 'cosval' */
   { "vloadn", READS },
   { "vstoren", WRITES },
   { "vload_half", READS },
   { "vload_halfn", READS },
   { "vstore_half", WRITES },
   { "vstore_half_r", WRITES },
   { "vstore_halfn", WRITES },
   { "vstore_halfn_r", WRITES },
   { "vloada_halfn", READS },
   { "vstorea_halfn", WRITES },
   { "vstorea_halfn_r", WRITES },
   { "printf", READS | EFFECT },  /* reads the format string, writes the output */
   { "prefetch", READS | EFFECT },/* a cache hint on global memory */
};

static cJSON *load(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      return NULL;
   }
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc(n + 1);
   if (!buf || fread(buf, 1, n, f) != (size_t)n) {
      fclose(f);
      free(buf);
      return NULL;
   }
   buf[n] = 0;
   fclose(f);
   cJSON *g = cJSON_Parse(buf);
   free(buf);
   if (!g || !cJSON_GetObjectItem(g, "instructions"))
      fprintf(stderr, "%s: no instructions\n", path);
   return g;
}

static int lookup(const struct rule *r, size_t n, const char *name, unsigned *flags)
{
   for (size_t k = 0; k < n; k++)
      if (!strcmp(r[k].name, name)) {
         *flags = r[k].flags;
         return 1;
      }
   return 0;
}

/* Writes "static const uint8_t NAME[] = {...}" indexed by opcode, unknown
 * entries UNKNOWN; returns the table length. */
static int table(FILE *o, cJSON *g, const char *tname, int core)
{
   cJSON *insts = cJSON_GetObjectItem(g, "instructions"), *it;
   int max = -1;
   cJSON_ArrayForEach(it, insts) {
      cJSON *code = cJSON_GetObjectItem(it, "opcode");
      if (cJSON_IsNumber(code) && code->valueint > max)
         max = code->valueint;
   }
   if (max < 0 || max > 65535)
      return -1;
   unsigned *flags = malloc((max + 1) * sizeof *flags);
   const char **names = calloc(max + 1, sizeof *names);
   if (!flags || !names)
      return -1;
   for (int k = 0; k <= max; k++)
      flags[k] = UNKNOWN;
   size_t nover = core ? sizeof core_overrides / sizeof *core_overrides
                       : sizeof ocl_overrides / sizeof *ocl_overrides;
   const struct rule *over = core ? core_overrides : ocl_overrides;
   unsigned used = 0;
   cJSON_ArrayForEach(it, insts) {
      cJSON *name = cJSON_GetObjectItem(it, "opname");
      cJSON *code = cJSON_GetObjectItem(it, "opcode");
      cJSON *cls = cJSON_GetObjectItem(it, "class");
      if (!cJSON_IsString(name) || !cJSON_IsNumber(code))
         continue;
      unsigned f;
      if (lookup(over, nover, name->valuestring, &f))
         used++;
      else if (core)
         f = class_flags(cJSON_IsString(cls) ? cls->valuestring : "", name->valuestring);
      else
         f = PURE; /* math, integer, common, geometric, relational, shuffle */
      flags[code->valueint] = f;
      names[code->valueint] = name->valuestring;
   }
   if (used != nover) {
      /* An override naming no instruction is a typo or a renamed opcode. */
      fprintf(stderr, "gen_opinfo: %u of %zu %s overrides name no instruction\n",
              (unsigned)(nover - used), nover, tname);
      return -1;
   }
   fprintf(o, "const uint8_t %s[%d] = {\n", tname, max + 1);
   for (int k = 0; k <= max; k++)
      if (names[k])
         fprintf(o, "   [%d] = 0x%02x, /* %s */\n", k, flags[k], names[k]);
      else
         fprintf(o, "   [%d] = 0x%02x,\n", k, UNKNOWN); /* no such opcode */
   fprintf(o, "};\n");
   free(flags);
   free(names);
   return max + 1;
}

int main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: gen_opinfo CORE_GRAMMAR.json OPENCL_STD_GRAMMAR.json OUT.c\n");
      return 1;
   }
   cJSON *core = load(argv[1]), *ocl = load(argv[2]);
   if (!core || !ocl)
      return 1;
   FILE *o = fopen(argv[3], "w");
   if (!o) {
      perror(argv[3]);
      return 1;
   }
   fprintf(o, "/* Generated by tools/gen_opinfo.c from spirv.core.grammar.json and\n"
              " * extinst.opencl.std.100.grammar.json: the flags of src/ir/opinfo.h per\n"
              " * opcode.  Opcodes missing here are unknown (reads, writes, effects). */\n");
   fprintf(o, "#include <stddef.h>\n#include <stdint.h>\n");
   int nc = table(o, core, "xe_opinfo_core", 1);
   int no = table(o, ocl, "xe_opinfo_ocl", 0);
   if (nc < 0 || no < 0) {
      fclose(o);
      remove(argv[3]);
      return 1;
   }
   fprintf(o, "const size_t xe_opinfo_core_count = %d;\n", nc);
   fprintf(o, "const size_t xe_opinfo_ocl_count = %d;\n", no);
   fclose(o);
   cJSON_Delete(core);
   cJSON_Delete(ocl);
   return 0;
}
