// Two rewrites that could reach the corpus candidates no xeopt rewrite
// gains on (bench/notes/real-code-corpus.md, "What the rest would need"), written by hand in
// pairs: the kernel as real code writes it, then the rewrite.  bench/reach/run
// compiles them and prints what IGC makes of each pair.  Not third-party
// code: these kernels only have the shapes of darktable's.

constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// 1. Clamp and predicate.  A lane that fails `x < w && y < h` computes what
//    the lane at (min(x, w-1), min(y, h-1)) computes (a real lane once some
//    lane passes: checked first, uniformly) and only its write is guarded.
//    The guard's divergent branch would then cover one message instead of
//    the whole body.
kernel void img_guard(read_only image2d_t in, write_only image2d_t out, int w, int h, float b, float s)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  float4 p = read_imagef(in, nearest, (int2)(x, y));
  p.xyz = (p.xyz - b) * s;
  write_imagef(out, (int2)(x, y), p);
}
kernel void img_clamped(read_only image2d_t in, write_only image2d_t out, int w, int h, float b, float s)
{
  int gx = get_global_id(0), gy = get_global_id(1);
  if (w < 1 || h < 1 || (ulong)(w - 1) < get_global_offset(0) || (ulong)(h - 1) < get_global_offset(1)) return;
  bool in_range = gx < w && gy < h;
  int x = min(gx, w - 1), y = min(gy, h - 1);
  float4 p = read_imagef(in, nearest, (int2)(x, y));
  p.xyz = (p.xyz - b) * s;
  if (in_range) write_imagef(out, (int2)(x, y), p);
}
kernel void buf_guard(global const float *in, global float *out, int w, int h, float s)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  int i = y * w + x;
  out[i] = in[i] * s + in[i + 1];
}
kernel void buf_clamped(global const float *in, global float *out, int w, int h, float s)
{
  int gx = get_global_id(0), gy = get_global_id(1);
  if (w < 1 || h < 1 || (ulong)(w - 1) < get_global_offset(0) || (ulong)(h - 1) < get_global_offset(1)) return;
  bool in_range = gx < w && gy < h;
  int x = min(gx, w - 1), y = min(gy, h - 1);
  int i = y * w + x;
  float v = in[i] * s + in[i + 1];
  if (in_range) out[i] = v;
}

// 2. Guard-only versioning.  A loop inside the guard (a filter along a
//    strided line) runs in a copy without the guard when every lane of the
//    sub-group passes it (a vote, which keeps IGC's SIMD32 on dg2); no block
//    access.  line_vote is that copy alone, the path nearly every sub-group
//    would take.
#define LINE_BODY \
  int idx = k * stride1 + j * stride2; \
  float a = in[idx], c = 0.0f; \
  for (int t = 1; t < n; t++) { \
    float v = in[idx + t * step]; \
    c = 0.75f * c + 0.25f * (v - a); \
    out[idx + t * step] = c; \
    a = v; \
  }
kernel void line_guard(global const float *in, global float *out, int stride1, int stride2, int step, int n1, int n2, int n)
{
  int k = get_global_id(0), j = get_global_id(1);
  if (k >= n1 || j >= n2) return;
  LINE_BODY
}
kernel void line_vote(global const float *in, global float *out, int stride1, int stride2, int step, int n1, int n2, int n)
{
  int k = get_global_id(0), j = get_global_id(1);
  if (!sub_group_all(k < n1 && j < n2)) return;
  LINE_BODY
}
