/*
 * The manifest reader and writer (src/manifest/manifest.h): every manifest
 * in the goldens survives a read and a write unchanged (so the reader
 * keeps every field the passes write), the typed accessors hold the
 * values, and broken manifests are errors that say where: a wrong schema
 * version, a missing section, malformed entries.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "manifest.h"
#include "testutil.h"

/* Reads text, which must fail as `status`, with a message containing each
 * of the NULL-terminated fragments. */
static void expect_error(const char *text, enum xe_mf_status status, ...)
{
   xe_mf m;
   char err[256];
   memset(err, 'x', sizeof err);
   enum xe_mf_status s = xe_mf_read_text(text, strlen(text), &m, err, sizeof err);
   ck_assert_msg(s == status, "%s: status %d, want %d (%s)", text, s, status, err);
   ck_assert_uint_eq(m.nkernels, 0);
   ck_assert_ptr_null(m.kernels);
   ck_assert_ptr_null(m.module);
   va_list ap;
   va_start(ap, status);
   for (const char *frag; (frag = va_arg(ap, const char *));)
      ck_assert_msg(strstr(err, frag), "%s: message '%s' lacks '%s'", text, err, frag);
   va_end(ap);
   /* No message buffer: the status alone. */
   ck_assert_int_eq(xe_mf_read_text(text, strlen(text), &m, NULL, 0), status);
}

static void roundtrip(const cJSON *j, const char *what)
{
   xe_mf m;
   char err[256];
   ck_assert_msg(xe_mf_read(j, &m, err, sizeof err) == XE_MF_OK, "%s: %s", what, err);
   cJSON *w = xe_mf_write(&m);
   ck_assert_ptr_nonnull(w);
   if (!cJSON_Compare(j, w, true)) {
      char *a = cJSON_Print(j), *b = cJSON_Print(w);
      ck_abort_msg("%s: read and written back differs:\n%s\n---\n%s", what, a, b);
   }
   cJSON_Delete(w);
   xe_mf_free(&m);
   ck_assert_uint_eq(m.nkernels, 0);
}

/* Every manifest xeopt wrote for a golden: padding (guards, buffers),
 * spec_constants (specialized or not), block-io's launch and alignment. */
START_TEST(roundtrip_goldens)
{
   char *files[256];
   int n = tu_list("testdata/golden", ".json", files, 256), seen = 0;
   bool section[4] = { 0 };
   for (int k = 0; k < n; k++) {
      size_t len;
      char *text = tu_read(files[k], &len);
      cJSON *j = cJSON_ParseWithLength(text, len);
      if (j && cJSON_GetObjectItem(j, "xeopt_manifest")) {
         roundtrip(j, files[k]);
         seen++;
         static const char *names[4] = { "\"padding\"", "\"spec_constants\"", "\"launch\"",
                                          "\"alignment\"" };
         for (int s = 0; s < 4; s++)
            section[s] |= strstr(text, names[s]) != NULL;
      }
      cJSON_Delete(j);
      free(text);
      free(files[k]);
   }
   ck_assert_int_ge(seen, 10);
   for (int s = 0; s < 4; s++)
      ck_assert_msg(section[s], "no golden manifest has section %d", s);
}
END_TEST

/* A manifest built with the writer the passes use (xe_mf_add): a max_of
 * formula, every launch and alignment requirement, and a section the
 * reader does not know; then the typed view of it. */
