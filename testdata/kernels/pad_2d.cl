// xeopt-test: -O2
// pad_2d: 2-D guard `if (x < w && y < h)`; removable by padding both
// dimensions (row pitch becomes a host-contract change).
kernel void pad_2d(global float *dst, global const float *src, int w, int h)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x < w && y < h)
        dst[y * w + x] = 2.0f * src[y * w + x];
}
