/*
 * interface-vars on ids IGC 22.43 refuses in an entry-point interface.
 *
 * Intel's front end (ocloc -spv_only) writes SPIR-V 1.4 modules of 100,000+
 * ids whose UniformConstant tables are missing from the OpEntryPoint
 * interfaces; listing them as SPIR-V 1.4 requires, with their own ids above
 * 65536, makes IGC 22.43 fail ("IGC SPIRV Consumer does not support the
 * following opcode: N").  The pass gives such a variable a low id.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* A kernel reading a constant table whose id is 70000 (spirv-as keeps the
 * numeric ids), not listed in the interface. */
static const char *high_id_text =
   "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
   "OpMemoryModel Physical64 OpenCL\n"
   "OpEntryPoint Kernel %1 \"k\"\n"
   "OpDecorate %70000 Constant\n"
   "%uint = OpTypeInt 32 0\n%void = OpTypeVoid\n"
   "%c0 = OpConstant %uint 0\n%c1 = OpConstant %uint 1\n%c2 = OpConstant %uint 2\n"
   "%c3 = OpConstant %uint 3\n%c4 = OpConstant %uint 4\n"
   "%arr = OpTypeArray %uint %c4\n%parr = OpTypePointer UniformConstant %arr\n"
   "%puc = OpTypePointer UniformConstant %uint\n%pg = OpTypePointer CrossWorkgroup %uint\n"
   "%init = OpConstantComposite %arr %c3 %c2 %c1 %c0\n"
   "%70000 = OpVariable %parr UniformConstant %init\n"
   "%fnty = OpTypeFunction %void %pg\n"
   "%1 = OpFunction %void None %fnty\n%out = OpFunctionParameter %pg\n%l = OpLabel\n"
   "%p = OpAccessChain %puc %70000 %c1\n%v = OpLoad %uint %p\nOpStore %out %v\n"
   "OpReturn\nOpFunctionEnd\n";

/* Assembles text keeping its numeric ids, runs interface-vars on it
 * (asserting the remark starts with `remark`), and returns the output's
 * path and its one interface variable's id in *var. */
static char *renumber(const char *text, const char *name, const char *remark, unsigned *var)
{
   char out_name[64];
   snprintf(out_name, sizeof out_name, "%s-out.spv", name);
   char *in = tu_assemble(text, name, "--preserve-numeric-ids"), *out = tu_tmp(out_name);
   char *err = NULL, *dis = NULL;
   ck_assert_int_eq(tu_sh(NULL, &err, "%s --passes=interface-vars --remarks '%s' -o '%s'", tu_xeopt(),
                          in, out), 0);
   ck_assert_msg(strstr(err, remark), "%s", err);
   tu_sh(&dis, NULL, "spirv-dis --raw-id '%s' | grep OpEntryPoint", out);
   unsigned fn = 0;
   ck_assert_msg(dis && sscanf(dis, " OpEntryPoint Kernel %%%u \"k\" %%%u", &fn, var) == 2, "%s", dis);
   tu_spirv_val(out);
   free(dis);
   free(err);
   free(in);
   return out;
}

/* Renaming changes no result: the kernel still stores table[1]. */
static void stores_table_1(const char *out)
{
   char *run = NULL;
   ck_assert_int_eq(tu_sh(&run, NULL, "%s run '%s' --kernel k --global 1 --local 1 "
                                      "--arg 0=buf:uint:1:zero", tu_xeopt(), out), 0);
   ck_assert_msg(strstr(run, "arg 0 (uint[1]): 2\n"), "%s", run);
   free(run);
}

/* high_id_text with enough constants that the module's size, not only its
 * id bound, reaches id 70000: a module far sparser than that has its ids
 * renumbered densely as it is read (src/ir/dense_ids.c), and interface-vars
 * then never sees the high id. */
static char *padded_high_id_text(void)
{
   size_t cap = strlen(high_id_text) + 6000 * 48, len = 0;
   char *text = malloc(cap);
   const char *types = strstr(high_id_text, "%c0 = ");
   len += (size_t)snprintf(text + len, cap - len, "%.*s", (int)(types - high_id_text), high_id_text);
   for (unsigned i = 0; i < 6000; i++)
      len += (size_t)snprintf(text + len, cap - len, "%%pad%u = OpConstant %%uint %u\n", i, i + 100);
   snprintf(text + len, cap - len, "%s", types);
   return text;
}

START_TEST(high_interface_id_renumbered)
{
   unsigned var = 0;
   char *text = padded_high_id_text();
   char *out = renumber(text, "high", "xeopt: remark: k: [interface-vars] note: renumbered 1 of "
                        "them to ids of at most 65536: IGC 22.43 fails on larger ids in an entry-point "
                        "interface", &var);
   ck_assert_uint_le(var, 65536);
   ck_assert_uint_ne(var, 0);
   tu_ocloc(out);
   stores_table_1(out);
   free(out);
   free(text);
}
END_TEST

/* rename_low's last resort: no id of at most 65536 is free, and the only
 * result inside a function among them is id 1 (every id 2 .. 65536 is a
 * constant).  The variable (id 70000) swaps ids with that instruction and
 * gets id 1: the search for a function-local id runs down to id 1
 * inclusive. */
START_TEST(high_interface_id_swaps_with_id_1)
{
   size_t cap = 4u << 20, len = 0;
   char *text = malloc(cap);
   len += (size_t)snprintf(text + len, cap - len,
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %%70001 \"k\"\n"
      "OpDecorate %%70000 Constant\n"
      "%%2 = OpTypeInt 32 0\n");
   for (unsigned id = 3; id <= 65536; id++)
      len += (size_t)snprintf(text + len, cap - len, "%%%u = OpConstant %%2 %u\n", id, id - 3);
   /* %3 .. %7 hold 0 .. 4. */
   len += (size_t)snprintf(text + len, cap - len,
      "%%70003 = OpTypeVoid\n%%70004 = OpTypeArray %%2 %%7\n"
      "%%70005 = OpTypePointer UniformConstant %%70004\n"
      "%%70006 = OpTypePointer UniformConstant %%2\n%%70007 = OpTypePointer CrossWorkgroup %%2\n"
      "%%70008 = OpConstantComposite %%70004 %%6 %%5 %%4 %%3\n"
      "%%70000 = OpVariable %%70005 UniformConstant %%70008\n"
      "%%70009 = OpTypeFunction %%70003 %%70007\n"
      "%%70001 = OpFunction %%70003 None %%70009\n%%70010 = OpFunctionParameter %%70007\n"
      "%%70002 = OpLabel\n"
      "%%1 = OpAccessChain %%70006 %%70000 %%4\n%%70011 = OpLoad %%2 %%1\nOpStore %%70010 %%70011\n"
      "OpReturn\nOpFunctionEnd\n");
   ck_assert_uint_lt(len, cap);
   unsigned var = 0;
   char *out = renumber(text, "full", "xeopt: remark: k: [interface-vars] note: renumbered 1 of them", &var);
   ck_assert_uint_eq(var, 1);
   stores_table_1(out);
   free(out);
   free(text);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("interface_vars");
   TCase *tc = tcase_create("interface_vars");
   tcase_add_test(tc, high_interface_id_renumbered);
   tcase_add_test(tc, high_interface_id_swaps_with_id_1);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