static cJSON *built(void)
{
   cJSON *root = NULL;
   cJSON *e = cJSON_Parse(
      "{\"kind\":\"buffer\",\"arg\":1,\"name\":\"in\",\"element_size\":8,"
      " \"min_elements\":{\"text\":\"max(...)\",\"max_of\":["
      "   {\"terms\":[{\"coeff\":1,\"launch\":\"global_size\",\"dim\":0},{\"coeff\":-1}]},"
      "   {\"text\":\"w*global_size[1]\",\"terms\":[{\"coeff\":2,\"arg\":2,\"launch\":\"local_size\",\"dim\":1}]}]},"
      " \"zero_fill\":true,\"distinct_allocation\":false,"
      " \"requires\":{\"nonnegative_args\":[2],\"max_elements\":2147483648}}");
   xe_mf_add(&root, NULL, "k", "padding", e);
   xe_mf_add(&root, NULL, "k", "padding",
             cJSON_Parse("{\"kind\":\"guard\",\"condition\":\"x < n\",\"proof\":\"same_index\","
                         "\"narrowed\":\"an atomic\"}"));
   xe_mf_add(&root, NULL, "k", "spec_constants",
             cJSON_Parse("{\"argument\":\"m\",\"index\":3,\"type\":\"i64\",\"size\":8,"
                         "\"flag_spec_id\":2,\"value_spec_id\":3,\"flag_default\":true,"
                         "\"value_default\":\"-9223372036854775808\",\"loops\":2,"
                         "\"guarantee\":\"g\"}"));
   xe_mf_add(&root, NULL, "k", "launch",
             cJSON_Parse("{\"pass\":\"block-io\",\"requirement\":\"subgroup_size\",\"value\":16,"
                         "\"origin\":\"--subgroup-size\"}"));
   xe_mf_add(&root, NULL, "k", "launch",
             cJSON_Parse("{\"pass\":\"block-io\",\"requirement\":\"local_size\","
                         "\"value\":[32,2,1],\"origin\":\"--local-size\"}"));
   xe_mf_add(&root, NULL, "K", "alignment",
             cJSON_Parse("{\"pass\":\"block-io\",\"requirement\":\"global_offset\","
                         "\"dimension\":1,\"multiple_of\":32}"));
   xe_mf_add(&root, NULL, "K", "images", cJSON_Parse("{\"anything\":[1,2]}"));
   return root;
}

/* The typed adders the passes use (xe_mf_add_padding, ...): the records
 * read back from built(), added again, give the same entries in the same
 * sections (the requirement's kind picks "launch" or "alignment"). */
START_TEST(typed_adders)
{
   cJSON *want = built();
   cJSON *K = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(want, "kernels"), "K");
   cJSON_DeleteItemFromObjectCaseSensitive(K, "images");
   xe_mf m;
   char err[256];
   ck_assert_int_eq(xe_mf_read(want, &m, err, sizeof err), XE_MF_OK);
   cJSON *root = NULL;
   xe_mf_index *ix = NULL;
   for (unsigned k = 0; k < m.nkernels; k++) {
      const xe_mf_kernel *x = &m.kernels[k];
      for (unsigned e = 0; e < x->npadding; e++)
         xe_mf_add_padding(&root, &ix, x->name, &x->padding[e]);
      for (unsigned e = 0; e < x->nspec_constants; e++)
         xe_mf_add_spec_constant(&root, &ix, x->name, &x->spec_constants[e]);
      for (unsigned e = 0; e < x->nlaunch; e++)
         xe_mf_add_requirement(&root, &ix, x->name, &x->launch[e]);
      for (unsigned e = 0; e < x->nalignment; e++)
         xe_mf_add_requirement(&root, &ix, x->name, &x->alignment[e]);
   }
   char *a = cJSON_PrintUnformatted(want), *b = cJSON_PrintUnformatted(root);
   ck_assert_str_eq(b, a);
   free(a);
   free(b);
   xe_mf_free(&m);
   xe_mf_index_free(ix);
   cJSON_Delete(root);
   cJSON_Delete(want);
}
END_TEST

/* The kernel index (xe_mf_index) changes no document: the same adds, in
 * an order that revisits earlier kernels, with kernels added behind the
 * index's back and onto a second document through the same index, print
 * the same as without it. */
static void index_adds(cJSON **root, xe_mf_index **ix)
{
   char name[32];
   for (int pass = 0; pass < 3; pass++) {
      for (int k = 0; k < 300; k++) {
         int kk = pass == 1 ? 299 - k : (k * 7) % 300;
         snprintf(name, sizeof(name), "kernel_%d", kk);
         xe_mf_add(root, ix, name, pass == 2 ? "launch" : "padding", cJSON_CreateNumber(kk));
         if (k % 50 == 0) {
            /* An addition without the index: it must notice and rebuild. */
            snprintf(name, sizeof(name), "extra_%d_%d", pass, k);
            xe_mf_add(root, NULL, name, "padding", cJSON_CreateNumber(-1));
            xe_mf_add(root, ix, name, "launch", cJSON_CreateNumber(-2));
         }
      }
   }
   ck_assert_ptr_eq(xe_mf_kernel_json(root, ix, "kernel_17"),
                    cJSON_GetObjectItemCaseSensitive(
                       cJSON_GetObjectItemCaseSensitive(*root, "kernels"), "kernel_17"));
}

