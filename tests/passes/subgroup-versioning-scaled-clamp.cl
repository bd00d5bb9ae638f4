// subgroup-versioning: an index the lane analysis cannot follow (a clamp,
// min(i, w - 1)) is guessed through the operations around it
// (subgroup_region.c, likely_stride): the clamp moves by one element per
// lane, and a product by a constant by that constant times as many.  So
// in[3 * min(i, w - 1)] moves by 3 elements per lane: no fast copy could
// read it with a block read (the run-time test would never pass), and the
// load stays out with the remark saying so, while the store out[i] still
// gets its block write.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK-LABEL: %scaled_clamp = OpFunction
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK-NOT: OpSubgroupBlockReadINTEL
// CHECK: OpFunctionEnd
// REMARK-DAG: scaled_clamp: [subgroup-versioning] missed: load via %arrayidx stays per-lane: the lane analysis cannot tell that its address moves by one element per lane (the run-time test would pass only by chance)
// REMARK-DAG: scaled_clamp: [subgroup-versioning] applied: versioned the region guarded by %cmp: a fast copy without the guard, with 0 block read(s) and 1 block write(s),{{.*}}
kernel void scaled_clamp(global const float *in, global float *out, int n, int w)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[3 * min(i, w - 1)];
}
