// subgroup-versioning: an index the lane analysis cannot follow is guessed
// through the operations around it (subgroup_region.c, likely_stride); a
// product of two values moves by a known stride only when both are uniform
// (then by 0), so i * w, a lane-varying value times an argument, moves by
// an unknown number of elements per lane.  in[i + i * w] therefore moves by
// 1 + w elements, not by one: the load gets no block read (the run-time
// test would pass only when w == 0) and the remark says so, while the
// store out[i] still gets its block write.  Clang puts the varying factor
// first (OpIMul %uint %conv %w): reading the uniform w for both factors
// would see a uniform product and the sum move by one.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK-LABEL: %scaled_argument = OpFunction
// CHECK: %mul = OpIMul %uint %conv %w
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK-NOT: OpSubgroupBlockReadINTEL
// CHECK: OpFunctionEnd
// REMARK-DAG: scaled_argument: [subgroup-versioning] missed: load via %arrayidx stays per-lane: the lane analysis cannot tell that its address moves by one element per lane (the run-time test would pass only by chance)
// REMARK-DAG: scaled_argument: [subgroup-versioning] applied: versioned the region guarded by %cmp: a fast copy without the guard, with 0 block read(s) and 1 block write(s),{{.*}}
// MANIFEST-NOT: {{.}}
kernel void scaled_argument(global const float *in, global float *out, int n, int w)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i + i * w];
}
