/*
 * The man page and --help agree: every option either names appears in the
 * other (roff's "\-" read as "-").
 */
#define _GNU_SOURCE
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Collects "--word" and "-X" option names from text, deduplicated. */
static int options_in(const char *text, char names[][32], int max)
{
   int n = 0;
   for (const char *p = text; *p; p++) {
      if (*p != '-' || (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '-')))
         continue;
      const char *s = p;
      while (*p == '-')
         p++;
      size_t dashes = (size_t)(p - s);
      while (isalnum((unsigned char)*p) || (*p == '-' && isalnum((unsigned char)p[1])))
         p++;
      size_t len = (size_t)(p - s);
      p--;
      if (dashes > 2 || len == dashes || len >= 32)
         continue;
      char name[32];
      memcpy(name, s, len);
      name[len] = 0;
      if (dashes == 1 && len > 3)
         continue; /* "-spirv_input" and such in prose */
      bool seen = false;
      for (int k = 0; k < n; k++)
         seen |= !strcmp(names[k], name);
      if (!seen && n < max)
         strcpy(names[n++], name);
   }
   return n;
}

static char *unroff(const char *s)
{
   char *out = malloc(strlen(s) + 1), *o = out;
   for (; *s; s++) {
      if (s[0] == '\\' && s[1] == '-') {
         *o++ = '-';
         s++;
      } else if (s[0] == '\\' && s[1] == 'f' && s[2]) {
         s += 2;
      } else {
         *o++ = *s;
      }
   }
   *o = 0;
   return out;
}

START_TEST(help_matches_man_page)
{
   char *help = NULL;
   ck_assert_int_eq(tu_sh(&help, NULL, "%s --help", tu_xeopt()), 0);
   char *path = tu_src("docs/xeopt.1");
   char *roff = tu_read(path, NULL);
   ck_assert(roff);
   char *man = unroff(roff);
   static char a[128][32], b[128][32];
   int na = options_in(help, a, 128), nb = options_in(man, b, 128);
   ck_assert_int_gt(na, 20);
   for (int k = 0; k < na; k++) {
      bool found = false;
      for (int j = 0; j < nb; j++)
         found |= !strcmp(a[k], b[j]);
      ck_assert_msg(found, "--help names %s, the man page does not", a[k]);
   }
   for (int j = 0; j < nb; j++) {
      bool found = false;
      for (int k = 0; k < na; k++)
         found |= !strcmp(a[k], b[j]);
      ck_assert_msg(found, "the man page names %s, --help does not", b[j]);
   }
   /* And the file name endings --help gives meaning (".spv", ".json",
    * ".html": the man page once left --report's .html page out). */
   int endings = 0;
   for (const char *p = strstr(help, " ."); p; p = strstr(p + 1, " .")) {
      size_t n = 2;
      while (p[n] >= 'a' && p[n] <= 'z')
         n++;
      if (n == 2)
         continue;
      char word[16];
      snprintf(word, sizeof word, "%.*s", (int)(n - 1), p + 1);
      ck_assert_msg(strstr(man, word), "--help names %s files, the man page does not", word);
      endings++;
   }
   ck_assert_int_ge(endings, 3);
   free(help);
   free(path);
   free(roff);
   free(man);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("manpage");
   TCase *tc = tcase_create("manpage");
   tcase_add_test(tc, help_matches_man_page);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
