// subgroup-versioning on buffer-to-image copies, the shape of OpenCV dnn's
// gemm_buffer_copy_image_* kernels (our own kernels, not OpenCV's code).
// Issue 30 reported IGC 22.43 dying (SIGSEGV) on dg2 on xeopt's output for
// those kernels (ocloc -spv_only front end, -O2 --target=none).  With these
// kernels the fast copy with a block read of src and the image writes in
// both copies compiles: this test has IGC 22.43 and (in its pass-ocloc26/
// and pass-clang21/ variants) IGC 2.40 compile the output for dg2, and
// --verify run it.  What does crash IGC, input and output alike, so that
// this test leaves it out: IGC 22.43 (dg2 and pvc) on any OpImageWrite with
// the ZeroExtend image operand, which clang 15 and 21 and ocloc 26 write
// for write_imageui (the ocloc 22 front end writes none); IGC 2.40 for pvc
// on any image write (pvc has no image support).
//
// OCLOC: dg2
// RUN: -O2 --target=none
// CHECK-LABEL: %copy_t = OpFunction
// CHECK: OpSubgroupBlockReadINTEL
// CHECK: OpImageWrite
// CHECK-LABEL: %copy_n = OpFunction
// CHECK: OpImageWrite
// REMARK: copy_t: [subgroup-versioning] applied: versioned the kernel body
//
// copy_n's guard is versioned only from the ocloc front ends: clang sinks
// its two image writes into one after the guard (a phi of the texel),
// which leaves no guarded region with the store in it.
kernel void copy_t(global float *src, write_only image2d_t dst, int off, int w, int h, int ld)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    global float *s = src + off;
    float v = s[y * ld + x];
    write_imagef(dst, (int2)(x, y), (float4)v);
}

kernel void copy_n(global float *src, write_only image2d_t dst, int off, int w, int h, int ld)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int2 c = (int2)(x, y);
    if (x >= w || y >= h) {
        write_imagef(dst, c, (float4)0);
        return;
    }
    global float *s = src + off;
    write_imagef(dst, c, convert_float4(as_uchar4(s[y * ld + x])));
}
