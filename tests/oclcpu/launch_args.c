/* Kernel arguments for the CPU-runtime test hosts (launch_args.h). */
#include "launch_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- argument strings, as src/exec/launch.c reads and fills them ---- */

static const struct { const char *name; unsigned size; int is_float, is_signed; } types[] = {
   {"char", 1, 0, 1}, {"uchar", 1, 0, 0}, {"short", 2, 0, 1}, {"ushort", 2, 0, 0},
   {"int", 4, 0, 1},  {"uint", 4, 0, 0},  {"long", 8, 0, 1},  {"ulong", 8, 0, 0},
   {"half", 2, 1, 1}, {"float", 4, 1, 1}, {"double", 8, 1, 1},
};

static int set_type(struct arg *a, const char *t, size_t n)
{
   for (unsigned k = 0; k < sizeof types / sizeof types[0]; k++)
      if (strlen(types[k].name) == n && !strncmp(t, types[k].name, n)) {
         a->elem = types[k].size;
         a->is_float = types[k].is_float;
         a->is_signed = types[k].is_signed;
         return 1;
      }
   return 0;
}

static uint64_t splitmix64(uint64_t *state)
{
   uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

static void put(const struct arg *a, uint8_t *p, double x, uint64_t bits, int use_bits)
{
   if (a->is_float) {
      if (a->elem == 4) { float f = (float)x; memcpy(p, &f, 4); }
      else if (a->elem == 8) memcpy(p, &x, 8);
      else { _Float16 h = (_Float16)x; memcpy(p, &h, 2); }
      return;
   }
   uint64_t v = use_bits ? bits : a->is_signed ? (uint64_t)(int64_t)x : (uint64_t)x;
   memcpy(p, &v, a->elem);  /* little-endian: the low bytes */
}

int parse_arg(const char *s, struct arg *a, uint64_t seed)
{
   memset(a, 0, sizeof *a);
   char *end;
   if (!strncmp(s, "local:", 6)) {
      a->kind = ARG_LOCAL;
      a->size = strtoull(s + 6, &end, 0);
      return !*end && a->size;
   }
   if (!strncmp(s, "buf:", 4)) {
      const char *t = s + 4, *c = strchr(t, ':');
      if (!c || !set_type(a, t, (size_t)(c - t))) return 0;
      a->kind = ARG_BUF;
      a->count = strtoull(c + 1, &end, 0);
      if (end == c + 1) return 0;
      a->size = a->count * a->elem;
      a->data = calloc(a->size + 1, 1);
      const char *fill = *end == ':' ? end + 1 : "zero";
      if (*end && *end != ':') return 0;
      double cv = 0;
      int mode;
      if (!strcmp(fill, "zero")) mode = 0;
      else if (!strcmp(fill, "random")) mode = 1;
      else if (!strcmp(fill, "iota")) mode = 2;
      else if (!strncmp(fill, "const=", 6)) {
         mode = 3;
         cv = strtod(fill + 6, &end);
         if (*end || end == fill + 6) return 0;
      } else return 0;
      uint64_t st = seed;
      for (size_t e = 0; e < a->count; e++) {
         uint8_t *p = a->data + e * a->elem;
         if (mode == 2) put(a, p, (double)e, e, 1);
         else if (mode == 3) put(a, p, cv, 0, 0);
         else if (mode == 1) {
            uint64_t r = splitmix64(&st);
            if (a->is_float) put(a, p, (double)((int64_t)(r % 2001) - 1000) / 64.0, 0, 0);
            else put(a, p, 0, r % 256, 1);
         }
      }
      return 1;
   }
   const char *c = strchr(s, ':');
   if (!c || !set_type(a, s, (size_t)(c - s))) return 0;
   a->kind = ARG_SCALAR;
   a->count = 1;
   a->size = a->elem;
   a->data = calloc(8, 1);
   double v = strtod(c + 1, &end);
   if (*end || end == c + 1) return 0;
   put(a, a->data, v, 0, 0);
   return 1;
}


void write_dump(const char *tool, const char *dir, const char *name, const void *p, size_t n)
{
   char path[4096];
   snprintf(path, sizeof path, "%s/%s", dir, name);
   FILE *f = fopen(path, "wb");
   if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
      fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
      exit(1);
   }
}
