// Planted: dg2 has no double-precision support, so IGC rejects this
// module for dg2 although spirv-val and --verify accept it; the test must
// fail at the IGC step (skipped, exit 77, where ocloc is missing and not
// required).
// EXPECT-FAIL: ocloc rejects the output for dg2
// RUN: --passes=private-arrays
// REMARK-NOT: applied
kernel void scale(global double *a, double s)
{
    size_t i = get_global_id(0);
    a[i] = a[i] * s;
}
