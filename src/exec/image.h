/* Images and samplers (image.c). */
#ifndef XEOPT_EXEC_IMAGE_H
#define XEOPT_EXEC_IMAGE_H

#include "state.h"

/* OpSampledImage, OpImageSampleExplicitLod, OpImageRead, OpImageWrite,
 * OpImageQuery{Size,SizeLod,Format,Order}. */
bool xe_run_image(xe_run *r, xe_wi *w, const dinst *d);

#endif
