/*
 * --isa-check's work directory, owned by the command line so that a
 * SIGINT or SIGTERM (Ctrl-C, `timeout`) does not leave $TMPDIR/xeopt-isa.*
 * behind: the handler removes it, then dies of the signal as it would
 * have without one.
 *
 * The handler may interrupt anything, malloc and stdio included, so it
 * only makes system calls on a path copied beforehand into static
 * storage (openat, getdents64, unlinkat, close: no allocation, no lock).
 * The library itself keeps no process-wide state; this is the program's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ocloc.h"

/* The directory to remove on a signal; "" when there is none. */
static char workdir[PATH_MAX];
static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Removes everything under the directory open as fd, depth levels deep
 * at most (the work directory is three deep: round, device, file).
 * Entries are read again from the start after each batch of removals,
 * since getdents64 need not return entries of a directory changed while
 * it is read. */
static void clear_dir(int fd, int depth)
{
   char buf[2048];
   for (int pass = 0; pass < 64; pass++) {
      if (lseek(fd, 0, SEEK_SET) < 0)
         return;
      bool removed = false, any = false;
      ssize_t n;
      while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
         for (ssize_t at = 0; at < n;) {
            struct dirent64 *de = (struct dirent64 *)(buf + at);
            at += de->d_reclen;
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
               continue;
            any = true;
            if (unlinkat(fd, de->d_name, 0) == 0) {
               removed = true;
               continue;
            }
            int sub = depth > 0 ? openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
            if (sub >= 0) {
               clear_dir(sub, depth - 1);
               close(sub);
            }
            removed |= unlinkat(fd, de->d_name, AT_REMOVEDIR) == 0;
         }
      }
      if (!any || !removed)
         return;
   }
}

static void on_signal(int sig)
{
   int saved = errno;
   if (workdir[0]) {
      int fd = open(workdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) {
         clear_dir(fd, 8);
         close(fd);
      }
      rmdir(workdir);
   }
   /* Die of the signal, so that the caller (a shell, make) sees it. */
   signal(sig, SIG_DFL);
   errno = saved;
   raise(sig);
}

char *xe_cli_isa_workdir(void)
{
   char *dir = xe_isa_workdir("isa");
   if (!dir || strlen(dir) >= sizeof(workdir))
      return dir;
   sigset_t block, old;
   sigemptyset(&block);
   for (unsigned k = 0; k < sizeof(signals) / sizeof(signals[0]); k++)
      sigaddset(&block, signals[k]);
   sigprocmask(SIG_BLOCK, &block, &old);
   strcpy(workdir, dir);
   for (unsigned k = 0; k < sizeof(signals) / sizeof(signals[0]); k++) {
      struct sigaction sa, was;
      /* A signal the caller ignores stays ignored (nohup, a background
       * job of a shell without job control). */
      if (sigaction(signals[k], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
         continue;
      memset(&sa, 0, sizeof(sa));
      sa.sa_handler = on_signal;
      sigfillset(&sa.sa_mask);
      sigaction(signals[k], &sa, NULL);
   }
   sigprocmask(SIG_SETMASK, &old, NULL);
   return dir;
}

void xe_cli_isa_workdir_remove(char *dir)
{
   if (!dir)
      return;
   sigset_t block, old;
   sigemptyset(&block);
   for (unsigned k = 0; k < sizeof(signals) / sizeof(signals[0]); k++)
      sigaddset(&block, signals[k]);
   sigprocmask(SIG_BLOCK, &block, &old);
   xe_rm_rf(dir);
   workdir[0] = 0;
   sigprocmask(SIG_SETMASK, &old, NULL);
   free(dir);
}