START_TEST(kernel_index)
{
   cJSON *plain = NULL, *indexed = NULL, *other = NULL;
   xe_mf_index *ix = NULL;
   index_adds(&plain, NULL);
   index_adds(&indexed, &ix);
   ck_assert_ptr_nonnull(ix);
   char *a = cJSON_PrintUnformatted(plain), *b = cJSON_PrintUnformatted(indexed);
   ck_assert_str_eq(a, b);
   /* Another document through the same index: rebuilt, not confused. */
   xe_mf_add(&other, &ix, "kernel_3", "padding", cJSON_CreateNumber(1));
   xe_mf_add(&other, &ix, "kernel_3", "padding", cJSON_CreateNumber(2));
   cJSON *ks = cJSON_GetObjectItemCaseSensitive(other, "kernels");
   ck_assert_int_eq(cJSON_GetArraySize(ks), 1);
   ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                       cJSON_GetObjectItemCaseSensitive(ks, "kernel_3"), "padding")), 2);
   cJSON_free(a);
   cJSON_free(b);
   cJSON_Delete(plain);
   cJSON_Delete(indexed);
   cJSON_Delete(other);
   xe_mf_index_free(ix);
}
END_TEST

START_TEST(roundtrip_built)
{
   cJSON *root = built();
   ck_assert_int_eq(cJSON_GetObjectItem(root, "xeopt_manifest")->valueint, XE_MANIFEST_VERSION);
   /* Kernel names are case sensitive: "k" and "K" are two kernels. */
   ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "kernels")), 2);
   roundtrip(root, "built");
   cJSON_AddStringToObject(root, "module", "out.spv");
   roundtrip(root, "built with module");

   xe_mf m;
   char err[256];
   ck_assert_int_eq(xe_mf_read(root, &m, err, sizeof err), XE_MF_OK);
   ck_assert_str_eq(m.module, "out.spv");
   ck_assert_ptr_null(xe_mf_find(&m, "nope"));
   const xe_mf_kernel *k = xe_mf_find(&m, "k"), *K = xe_mf_find(&m, "K");
   ck_assert_ptr_nonnull(k);
   ck_assert_ptr_nonnull(K);
   ck_assert_uint_eq(k->npadding, 2);
   const xe_mf_padding *b = &k->padding[0];
   ck_assert_int_eq(b->kind, XE_MF_BUFFER);
   ck_assert_uint_eq(b->arg, 1);
   ck_assert_uint_eq(b->element_size, 8);
   ck_assert(b->zero_fill && !b->distinct_allocation && b->has_max_elements);
   ck_assert_uint_eq(b->max_elements, 2147483648u);
   ck_assert_uint_eq(b->nnonnegative, 1);
   ck_assert_uint_eq(b->min_elements.nmax, 2);
   ck_assert_int_eq(k->padding[1].kind, XE_MF_GUARD);
   ck_assert_str_eq(k->padding[1].proof, "same_index");
   ck_assert_ptr_null(k->padding[1].file);
   ck_assert_uint_eq(k->nspec_constants, 1);
   ck_assert(k->spec_constants[0].flag_default);
   ck_assert_int_eq(k->spec_constants[0].value_default, INT64_MIN);
   ck_assert_uint_eq(k->nlaunch, 2);
   ck_assert_int_eq(k->launch[0].kind, XE_MF_SUBGROUP_SIZE);
   ck_assert_uint_eq(k->launch[0].value[0], 16);
   ck_assert_int_eq(k->launch[1].kind, XE_MF_LOCAL_SIZE);
   ck_assert_uint_eq(k->launch[1].value[1], 2);
   ck_assert_uint_eq(K->nalignment, 1);
   ck_assert_int_eq(K->alignment[0].kind, XE_MF_GLOBAL_OFFSET);
   ck_assert_uint_eq(K->alignment[0].multiple_of, 32);
   ck_assert_ptr_null(K->alignment[0].origin);
   ck_assert_uint_eq(K->nother, 1);
   ck_assert_str_eq(K->other[0].name, "images");

   /* max(global_size[0] - 1, 2 * arg2 * local_size[1]) */
   xe_mf_launch l = { .global_size = { 100, 1, 1 }, .local_size = { 1, 4, 1 } };
   int64_t args[3] = { 0, 0, 10 }, v = 0;
   ck_assert(xe_mf_formula_eval(&b->min_elements, &l, args, 3, &v));
   ck_assert_int_eq(v, 99);
   args[2] = 20;
   ck_assert(xe_mf_formula_eval(&b->min_elements, &l, args, 3, &v));
   ck_assert_int_eq(v, 160);
   /* The formula names argument 2: two arguments are not enough. */
   ck_assert(!xe_mf_formula_eval(&b->min_elements, &l, args, 2, &v));
   xe_mf_free(&m);
   cJSON_Delete(root);
}
END_TEST

