/*
 * Diagnostics and file input for the command line (output: output.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ir.h"

/* Only the command line sets this; library calls never print. */
static int color_mode; /* 0 auto, 1 always, 2 never */

bool xe_diag_set_color(const char *when)
{
   if (!strcmp(when, "auto"))
      color_mode = 0;
   else if (!strcmp(when, "always"))
      color_mode = 1;
   else if (!strcmp(when, "never"))
      color_mode = 2;
   else
      return false;
   return true;
}

static bool use_color(void)
{
   if (color_mode)
      return color_mode == 1;
   const char *term = getenv("TERM");
   return isatty(2) && !getenv("NO_COLOR") && term && strcmp(term, "dumb");
}

static void level_prefix(const char *level)
{
   const char *code = !strcmp(level, "error") ? "1;31" : !strcmp(level, "warning") ? "1;35" : "1;36";
   if (use_color())
      fprintf(stderr, "xeopt: \033[%sm%s:\033[0m ", code, level);
   else
      fprintf(stderr, "xeopt: %s: ", level);
}

void xe_remark_print(const char *kernel, const char *pass, const char *kind, const char *msg)
{
   level_prefix("remark");
   if (kernel)
      fprintf(stderr, "%s: ", kernel);
   fprintf(stderr, "[%s] %s: %s\n", pass, kind, msg);
}

static void diag(const char *level, const char *file, const char *fmt, va_list ap)
{
   level_prefix(level);
   if (file)
      fprintf(stderr, "%s: ", strcmp(file, "-") ? file : "<stdin>");
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
}

void xe_error(const char *file, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag("error", file, fmt, ap);
   va_end(ap);
}

void xe_warning(const char *file, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag("warning", file, fmt, ap);
   va_end(ap);
}

void xe_note(const char *file, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag("note", file, fmt, ap);
   va_end(ap);
}

static char *errmsg(const char *what)
{
   char *s;
   if (asprintf(&s, "%s: %s", what, strerror(errno)) < 0)
      xe_out_of_memory();
   return s;
}

void *xe_read_file(const char *path, size_t *n, char **err)
{
   int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
   if (fd < 0) {
      *err = errmsg("cannot open");
      return NULL;
   }
   struct stat st;
   if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      *err = strdup("is a directory, not a SPIR-V file");
      close(fd);
      return NULL;
   }
   size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
   size_t len = 0;
   char *buf = malloc(cap);
   for (;;) {
      if (len == cap) {
         cap *= 2;
         buf = realloc(buf, cap);
         if (!buf)
            xe_out_of_memory();
      }
      ssize_t r = read(fd, buf + len, cap - len);
      if (r < 0 && errno == EINTR)
         continue;
      if (r < 0) {
         *err = errmsg("cannot read");
         free(buf);
         if (fd)
            close(fd);
         return NULL;
      }
      if (r == 0)
         break;
      len += (size_t)r;
   }
   if (fd)
      close(fd);
   *n = len;
   return buf;
}
