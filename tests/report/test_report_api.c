/*
 * xeopt_result_report_html through libxeopt.so alone (so it also proves
 * the symbol is exported): the page of testdata/spv/guarded_copy.spv names
 * the kernel, has each remark, escaped, and no script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xeopt/xeopt.h>

static int failed;

static void expect(int ok, const char *what)
{
   if (!ok) {
      fprintf(stderr, "FAIL: %s\n", what);
      failed = 1;
   }
}

/* s with & < > " ' escaped as the page writes them. */
static char *escaped(const char *s)
{
   char *out = malloc(strlen(s) * 6 + 1), *o = out;
   for (; *s; s++) {
      const char *r = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                    : *s == '"' ? "&quot;" : *s == '\'' ? "&#39;" : NULL;
      if (r)
         o = stpcpy(o, r);
      else
         *o++ = *s;
   }
   *o = 0;
   return out;
}

int main(void)
{
   const char *path = XEOPT_SOURCE_DIR "/testdata/spv/guarded_copy.spv";
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      return 1;
   }
   static unsigned char buf[1 << 20];
   size_t n = fread(buf, 1, sizeof(buf), f);
   fclose(f);
   xeopt_options *o = xeopt_options_create();
   xeopt_options_set(o, "--assume-padded", NULL);
   xeopt_result *r = xeopt_optimize(o, buf, n);
   expect(xeopt_result_status(r) == XEOPT_OK, "optimize");
   char *page = xeopt_result_report_html(r, buf, n, "guarded_copy.spv <&>");
   expect(page != NULL, "a page");
   if (page) {
      expect(!strncmp(page, "<!DOCTYPE html>", 15), "starts with the doctype");
      expect(strstr(page, "guarded_copy") != NULL, "names the kernel");
      expect(strstr(page, "guarded_copy.spv &lt;&amp;&gt;") != NULL, "escapes the title");
      expect(strstr(page, "<script") == NULL, "no script");
      expect(strstr(page, "Pad buffer") != NULL, "the manifest's requirement");
      /* every remark's message */
      const char *js = xeopt_result_remarks_json(r);
      const char *m = js;
      int count = 0;
      while ((m = strstr(m, "\"message\":"))) {
         m += 10;
         while (*m == ' ' || *m == '\t' || *m == '\n')
            m++;
         if (*m++ != '"')
            continue;
         const char *e = m;
         while (*e && !(*e == '"' && e[-1] != '\\'))
            e++;
         char *msg = strndup(m, (size_t)(e - m));
         if (!strchr(msg, '\\')) {   /* JSON escapes: skip such messages */
            char *esc = escaped(msg);
            expect(strstr(page, esc) != NULL, msg);
            free(esc);
            count++;
         }
         free(msg);
         m = e;
      }
      expect(count > 0, "remarks checked");
   }
   expect(xeopt_result_report_html(r, NULL, 0, NULL) == NULL, "NULL input");
   free(page);
   xeopt_result_destroy(r);
   xeopt_options_destroy(o);
   if (!failed)
      printf("ok\n");
   return failed;
}
