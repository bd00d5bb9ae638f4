/*
 * The outputs of one run (module, manifest, report), written as a set:
 * each is first written in full to a temporary file beside the file it
 * replaces, and the temporaries are renamed only when every output was
 * written.  An output that cannot be written (a missing or read-only
 * directory, a read-only file) is an error before anything is replaced.
 *
 * Where the output is a symbolic link, the file it points to is replaced
 * and the link stays; a file that exists keeps its mode.  Standard output
 * and outputs that are not regular files (/dev/null, a FIFO) cannot be
 * staged: they are opened when staged (so that an unwritable one still
 * stops the set) and written when the set is committed, before the renames.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ir.h"

static char *errmsg(const char *what)
{
   char *s;
   if (asprintf(&s, "%s: %s", what, strerror(errno)) < 0)
      xe_out_of_memory();
   return s;
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

/* The directory part of path ("." when it has none), malloc'd. */
static char *dir_of(const char *path)
{
   const char *slash = strrchr(path, '/');
   if (!slash)
      return strdup(".");
   if (slash == path)
      return strdup("/");
   return strndup(path, (size_t)(slash - path));
}

/* path with every symbolic link in its last component followed (the
 * directories on the way need no resolving: the temporary file goes into
 * the same directory as the file it replaces either way), malloc'd.  A
 * dangling link resolves to the file it would create.  NULL with errno
 * ELOOP after 40 links, as the kernel counts. */
static char *follow_links(const char *path)
{
   char *p = strdup(path);
   for (int hops = 0; hops < 40; hops++) {
      struct stat st;
      if (lstat(p, &st) || !S_ISLNK(st.st_mode))
         return p;
      char target[PATH_MAX];
      ssize_t n = readlink(p, target, sizeof target - 1);
      if (n < 0)
         return p;
      target[n] = 0;
      char *next;
      if (target[0] == '/') {
         next = strdup(target);
      } else {
         char *dir = dir_of(p);
         if (asprintf(&next, "%s/%s", dir, target) < 0)
            xe_out_of_memory();
         free(dir);
      }
      free(p);
      p = next;
   }
   free(p);
   errno = ELOOP;
   return NULL;
}

/* Read-only means no write permission bit at all, or none that lets this
 * process write.  The first matters as root, whom the kernel lets write
 * anything: a file or directory made read-only stays unreplaced for root
 * too. */
static bool read_only(const char *path, const struct stat *st)
{
   return !(st->st_mode & 0222) || faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0;
}

/* Opens an output that is written in place (standard output, a device, a
 * FIFO) at staging time. */
static int stage_in_place(xe_output *o, const char *target, char **err)
{
   if (!strcmp(o->path, "-")) {
      o->fd = 1;
      return 0;
   }
   o->fd = open(target, O_WRONLY);
   if (o->fd < 0) {
      *err = errmsg("cannot open for writing");
      return 1;
   }
   return 0;
}

/* Writes data to a new temporary file in target's directory, with the
 * mode of the file it will replace (st, when it exists) or the usual
 * umask-derived one. */
static int stage_temporary(xe_output *o, const char *target, const struct stat *st, char **err)
{
   char *dir = dir_of(target);
   struct stat ds;
   const char *why = stat(dir, &ds) ? strerror(errno)
                     : !S_ISDIR(ds.st_mode) ? strerror(ENOTDIR)
                     : read_only(dir, &ds) ? strerror(EACCES) : NULL;
   if (why) {
      if (asprintf(err, "cannot create a file in %s: %s", dir, why) < 0)
         xe_out_of_memory();
      free(dir);
      return 1;
   }
   if (asprintf(&o->tmp, "%s/.xeopt-XXXXXX", dir) < 0)
      xe_out_of_memory();
   free(dir);
   int fd = mkstemp(o->tmp);
   if (fd < 0) {
      *err = errmsg("cannot create a temporary file beside the output");
      free(o->tmp);
      o->tmp = NULL;
      return 1;
   }
   mode_t mode;
   if (st) {
      /* Keep the replaced file's owner (where we may) and mode. */
      if (st->st_uid != geteuid() || st->st_gid != getegid())
         (void)!fchown(fd, st->st_uid, st->st_gid);
      mode = st->st_mode & 07777;
   } else {
      mode_t mask = umask(0);
      umask(mask);
      mode = 0666 & ~mask; /* mkstemp made it 0600 */
   }
   if (fchmod(fd, mode) || write_all(fd, o->data, o->n) || fsync(fd)) {
      *err = errmsg("cannot write");
      close(fd);
      xe_output_discard(o);
      return 1;
   }
   if (close(fd)) {
      *err = errmsg("cannot write");
      xe_output_discard(o);
      return 1;
   }
   return 0;
}

int xe_output_stage(xe_output *o, const char *path, const void *data, size_t n, char **err)
{
   *o = (xe_output){ .path = path, .fd = -1, .data = data, .n = n };
   if (!strcmp(path, "-"))
      return stage_in_place(o, path, err);
   char *target = follow_links(path);
   if (!target) {
      *err = errmsg("cannot follow the symbolic link");
      return 1;
   }
   struct stat st;
   bool exists = !stat(target, &st);
   int rc;
   if (exists && S_ISDIR(st.st_mode)) {
      *err = strdup("is a directory");
      rc = 1;
   } else if (exists && !S_ISREG(st.st_mode)) {
      /* /dev/null, a FIFO, a terminal: renaming over it would replace a
       * device with a file (as root, /dev/null itself), and there is no
       * partial file to avoid. */
      rc = stage_in_place(o, target, err);
   } else if (exists && read_only(target, &st)) {
      *err = strdup("is read-only: not replaced (make it writable, or remove it)");
      rc = 1;
   } else {
      rc = stage_temporary(o, target, exists ? &st : NULL, err);
      if (!rc)
         o->target = target, target = NULL;
   }
   free(target);
   return rc;
}

int xe_output_write_in_place(xe_output *o, char **err)
{
   if (o->fd < 0)
      return 0;
   bool bad = write_all(o->fd, o->data, o->n) != 0;
   if (o->fd != 1 && close(o->fd))
      bad = true;
   o->fd = -1;
   if (bad) {
      *err = errmsg("cannot write");
      return 1;
   }
   return 0;
}

int xe_output_rename(xe_output *o, char **err)
{
   if (!o->tmp)
      return 0;
   if (rename(o->tmp, o->target)) {
      *err = errmsg("cannot replace the output");
      xe_output_discard(o);
      return 1;
   }
   free(o->tmp);
   o->tmp = NULL;
   free(o->target);
   o->target = NULL;
   return 0;
}

void xe_output_discard(xe_output *o)
{
   if (o->tmp)
      unlink(o->tmp);
   free(o->tmp);
   o->tmp = NULL;
   free(o->target);
   o->target = NULL;
   if (o->fd > 1)
      close(o->fd);
   o->fd = -1;
}

int xe_write_file_atomic(const char *path, const void *data, size_t n, char **err)
{
   xe_output o;
   if (xe_output_stage(&o, path, data, n, err))
      return 1;
   if (xe_output_write_in_place(&o, err) || xe_output_rename(&o, err)) {
      xe_output_discard(&o);
      return 1;
   }
   return 0;
}
