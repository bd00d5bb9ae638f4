/*
 * File input and output for the command line, with atomic replacement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
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

static int write_all(int fd, const void *data, size_t n)
{
   const char *p = data;
   while (n) {
      ssize_t w = write(fd, p, n);
      if (w < 0 && errno == EINTR)
         continue;
      if (w <= 0)
         return -1;
      p += w;
      n -= (size_t)w;
   }
   return 0;
}

int xe_write_file_atomic(const char *path, const void *data, size_t n, char **err)
{
   if (!strcmp(path, "-")) {
      if (write_all(1, data, n)) {
         *err = errmsg("cannot write standard output");
         return 1;
      }
      return 0;
   }
   /* A path that is not a regular file (/dev/null, a FIFO, a terminal)
    * is written in place: renaming over it would replace a device with a
    * file (as root, /dev/null itself), and there is no partial file to
    * avoid. */
   struct stat st;
   if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
      int fd = open(path, O_WRONLY);
      bool bad = fd < 0 || write_all(fd, data, n);
      if ((fd >= 0 && close(fd)) || bad) {
         *err = errmsg("cannot write");
         return 1;
      }
      return 0;
   }
   char *dircopy = strdup(path);
   char *tmp;
   if (asprintf(&tmp, "%s/.xeopt-XXXXXX", dirname(dircopy)) < 0)
      xe_out_of_memory();
   free(dircopy);
   int fd = mkstemp(tmp);
   if (fd < 0) {
      *err = errmsg("cannot create a temporary file beside the output");
      free(tmp);
      return 1;
   }
   /* mkstemp makes the file 0600; give it the usual umask-derived mode. */
   mode_t mask = umask(0);
   umask(mask);
   fchmod(fd, 0666 & ~mask);
   if (write_all(fd, data, n) || fsync(fd) || close(fd)) {
      *err = errmsg("cannot write");
      close(fd);
      unlink(tmp);
      free(tmp);
      return 1;
   }
   if (rename(tmp, path)) {
      *err = errmsg("cannot replace the output");
      unlink(tmp);
      free(tmp);
      return 1;
   }
   free(tmp);
   return 0;
}
