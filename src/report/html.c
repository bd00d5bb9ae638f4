#define _GNU_SOURCE
/*
 * The report's text builder (report_page.h): a growing string, HTML
 * escaping, anchors, and the box one remark is shown in.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "report_page.h"

void rep_sb_put(sb *b, const char *s, size_t n)
{
   if (b->n + n + 1 > b->cap) {
      b->cap = (b->n + n + 1) * 2;
      b->s = realloc(b->s, b->cap);
      if (!b->s)
         xe_out_of_memory();
   }
   memcpy(b->s + b->n, s, n);
   b->n += n;
   b->s[b->n] = 0;
}

void rep_sb_str(sb *b, const char *s)
{
   rep_sb_put(b, s, strlen(s));
}

void rep_sb_fmt(sb *b, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *t = NULL;
   int n = vasprintf(&t, fmt, ap);
   va_end(ap);
   if (n < 0)
      xe_out_of_memory();
   rep_sb_put(b, t, (size_t)n);
   free(t);
}

/* HTML-escaped s[0..n). */
static void sb_escn(sb *b, const char *s, size_t n)
{
   for (size_t k = 0; k < n; k++) {
      switch (s[k]) {
      case '&': rep_sb_str(b, "&amp;"); break;
      case '<': rep_sb_str(b, "&lt;"); break;
      case '>': rep_sb_str(b, "&gt;"); break;
      case '"': rep_sb_str(b, "&quot;"); break;
      case '\'': rep_sb_str(b, "&#39;"); break;
      case '\t': rep_sb_str(b, "    "); break;
      case '\r': break;
      default:
         /* Other control characters would make the page invalid. */
         if ((unsigned char)s[k] < 0x20 && s[k] != '\n')
            rep_sb_str(b, "\xEF\xBF\xBD");
         else
            rep_sb_put(b, s + k, 1);
      }
   }
}

void rep_sb_esc(sb *b, const char *s)
{
   if (s)
      sb_escn(b, s, strlen(s));
}

/* An id for HTML attributes: letters, digits, '-' and '_' only. */
void rep_sb_anchor(sb *b, const char *kernel)
{
   rep_sb_str(b, "k-");
   for (const char *p = kernel; *p; p++)
      if (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
         rep_sb_put(b, p, 1);
      else
         rep_sb_fmt(b, ".%02x", (unsigned char)*p);
}

static const char *kind_word[] = { "applied", "missed", "note" };

void rep_remark_html(sb *b, const xe_remark_entry *x, const char *where)
{
   const char *k = kind_word[x->kind];
   rep_sb_fmt(b, "<div class=\"rm %s\"><span class=\"badge %s\">%s %s</span> <span class=\"pass\">", k, k,
              x->kind == XE_REMARK_APPLIED ? "&#10003;" : x->kind == XE_REMARK_MISSED ? "&#10007;" : "&#8505;", k);
   rep_sb_esc(b, x->pass);
   rep_sb_str(b, "</span>");
   if (where) {
      rep_sb_str(b, " <span class=\"where\">");
      rep_sb_esc(b, where);
      rep_sb_str(b, "</span>");
   }
   rep_sb_str(b, "<div class=\"msg\">");
   rep_sb_esc(b, x->message);
   rep_sb_str(b, "</div></div>");
}
