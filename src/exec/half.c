/*
 * IEEE half precision to and from double (round to nearest even), for the
 * interpreter's loads and stores of half values (internal.h's ld_f and
 * st_f) and conversions.  Apart from ops.c so that internal.h's inline
 * accessors depend on nothing that depends on them.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "half.h"

double xe_half_to_double(uint16_t h)
{
   int e = (h >> 10) & 31, f = h & 1023;
   double s = (h >> 15) ? -1.0 : 1.0;
   if (e == 0) return s * ldexp(f, -24);
   if (e == 31) return f ? NAN : s * INFINITY;
   return s * ldexp(1024 + f, e - 25);
}

uint16_t xe_double_to_half(double d)
{
   float f = (float)d;
   uint32_t x; memcpy(&x, &f, 4);
   uint16_t s = (x >> 16) & 0x8000;
   int e = ((x >> 23) & 255) - 127 + 15;
   uint32_t m = x & 0x7fffff;
   if (((x >> 23) & 255) == 255) return s | 0x7c00 | (m ? 0x200 : 0);
   if (e >= 31) return s | 0x7c00;
   if (e <= 0) {
      if (e < -10) return s;
      m |= 0x800000;
      uint32_t sh = 14 - e, q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
      if (rem > half || (rem == half && (q & 1))) q++;
      return s | q;
   }
   uint32_t q = m >> 13, rem = m & 0x1fff;
   uint16_t h = s | (uint16_t)(e << 10) | (uint16_t)q;
   if (rem > 0x1000 || (rem == 0x1000 && (q & 1))) h++;
   return h;
}
