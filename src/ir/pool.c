/*
 * The module's instruction pool: the memory the reader (and function
 * cloning) carve instructions from, freed with the module.
 *
 * Why: reading a module of 400 kernels made 40,000 calloc calls, one per
 * instruction, which were a tenth of the run's time; freeing them at exit
 * another twentieth; and first touching the pages they landed on more than
 * a third of the run's page faults.  The reader knows the size of every
 * instruction before it parses (the word count of each), so it reserves
 * one chunk of exactly the size needed and the instructions are carved
 * from it in layout order: no per-instruction header or bookkeeping,
 * neighbours in the layout are neighbours in memory, and a chunk of 2 MiB
 * or more is advised for transparent huge pages (one fault per 2 MiB
 * instead of one per 4 KiB where the kernel's THP mode is "madvise" or
 * "always"; nothing changes where it is "never").
 *
 * An instruction freed before its module (a pass deleted it) keeps its
 * bytes until the module is freed: the pool never reuses memory.  That
 * bounds the waste by what passes delete, which is small beside the module.
 *
 * Two more pools of the same kind hold the block structures
 * (xe__struct_alloc) and the function structures (xe__fn_struct_alloc),
 * apart from the instructions and from each other: the walks every pass
 * makes over the module's functions and a function's blocks then read
 * neighbouring memory (at a few thousand kernels, a cache miss per
 * function was most of the time of the passes with little to do; with
 * the functions between their blocks, a walk over the functions still
 * missed once per function).
 *
 * A module freed to read another one in its place (xe_read_over: plain
 * -O2 reads its input again for its second run) hands its chunks on as
 * spares: the new module's reservations take them before mapping anew.
 * Why: a fresh mapping is faulted in and cleared by the kernel page by
 * page, and at 64 MB of input (557 MB of pool) that was about a second of
 * the run, where clearing the recycled bytes as they are carved costs a
 * tenth of it (the memory is in the process and soon written anyway).
 *
 * Under AddressSanitizer every allocation is followed by a poisoned red
 * zone, the unused rest of a chunk is poisoned and a freed instruction is
 * poisoned again, so overflows and uses after free are still reported as
 * they are for malloc'd instructions.
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ir_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define XE_POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XE_POOL_ASAN 1
#endif
#endif

#ifdef XE_POOL_ASAN
#include <sanitizer/asan_interface.h>
#define REDZONE 16
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define REDZONE 0
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define ALIGN 8
#define HUGE_PAGE ((size_t)2 << 20)
/* Chunks for what comes after the reader's reservation (clones). */
#define MIN_CHUNK ((size_t)256 << 10)

typedef struct chunk {
   struct chunk *next;
   void *map;              /* the mapping, for munmap */
   size_t map_size;
} chunk;

struct xe_pool {
   chunk *chunks;
   chunk *spare;           /* a freed module's chunks, to carve again */
   char *cur, *end;        /* free room in the newest chunk */
   bool dirty;             /* that chunk is a spare: clear what is carved */
};

static size_t round_up(size_t n, size_t a)
{
   return (n + a - 1) / a * a;
}

size_t xe__pool_size(size_t n)
{
   return round_up(n + REDZONE, ALIGN);
}

/* Makes c the chunk allocations are carved from. */
static void use_chunk(struct xe_pool *p, chunk *c, bool dirty)
{
   c->next = p->chunks;
   p->chunks = c;
   p->cur = (char *)c + round_up(sizeof(chunk), ALIGN);
   p->end = (char *)c->map + c->map_size;
   p->dirty = dirty;
   POISON(p->cur, (size_t)(p->end - p->cur));
}

/* Takes the first spare chunk with room for n bytes, if any. */
static bool spare_chunk(struct xe_pool *p, size_t n)
{
   for (chunk **at = &p->spare; *at; at = &(*at)->next) {
      chunk *c = *at;
      size_t room = (size_t)((char *)c->map + c->map_size - (char *)c) -
                    round_up(sizeof(chunk), ALIGN);
      if (room >= n) {
         *at = c->next;
         use_chunk(p, c, true);
         return true;
      }
   }
   return false;
}

/* A new chunk with room for at least n bytes: a spare one, else an
 * anonymous mapping (zeroed by the kernel, so carving needs no memset),
 * aligned to 2 MiB and advised for huge pages when it is that large. */
