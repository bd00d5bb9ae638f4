/*
 * The cost model's weights (src/analysis/cost_weights.c) are the ones
 * docs/cost-model.md publishes with their measurements:
 *  - the table "weight | dg2 | pvc | source" gives every weight of dg2 and
 *    pvc;
 *  - the table "weight | bmg | lnl | ptl | pvc (22.43) | measurement" gives
 *    the weights measured for the IGC 2.x devices; every other weight of
 *    bmg, lnl and ptl is provisional, pvc's value, as cost_weights.c and
 *    the document say.
 * A weight changed in one place and not the other fails here: the
 * document is what users and later measurements trust.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "testutil.h"

#define W(f) { #f, offsetof(xe_cost_weights, f) }
static const struct {
   const char *name;
   size_t off;
} FIELDS[] = {
   W(alu), W(alu64), W(fp64), W(mul64), W(math), W(branch), W(builtin), W(send),
   W(msg_scattered), W(msg_block), W(msg_private), W(msg_slm), W(msg_atomic), W(priv_addr),
   W(generic_check), W(priv_byte), W(reg_indirect), W(reg_limit), W(reg_total), W(lane0_base),
   W(lane0_shared), W(lane0_lane), W(igc_block), W(broadcast), W(reduce), W(version_test), W(version_access),
   W(version_shared), W(version_utest), W(version_uaccess), W(version_uguard), W(simd_halving),
   W(barrier),
};
#undef W
#define NFIELDS (sizeof FIELDS / sizeof FIELDS[0])

static double weight(enum xe_device d, unsigned f)
{
   return *(const double *)((const char *)xe_cost_weights_of(d) + FIELDS[f].off);
}

static int field_of(const char *name)
{
   for (unsigned f = 0; f < NFIELDS; f++)
      if (!strcmp(FIELDS[f].name, name))
         return (int)f;
   return -1;
}

/* The document's table whose header row starts with header: per row, the
 * weight's name and the leading numbers of the next ncols cells. */
typedef struct {
   int field;
   double v[4];
} row;

static unsigned read_table(const char *doc, const char *header, unsigned ncols, row *rows)
{
   const char *at = strstr(doc, header);
   ck_assert_msg(at, "docs/cost-model.md has no table \"%s\"", header);
   at = strchr(at, '\n') + 1;   /* the header row */
   at = strchr(at, '\n') + 1;   /* |---|---:| */
   unsigned n = 0;
   while (*at == '|') {
      const char *end = strchr(at, '\n');
      char name[64];
      int used = 0;
      ck_assert_int_eq(sscanf(at, "| %63[a-z0-9_] |%n", name, &used), 1);
      row *r = &rows[n++];
      r->field = field_of(name);
      ck_assert_msg(r->field >= 0, "docs/cost-model.md names a weight '%s' cost.h lacks", name);
      const char *c = at + used;
      for (unsigned k = 0; k < ncols; k++) {
         char *num_end;
         r->v[k] = strtod(c, &num_end);
         ck_assert_msg(num_end != c, "weight %s: column %u is not a number", name, k + 1);
         c = strchr(num_end, '|');
         ck_assert(c && c < end);
         c++;
      }
      at = end + 1;
   }
   return n;
}

static char *doc_text(void)
{
   char *path, *text = NULL;
   if (asprintf(&path, "%s/docs/cost-model.md", XEOPT_SOURCE_DIR) < 0)
      abort();
   FILE *fp = fopen(path, "r");
   ck_assert_msg(fp, "cannot open %s", path);
   size_t len = 0;
   ck_assert(getdelim(&text, &len, 0, fp) > 0);
   fclose(fp);
   free(path);
   return text;
}

/* Every field is a double and listed above (a new weight must be
 * published, and tested, too). */
START_TEST(fields_complete)
{
   ck_assert_uint_eq(NFIELDS * sizeof(double), sizeof(xe_cost_weights));
}
END_TEST

START_TEST(dg2_pvc_as_published)
{
   char *doc = doc_text();
   row rows[NFIELDS + 1];
   unsigned n = read_table(doc, "| weight | dg2 | pvc | source |", 2, rows);
   ck_assert_uint_eq(n, NFIELDS);
   for (unsigned k = 0; k < n; k++) {
      const char *name = FIELDS[rows[k].field].name;
      ck_assert_msg(weight(XE_DEV_DG2, rows[k].field) == rows[k].v[0],
                    "dg2 %s: cost.c %g, docs/cost-model.md %g", name,
                    weight(XE_DEV_DG2, rows[k].field), rows[k].v[0]);
      ck_assert_msg(weight(XE_DEV_PVC, rows[k].field) == rows[k].v[1],
                    "pvc %s: cost.c %g, docs/cost-model.md %g", name,
                    weight(XE_DEV_PVC, rows[k].field), rows[k].v[1]);
   }
   free(doc);
}
END_TEST

START_TEST(xe2_xe3_measured_or_pvcs)
{
   char *doc = doc_text();
   row rows[NFIELDS + 1];
   unsigned n = read_table(doc, "| weight | bmg | lnl | ptl | pvc (22.43) |", 4, rows);
   static const enum xe_device devs[] = { XE_DEV_BMG, XE_DEV_LNL, XE_DEV_PTL };
   bool measured[NFIELDS] = { false };
   for (unsigned k = 0; k < n; k++) {
      measured[rows[k].field] = true;
      for (unsigned d = 0; d < 3; d++)
         ck_assert_msg(weight(devs[d], rows[k].field) == rows[k].v[d],
                       "%s %s: cost.c %g, docs/cost-model.md %g", xe_device_name(devs[d]),
                       FIELDS[rows[k].field].name, weight(devs[d], rows[k].field), rows[k].v[d]);
      ck_assert_msg(weight(XE_DEV_PVC, rows[k].field) == rows[k].v[3], "pvc %s",
                    FIELDS[rows[k].field].name);
   }
   for (unsigned f = 0; f < NFIELDS; f++) {
      if (measured[f])
         continue;
      for (unsigned d = 0; d < 3; d++)
         ck_assert_msg(weight(devs[d], f) == weight(XE_DEV_PVC, f),
                       "%s %s is provisional (not in the document's table) but %g, not pvc's %g",
                       xe_device_name(devs[d]), FIELDS[f].name, weight(devs[d], f),
                       weight(XE_DEV_PVC, f));
   }
   free(doc);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("cost_weights");
   TCase *tc = tcase_create("published");
   tcase_add_test(tc, fields_complete);
   tcase_add_test(tc, dg2_pvc_as_published);
   tcase_add_test(tc, xe2_xe3_measured_or_pvcs);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