START_TEST(wrong_version)
{
   expect_error("{\"xeopt_manifest\":2,\"kernels\":{}}", XE_MF_INVALID, "version 2",
                "reads version 1", NULL);
   expect_error("{\"xeopt_manifest\":\"1\",\"kernels\":{}}", XE_MF_INVALID, "xeopt_manifest",
                "not a number", NULL);
   expect_error("{\"kernels\":{}}", XE_MF_INVALID, "not an xeopt manifest", NULL);
   expect_error("[1]", XE_MF_INVALID, "not a JSON object", NULL);
   expect_error("{", XE_MF_INVALID, "not JSON", NULL);
}
END_TEST

START_TEST(missing_section)
{
   expect_error("{\"xeopt_manifest\":1}", XE_MF_INVALID, "\"kernels\": missing", NULL);
   expect_error("{\"xeopt_manifest\":1,\"kernels\":[]}", XE_MF_INVALID,
                "\"kernels\": not an object", NULL);
   expect_error("{\"xeopt_manifest\":1,\"kernels\":{\"k\":{\"padding\":{}}}}", XE_MF_INVALID,
                "kernel \"k\": padding: not an array", NULL);
   /* A section a kernel does not have is no error: it asks nothing. */
   xe_mf m;
   const char *ok = "{\"xeopt_manifest\":1,\"kernels\":{\"k\":{}}}";
   ck_assert_int_eq(xe_mf_read_text(ok, strlen(ok), &m, NULL, 0), XE_MF_OK);
   ck_assert_uint_eq(xe_mf_find(&m, "k")->npadding, 0);
   ck_assert_ptr_null(xe_mf_find(&m, "k")->spec_constants);
   xe_mf_free(&m);
}
END_TEST