static void new_chunk(struct xe_pool *p, size_t n)
{
   if (spare_chunk(p, n))
      return;
   size_t room = round_up(n + sizeof(chunk), 4096);
   if (room < MIN_CHUNK)
      room = MIN_CHUNK;
   bool huge = room >= HUGE_PAGE;
   size_t map_size = huge ? round_up(room, HUGE_PAGE) + HUGE_PAGE : room;
   char *map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (map == MAP_FAILED)
      xe_out_of_memory();
   char *base = map;
   if (huge) {
      base = (char *)round_up((uintptr_t)map, HUGE_PAGE);
      room = map_size - (size_t)(base - map);
#ifdef MADV_HUGEPAGE
      madvise(base, round_up(n + sizeof(chunk), HUGE_PAGE), MADV_HUGEPAGE);
#endif
   }
   chunk *c = (chunk *)base;
   c->map = map;
   c->map_size = map_size;
   use_chunk(p, c, false);
}

static void pool_reserve(struct xe_pool **pp, size_t n)
{
   if (!*pp) {
      *pp = calloc(1, sizeof(struct xe_pool));
      if (!*pp)
         xe_out_of_memory();
   }
   struct xe_pool *p = *pp;
   if ((size_t)(p->end - p->cur) < n)
      new_chunk(p, n);
}

static void *pool_alloc(struct xe_pool **pp, size_t n)
{
   size_t need = xe__pool_size(n);
   pool_reserve(pp, need);
   struct xe_pool *p = *pp;
   char *r = p->cur;
   p->cur += need;
   UNPOISON(r, n);
   if (p->dirty)
      memset(r, 0, n);
   return r;
}

void xe__pool_reserve(xe_module *m, size_t n)
{
   pool_reserve(&m->pool, n);
}

void *xe__pool_alloc(xe_module *m, size_t n)
{
   return pool_alloc(&m->pool, n);
}

void xe__struct_reserve(xe_module *m, size_t n)
{
   pool_reserve(&m->struct_pool, n);
}

void *xe__struct_alloc(xe_module *m, size_t n)
{
   return pool_alloc(&m->struct_pool, n);
}

void xe__fn_struct_reserve(xe_module *m, size_t n)
{
   pool_reserve(&m->fn_pool, n);
}

void *xe__fn_struct_alloc(xe_module *m, size_t n)
{
   return pool_alloc(&m->fn_pool, n);
}

void xe__pool_release(void *ptr, size_t n)
{
   POISON(ptr, n);
}

static void unmap_chunks(chunk *c)
{
   for (chunk *n; c; c = n) {
      n = c->next;
      void *map = c->map;
      size_t map_size = c->map_size;
      UNPOISON(map, map_size);
      munmap(map, map_size);
   }
}

static void pool_free(struct xe_pool **pp)
{
   struct xe_pool *p = *pp;
   if (!p)
      return;
   unmap_chunks(p->chunks);
   unmap_chunks(p->spare);
   free(p);
   *pp = NULL;
}

void xe__pool_free(xe_module *m)
{
   pool_free(&m->pool);
   pool_free(&m->struct_pool);
   pool_free(&m->fn_pool);
}

/* Moves every chunk of *from, in use or spare, to to's spares (a new pool
 * when to has none). */
static void pool_hand_on(struct xe_pool **to, struct xe_pool **from)
{
   struct xe_pool *f = *from;
   if (!f)
      return;
   if (!*to) {
      *to = calloc(1, sizeof(struct xe_pool));
      if (!*to)
         xe_out_of_memory();
   }
   chunk *last = NULL;
   for (chunk *c = f->chunks; c; c = c->next)
      last = c;
   if (last) {
      last->next = f->spare;
      f->spare = f->chunks;
   }
   for (chunk *c = f->spare, *n; c; c = n) {
      n = c->next;
      POISON((char *)c + round_up(sizeof(chunk), ALIGN),
             (size_t)((char *)c->map + c->map_size - (char *)c) - round_up(sizeof(chunk), ALIGN));
      c->next = (*to)->spare;
      (*to)->spare = c;
   }
   free(f);
   *from = NULL;
}

void xe__pool_hand_on(xe_module *to, xe_module *from)
{
   pool_hand_on(&to->pool, &from->pool);
   pool_hand_on(&to->struct_pool, &from->struct_pool);
   pool_hand_on(&to->fn_pool, &from->fn_pool);
}
