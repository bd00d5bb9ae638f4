/*
 * The cost model's weights (src/analysis/cost_weights.c) are the ones
 * docs/cost-model.md publishes with their measurements, in one table
 * "| weight | dg2 | pvc | bmg | lnl | ptl | source |": a row per weight, a
 * column per device the model knows (xe_device_name's order), each value
 * upright, or in italics (*4*) where it is provisional: pvc's value, not
 * measured on the device, as cost_weights.c says of every weight a device
 * does not override.  A weight changed in one place and not the other
 * fails here: the document is what users and later measurements trust.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdbool.h>
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

/* One row of the document's table: the weight, each device's value and
 * whether it is in italics, and the source cell. */
typedef struct {
   int field;
   double v[XE_DEV_COUNT];
   bool provisional[XE_DEV_COUNT];
   char source[4096];
} row;

/* "| weight | dg2 | pvc | ... | source |", from the devices cost.h lists. */
static void table_header(char *buf, size_t n)
{
   size_t len = (size_t)snprintf(buf, n, "| weight |");
   for (int d = 0; d < XE_DEV_COUNT; d++)
      len += (size_t)snprintf(buf + len, n - len, " %s |", xe_device_name((enum xe_device)d));
   snprintf(buf + len, n - len, " source |\n");
}

/* A value cell, "4" or "*4*", whose text starts at c; returns the '|' that
 * ends it. */
static const char *read_value(const char *c, const char *end, const char *name, int d, double *v,
                              bool *italic)
{
   while (*c == ' ')
      c++;
   *italic = *c == '*';
   c += *italic;
   char *num_end;
   *v = strtod(c, &num_end);
   ck_assert_msg(num_end != c, "weight %s, %s: the cell is not a number", name,
                 xe_device_name((enum xe_device)d));
   c = num_end;
   if (*italic) {
      ck_assert_msg(*c == '*', "weight %s, %s: an italic value lacks its closing '*'", name,
                    xe_device_name((enum xe_device)d));
      c++;
   }
   while (*c == ' ')
      c++;
   ck_assert_msg(*c == '|' && c < end, "weight %s, %s: more than a number in the cell", name,
                 xe_device_name((enum xe_device)d));
   return c;
}

static unsigned read_table(const char *doc, row *rows, unsigned max)
{
   char header[256];
   table_header(header, sizeof header);
   const char *at = strstr(doc, header);
   ck_assert_msg(at, "docs/cost-model.md has no table \"%.*s\"", (int)strlen(header) - 1, header);
   at = strchr(at, '\n') + 1; /* past the header row */
   at = strchr(at, '\n') + 1; /* |---|---:| */
   unsigned n = 0;
   while (*at == '|') {
      const char *end = strchr(at, '\n');
      ck_assert(end);
      char name[64];
      int used = 0;
      ck_assert_int_eq(sscanf(at, "| %63[a-z0-9_] |%n", name, &used), 1);
      ck_assert_msg(n < max, "docs/cost-model.md's table has more rows than cost.h has weights");
      row *r = &rows[n++];
      r->field = field_of(name);
      ck_assert_msg(r->field >= 0, "docs/cost-model.md names a weight '%s' cost.h lacks", name);
      const char *c = at + used;
      for (int d = 0; d < XE_DEV_COUNT; d++)
         c = read_value(c, end, name, d, &r->v[d], &r->provisional[d]) + 1;
      size_t len = (size_t)(end - c);
      ck_assert_msg(len < sizeof r->source, "weight %s: source cell too long", name);
      memcpy(r->source, c, len);
      r->source[len] = '\0';
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

/* Every weight has one row, and every device's value in it is the
 * compiled one. */
START_TEST(every_device_as_published)
{
   char *doc = doc_text();
   static row rows[NFIELDS + 1];
   unsigned n = read_table(doc, rows, NFIELDS + 1);
   bool seen[NFIELDS] = { false };
   for (unsigned k = 0; k < n; k++) {
      const char *name = FIELDS[rows[k].field].name;
      ck_assert_msg(!seen[rows[k].field], "docs/cost-model.md lists weight %s twice", name);
      seen[rows[k].field] = true;
      for (int d = 0; d < XE_DEV_COUNT; d++)
         ck_assert_msg(weight((enum xe_device)d, rows[k].field) == rows[k].v[d],
                       "%s %s: cost_weights.c %g, docs/cost-model.md %g",
                       xe_device_name((enum xe_device)d), name,
                       weight((enum xe_device)d, rows[k].field), rows[k].v[d]);
   }
   for (unsigned f = 0; f < NFIELDS; f++)
      ck_assert_msg(seen[f], "docs/cost-model.md's table lacks weight %s", FIELDS[f].name);
   free(doc);
}
END_TEST

/* An italic (provisional) value is pvc's in cost_weights.c, on a device
 * that takes weights from pvc: not pvc itself, nor dg2, whose weights are
 * all its own.  An upright value of such a device has its measurement or
 * assumption in the row's source cell, which names the device. */
START_TEST(provisional_are_pvcs)
{
   char *doc = doc_text();
   static row rows[NFIELDS + 1];
   unsigned n = read_table(doc, rows, NFIELDS + 1);
   for (unsigned k = 0; k < n; k++) {
      const char *name = FIELDS[rows[k].field].name;
      for (int d = 0; d < XE_DEV_COUNT; d++) {
         enum xe_device dev = (enum xe_device)d;
         if (dev == XE_DEV_PVC || dev == XE_DEV_DG2) {
            ck_assert_msg(!rows[k].provisional[d],
                          "%s %s: in italics, but %s has no provisional weights",
                          xe_device_name(dev), name, xe_device_name(dev));
         } else if (rows[k].provisional[d]) {
            ck_assert_msg(weight(dev, rows[k].field) == weight(XE_DEV_PVC, rows[k].field),
                          "%s %s is provisional (in italics) but %g, not pvc's %g",
                          xe_device_name(dev), name, weight(dev, rows[k].field),
                          weight(XE_DEV_PVC, rows[k].field));
         } else {
            ck_assert_msg(strstr(rows[k].source, xe_device_name(dev)),
                          "%s %s is measured (upright) but its source does not say how on %s",
                          xe_device_name(dev), name, xe_device_name(dev));
         }
      }
   }
   free(doc);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("cost_weights");
   TCase *tc = tcase_create("published");
   tcase_add_test(tc, fields_complete);
   tcase_add_test(tc, every_device_as_published);
   tcase_add_test(tc, provisional_are_pvcs);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
