/*
 * IEEE half precision conversions (half.c).
 */
#ifndef XEOPT_EXEC_HALF_H
#define XEOPT_EXEC_HALF_H

#include <stdint.h>

/* The value of the half h (NaN, infinities and subnormals included). */
double xe_half_to_double(uint16_t h);
/* d rounded to the nearest half, ties to even; overflow to infinity. */
uint16_t xe_double_to_half(double d);

#endif
