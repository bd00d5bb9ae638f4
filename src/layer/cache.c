/*
 * The layer's persistent cache (cache.h).  An entry file is
 *
 *   magic "XEOPTLC1" | key (16 bytes) | status u32 | reserved u32 |
 *   size u64 | text length u64 | checksum (16 bytes, XXH3-128 of what follows) |
 *   bytes[size] | text[text length]
 *
 * little-endian as the machine writes it (a cache is per machine).  The
 * key inside the file guards against a renamed file; the checksum against
 * a torn or corrupted one.
 */
#define _GNU_SOURCE
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static const char magic[8] = { 'X', 'E', 'O', 'P', 'T', 'L', 'C', '1' };

typedef struct header {
   char magic[8];
   uint64_t key_lo, key_hi;
   uint32_t status, reserved;
   uint64_t size, text_len;
   uint64_t sum_lo, sum_hi;
} header;

xl_key xl_key_of(const void *const *parts, const size_t *lens, size_t n)
{
   XXH3_state_t *st = XXH3_createState();
   xl_key k = { 0, 0 };
   if (!st)
      return k;
   XXH3_128bits_reset(st);
   for (size_t i = 0; i < n; i++) {
      uint64_t len = lens[i];
      XXH3_128bits_update(st, &len, sizeof len);
      XXH3_128bits_update(st, parts[i], lens[i]);
   }
   XXH128_hash_t h = XXH3_128bits_digest(st);
   XXH3_freeState(st);
   k.lo = h.low64;
   k.hi = h.high64;
   return k;
}

void xl_key_hex(xl_key k, char out[33])
{
   snprintf(out, 33, "%016llx%016llx", (unsigned long long)k.hi, (unsigned long long)k.lo);
}

static XXH128_hash_t checksum(const xl_entry *e, size_t text_len)
{
   XXH3_state_t *st = XXH3_createState();
   XXH128_hash_t h = { 0, 0 };
   if (!st)
      return h;
   XXH3_128bits_reset(st);
   XXH3_128bits_update(st, e->bytes, e->size);
   XXH3_128bits_update(st, e->text, text_len);
   h = XXH3_128bits_digest(st);
   XXH3_freeState(st);
   return h;
}

static char *entry_path(const char *dir, xl_key key)
{
   char hex[33], *path;
   xl_key_hex(key, hex);
   return asprintf(&path, "%s/%s", dir, hex) < 0 ? NULL : path;
}

static bool read_all(int fd, void *p, size_t n)
{
   for (size_t got = 0; got < n;) {
      ssize_t r = read(fd, (char *)p + got, n - got);
      if (r <= 0) {
         if (r < 0 && errno == EINTR)
            continue;
         return false;
      }
      got += (size_t)r;
   }
   return true;
}

static bool write_all(int fd, const void *p, size_t n)
{
   for (size_t put = 0; put < n;) {
      ssize_t w = write(fd, (const char *)p + put, n - put);
      if (w < 0) {
         if (errno == EINTR)
            continue;
         return false;
      }
      put += (size_t)w;
   }
   return true;
}

bool xl_cache_read(const char *dir, xl_key key, xl_entry *e)
{
   memset(e, 0, sizeof *e);
   char *path = entry_path(dir, key);
   if (!path)
      return false;
   int fd = open(path, O_RDONLY | O_CLOEXEC);
   free(path);
   if (fd < 0)
      return false;
   header h;
   struct stat st;
   bool ok = fstat(fd, &st) == 0 && read_all(fd, &h, sizeof h) &&
             memcmp(h.magic, magic, sizeof magic) == 0 && h.key_lo == key.lo &&
             h.key_hi == key.hi && h.status <= XL_ENTRY_FAILED &&
             h.size <= (uint64_t)st.st_size && h.text_len <= (uint64_t)st.st_size &&
             sizeof h + h.size + h.text_len == (uint64_t)st.st_size;
   if (ok) {
      e->status = h.status;
      e->size = h.size;
      e->bytes = malloc(h.size ? h.size : 1);
      e->text = malloc(h.text_len + 1);
      ok = e->bytes && e->text && read_all(fd, e->bytes, h.size) &&
           read_all(fd, e->text, h.text_len);
   }
   close(fd);
   if (ok) {
      e->text[h.text_len] = 0;
      XXH128_hash_t sum = checksum(e, h.text_len);
      ok = sum.low64 == h.sum_lo && sum.high64 == h.sum_hi;
   }
   if (!ok) {
      free(e->bytes);
      free(e->text);
      memset(e, 0, sizeof *e);
   }
   return ok;
}

/* mkdir -p, mode 0700: the cache holds the application's kernels. */
static bool make_dirs(const char *dir)
{
   char *p = strdup(dir);
   if (!p)
      return false;
   for (char *s = p + 1; *s; s++) {
      if (*s != '/')
         continue;
      *s = 0;
      if (mkdir(p, 0700) != 0 && errno != EEXIST) {
         free(p);
         return false;
      }
      *s = '/';
   }
   bool ok = mkdir(p, 0700) == 0 || errno == EEXIST;
   free(p);
   return ok;
}

bool xl_cache_write(const char *dir, xl_key key, const xl_entry *e)
{
   if (!make_dirs(dir))
      return false;
   char *path = entry_path(dir, key), *tmp = NULL;
   if (!path || asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
      free(path);
      return false;
   }
   int fd = mkostemp(tmp, O_CLOEXEC);
   bool ok = fd >= 0;
   if (ok) {
      size_t text_len = e->text ? strlen(e->text) : 0;
      xl_entry body = *e;
      body.text = e->text ? e->text : "";
      XXH128_hash_t sum = checksum(&body, text_len);
      header h = { .key_lo = key.lo, .key_hi = key.hi, .status = e->status,
                   .size = e->size, .text_len = text_len,
                   .sum_lo = sum.low64, .sum_hi = sum.high64 };
      memcpy(h.magic, magic, sizeof magic);
      ok = write_all(fd, &h, sizeof h) && write_all(fd, e->bytes, e->size) &&
           write_all(fd, body.text, text_len);
      ok = close(fd) == 0 && ok;
      ok = ok && rename(tmp, path) == 0;
      if (!ok)
         unlink(tmp);
   }
   free(tmp);
   free(path);
   return ok;
}
