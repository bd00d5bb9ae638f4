/*
 * The layer's persistent cache (XEOPT_LAYER_CACHE, default
 * $XDG_CACHE_HOME/xeopt or ~/.cache/xeopt): one file per entry, named by
 * its key, an XXH3 128-bit hash of everything the entry's bytes depend on
 * (the input, the options, the tool and its version).  Entries are written
 * to a temporary file in the directory and renamed, so a reader sees a
 * whole entry or none; a file that does not check out (wrong magic, key,
 * length or checksum) is a miss and is rewritten.  A directory that cannot
 * be created or written means no cache, never a failure.
 */
#ifndef XEOPT_LAYER_CACHE_H
#define XEOPT_LAYER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xl_key { uint64_t lo, hi; } xl_key;

/* What an entry says besides its bytes. */
enum { XL_ENTRY_CHANGED = 0, XL_ENTRY_UNCHANGED = 1, XL_ENTRY_FAILED = 2 };

typedef struct xl_entry {
   uint32_t status;       /* XL_ENTRY_* */
   void *bytes;           /* the output (malloc'd), size bytes */
   size_t size;
   char *text;            /* remarks JSON or a failure's reason (malloc'd, nul-terminated) */
} xl_entry;

/* The key of parts[0..n) (each `len` bytes; a part's length is hashed too,
 * so ("ab","c") and ("a","bc") differ). */
xl_key xl_key_of(const void *const *parts, const size_t *lens, size_t n);
/* 32 hex digits and a nul. */
void xl_key_hex(xl_key k, char out[33]);

/* Reads the entry for key from dir; false on a miss (no file, or one that
 * does not check out).  On true the caller frees e->bytes and e->text. */
bool xl_cache_read(const char *dir, xl_key key, xl_entry *e);
/* Writes it atomically; false when the directory is not writable (the
 * caller goes on without the cache). */
bool xl_cache_write(const char *dir, xl_key key, const xl_entry *e);

#endif
