// subgroup-versioning on a long straight-line kernel (issue 50): 67 loads
// and 33 stores `y[i + k*n]`, i the global id, and a little arithmetic,
// no loop; bench/gen-straight-line's sl_f32_l67_s33_noloop_light.  The
// model's estimate falls on every device (block accesses for scattered
// ones), but IGC 2.40's own estimate of the general test is 2 to 3 cycles
// per tested access and of a block access about the scattered one's, so a
// region without a loop pays only by freeing registers where the kernel
// spills at SIMD32, which pvc keeps (bench/igc-family: pvc 121.0 -> 55.0
// cycles per work-item, bmg 42.0 -> 42.0, ptl 35.4 -> 41.1, dg2 47.2 ->
// 90.0).  So: refused for every device (dg2 narrows the kernel instead of
// spilling), versioned for pvc alone, refused for pvc and bmg.
//
// RUN: -O2
// CHECK-NOT: OpSubgroupBlockReadINTEL
// REMARK: sl_f32_l67_s33_noloop_light: [subgroup-versioning] missed: no fast copy of the kernel body: a region without a loop, {{.*}} unless they free registers of a kernel that spills at SIMD32 (pvc); dg2 compiles it SIMD8, narrowing a kernel rather than spilling (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc/bmg/lnl/ptl {{[0-9]+}} -> {{[0-9]+}} cycles)
// MANIFEST-NOT: {{.}}
//
// RUN-PVC: -O2 --target=pvc
// PVC-COUNT-67: OpSubgroupBlockReadINTEL
// PVC-REMARK: sl_f32_l67_s33_noloop_light: [subgroup-versioning] applied: versioned the kernel body: a fast copy with 67 block read(s) and 33 block write(s) {{.*}}(cost model: pvc {{[0-9]+}} -> {{[0-9]+}} cycles)
// PVC-MANIFEST-NOT: {{.}}
//
// RUN-BMG: -O2 --target=pvc,bmg
// BMG-NOT: OpSubgroupBlockReadINTEL
// BMG-REMARK: sl_f32_l67_s33_noloop_light: [subgroup-versioning] missed: no fast copy of the kernel body: {{.*}}; bmg compiles it SIMD16, narrowing a kernel rather than spilling
__kernel void sl_f32_l67_s33_noloop_light(__global float *restrict y, __global const float *restrict c, int n)
{
  int i = get_global_id(0);
  float x0 = y[i + 0 * n];
  float x1 = y[i + 1 * n];
  float x2 = y[i + 2 * n];
  float x3 = y[i + 3 * n];
  float x4 = y[i + 4 * n];
  float x5 = y[i + 5 * n];
  float x6 = y[i + 6 * n];
  float x7 = y[i + 7 * n];
  float x8 = y[i + 8 * n];
  float x9 = y[i + 9 * n];
  float x10 = y[i + 10 * n];
  float x11 = y[i + 11 * n];
  float x12 = y[i + 12 * n];
  float x13 = y[i + 13 * n];
  float x14 = y[i + 14 * n];
  float x15 = y[i + 15 * n];
  float x16 = y[i + 16 * n];
  float x17 = y[i + 17 * n];
  float x18 = y[i + 18 * n];
  float x19 = y[i + 19 * n];
  float x20 = y[i + 20 * n];
  float x21 = y[i + 21 * n];
  float x22 = y[i + 22 * n];
  float x23 = y[i + 23 * n];
  float x24 = y[i + 24 * n];
  float x25 = y[i + 25 * n];
  float x26 = y[i + 26 * n];
  float x27 = y[i + 27 * n];
  float x28 = y[i + 28 * n];
  float x29 = y[i + 29 * n];
  float x30 = y[i + 30 * n];
  float x31 = y[i + 31 * n];
  float x32 = y[i + 32 * n];
  float x33 = c[i + 0 * n];
  float x34 = c[i + 1 * n];
  float x35 = c[i + 2 * n];
  float x36 = c[i + 3 * n];
  float x37 = c[i + 4 * n];
  float x38 = c[i + 5 * n];
  float x39 = c[i + 6 * n];
  float x40 = c[i + 7 * n];
  float x41 = c[i + 8 * n];
  float x42 = c[i + 9 * n];
  float x43 = c[i + 10 * n];
  float x44 = c[i + 11 * n];
  float x45 = c[i + 12 * n];
  float x46 = c[i + 13 * n];
  float x47 = c[i + 14 * n];
  float x48 = c[i + 15 * n];
  float x49 = c[i + 16 * n];
  float x50 = c[i + 17 * n];
  float x51 = c[i + 18 * n];
  float x52 = c[i + 19 * n];
  float x53 = c[i + 20 * n];
  float x54 = c[i + 21 * n];
  float x55 = c[i + 22 * n];
  float x56 = c[i + 23 * n];
  float x57 = c[i + 24 * n];
  float x58 = c[i + 25 * n];
  float x59 = c[i + 26 * n];
  float x60 = c[i + 27 * n];
  float x61 = c[i + 28 * n];
  float x62 = c[i + 29 * n];
  float x63 = c[i + 30 * n];
  float x64 = c[i + 31 * n];
  float x65 = c[i + 32 * n];
  float x66 = c[i + 33 * n];
  y[i + 0 * n] = 0.0685878f * x0 + -0.0407276f * x33 + -0.959993f * x66;
  y[i + 1 * n] = -0.798631f * x1 + 0.965177f * x34 + -0.624501f * x2;
  y[i + 2 * n] = 0.162043f * x2 + 0.739026f * x35 + 0.568656f * x18;
  y[i + 3 * n] = 0.204385f * x3 + -0.244932f * x36;
  y[i + 4 * n] = 0.543033f * x4 + -0.625384f * x37 + 0.540406f * x38;
  y[i + 5 * n] = -0.33577f * x5 + -0.634902f * x38;
  y[i + 6 * n] = -0.386113f * x6 + 0.438154f * x39;
  y[i + 7 * n] = -0.832676f * x7 + 0.768282f * x40;
  y[i + 8 * n] = 0.938434f * x8 + 0.415402f * x41;
  y[i + 9 * n] = 0.372425f * x9 + -0.460022f * x42;
  y[i + 10 * n] = 0.463361f * x10 + 0.835014f * x43 + -0.0838539f * x49;
  y[i + 11 * n] = 0.0822114f * x11 + 0.0520273f * x44;
  y[i + 12 * n] = 0.508126f * x12 + 0.298768f * x45 + -0.612844f * x10;
  y[i + 13 * n] = -0.0794412f * x13 + -0.699284f * x46;
  y[i + 14 * n] = 0.179119f * x14 + 0.969502f * x47;
  y[i + 15 * n] = 0.60628f * x15 + 0.961232f * x48;
  y[i + 16 * n] = 0.34398f * x16 + 0.653965f * x49;
  y[i + 17 * n] = 0.297213f * x17 + -0.352127f * x50;
  y[i + 18 * n] = -0.337623f * x18 + 0.796977f * x51;
  y[i + 19 * n] = -0.123404f * x19 + -0.0988216f * x52 + -0.0515092f * x47;
  y[i + 20 * n] = -0.279299f * x20 + 0.86542f * x53;
  y[i + 21 * n] = -0.711949f * x21 + 0.395367f * x54;
  y[i + 22 * n] = 0.729891f * x22 + 0.789439f * x55 + -0.879557f * x12;
  y[i + 23 * n] = 0.994206f * x23 + -0.67501f * x56 + -0.376416f * x53;
  y[i + 24 * n] = -0.893303f * x24 + 0.02225f * x57;
  y[i + 25 * n] = 0.222814f * x25 + -0.286791f * x58 + 0.730281f * x10;
  y[i + 26 * n] = 0.0497533f * x26 + 0.205595f * x59;
  y[i + 27 * n] = 0.419324f * x27 + -0.532175f * x60;
  y[i + 28 * n] = 0.29242f * x28 + 0.0775626f * x61;
  y[i + 29 * n] = -0.43548f * x29 + -0.877945f * x62 + -0.524424f * x22;
  y[i + 30 * n] = 0.0841244f * x30 + -0.763192f * x63 + 0.0226432f * x36;
  y[i + 31 * n] = -0.140432f * x31 + 0.822808f * x64 + 0.68295f * x13;
  y[i + 32 * n] = -0.750496f * x32 + -0.739935f * x65 + 0.393544f * x45;
}