START_TEST(malformed_entry)
{
#define DOC(sec, entry) "{\"xeopt_manifest\":1,\"kernels\":{\"sum\":{\"" sec "\":[" entry "]}}}"
   static const char guard[] = "{\"kind\":\"guard\",\"condition\":\"x < n\",\"proof\":\"disjoint\"}";
   char doc[1024];
   /* The second entry lacks its formula: the message names the entry. */
   snprintf(doc, sizeof doc,
            DOC("padding", "%s, {\"kind\":\"buffer\",\"arg\":0,\"name\":\"out\","
                           "\"element_size\":4,\"zero_fill\":false,\"distinct_allocation\":true,"
                           "\"requires\":{}}"),
            guard);
   expect_error(doc, XE_MF_INVALID, "kernel \"sum\": padding[1]: \"min_elements\": missing",
                NULL);
   expect_error(DOC("padding", "{\"kind\":\"buffer\",\"arg\":-1}"), XE_MF_INVALID,
                "padding[0]: \"arg\"", "out of range", NULL);
   expect_error(DOC("padding", "{\"kind\":\"hole\"}"), XE_MF_INVALID, "padding[0]: \"kind\"",
                NULL);
   expect_error(DOC("padding", "{\"kind\":\"guard\",\"condition\":\"x < n\",\"proof\":\"trust\"}"),
                XE_MF_INVALID, "\"proof\"", "trust", NULL);
   expect_error(DOC("padding", "{\"kind\":\"buffer\",\"arg\":0,\"name\":\"out\",\"element_size\":4,"
                               "\"min_elements\":{\"terms\":[{\"coeff\":1,\"launch\":\"global_size\"}]}}"),
                XE_MF_INVALID, "\"min_elements\"", "lacks \"dim\"", NULL);
   expect_error(DOC("padding", "{\"kind\":\"buffer\",\"arg\":0,\"name\":\"out\",\"element_size\":4,"
                               "\"min_elements\":{\"terms\":[{\"coeff\":0.5}]}}"),
                XE_MF_INVALID, "\"coeff\"", "not an integer", NULL);
   expect_error(DOC("spec_constants", "{\"argument\":\"n\",\"index\":2,\"size\":3,"
                                      "\"flag_spec_id\":0,\"value_spec_id\":1}"),
                XE_MF_INVALID, "spec_constants[0]: \"size\": 3 is not 1, 2, 4 or 8", NULL);
   expect_error(DOC("spec_constants", "{\"argument\":\"n\",\"index\":2,\"size\":4,"
                                      "\"flag_spec_id\":0,\"value_spec_id\":1,"
                                      "\"value_default\":\"12x\"}"),
                XE_MF_INVALID, "\"value_default\"", NULL);
   expect_error(DOC("launch", "{\"pass\":\"block-io\",\"requirement\":\"global_offset\","
                              "\"dimension\":0,\"multiple_of\":16}"),
                XE_MF_INVALID, "launch[0]: \"requirement\"", "global_offset", NULL);
   expect_error(DOC("alignment", "{\"pass\":\"block-io\",\"requirement\":\"global_offset\","
                                 "\"dimension\":3,\"multiple_of\":16}"),
                XE_MF_INVALID, "alignment[0]: \"dimension\"", NULL);
   expect_error(DOC("launch", "{\"pass\":\"block-io\",\"requirement\":\"local_size\","
                              "\"value\":[32,2]}"),
                XE_MF_INVALID, "launch[0]: \"value\"", NULL);
   expect_error(DOC("launch", "7"), XE_MF_INVALID, "launch[0]: not an object", NULL);
   /* A required true/false member missing is an error naming it; an
    * optional one missing reads as false. */
   expect_error(DOC("padding", "{\"kind\":\"buffer\",\"arg\":0,\"name\":\"out\","
                               "\"element_size\":4,\"distinct_allocation\":true,"
                               "\"min_elements\":{\"terms\":[{\"coeff\":1}]},\"requires\":{}}"),
                XE_MF_INVALID, "padding[0]: \"zero_fill\": missing", NULL);
   static const char no_flag_default[] =
      DOC("spec_constants", "{\"argument\":\"n\",\"index\":2,\"size\":4,"
                            "\"flag_spec_id\":0,\"value_spec_id\":1}");
   xe_mf m;
   char why[256] = "";
   ck_assert_msg(xe_mf_read_text(no_flag_default, strlen(no_flag_default), &m, why, sizeof why) ==
                 XE_MF_OK, "%s", why);
   ck_assert_uint_eq(xe_mf_find(&m, "sum")->nspec_constants, 1);
   ck_assert(!xe_mf_find(&m, "sum")->spec_constants[0].flag_default);
   xe_mf_free(&m);
   /* So does an optional array: a buffer that requires no argument to be
    * non-negative may leave "nonnegative_args" out. */
   static const char no_nonneg[] =
      DOC("padding", "{\"kind\":\"buffer\",\"arg\":0,\"name\":\"out\","
                     "\"element_size\":4,\"zero_fill\":false,\"distinct_allocation\":true,"
                     "\"min_elements\":{\"terms\":[{\"coeff\":1}]},\"requires\":{}}");
   ck_assert_msg(xe_mf_read_text(no_nonneg, strlen(no_nonneg), &m, why, sizeof why) == XE_MF_OK,
                 "%s", why);
   ck_assert_uint_eq(xe_mf_find(&m, "sum")->npadding, 1);
   xe_mf_free(&m);
   expect_error(DOC("padding", "{\"kind\":\"buffer\",\"arg\":0,\"name\":\"out\","
                               "\"element_size\":4,\"zero_fill\":false,"
                               "\"distinct_allocation\":true,\"min_elements\":{},"
                               "\"requires\":{}}"),
                XE_MF_INVALID, "\"terms\": missing", NULL);
#undef DOC
}
END_TEST

int main(void)
{
   Suite *s = suite_create("manifest");
   TCase *tc = tcase_create("reader");
   tcase_add_test(tc, roundtrip_goldens);
   tcase_add_test(tc, roundtrip_built);
   tcase_add_test(tc, typed_adders);
   tcase_add_test(tc, kernel_index);
   tcase_add_test(tc, wrong_version);
   tcase_add_test(tc, missing_section);
   tcase_add_test(tc, malformed_entry);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
