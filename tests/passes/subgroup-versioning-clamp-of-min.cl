// subgroup-versioning: an index the lane analysis cannot follow is guessed
// through the operations around it (subgroup_region.c, likely_stride): a
// clamp between uniform bounds moves as the value it clamps, here
// min(i, w - 1), which moves by one element per lane (it is i except at
// the border).  So in[clamp(min(i, w - 1), 0, n)], the clamp itself the
// index (depth 0 of the walk, the min below it at depth 1: the walk's
// depth is unsigned and bounded by 8, so it must go down, not wrap), gets a
// block read in the fast copy, tested at run time like any other, and so
// does the store.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK-LABEL: %clamp_of_min = OpFunction
// CHECK: %call3 = OpExtInst %uint {{%[0-9]+}} s_clamp %call2 %uint_0 %n
// CHECK: OpSubgroupBlockReadINTEL
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK: OpFunctionEnd
// REMARK: clamp_of_min: [subgroup-versioning] applied: load via %arrayidx: sub-group block read in the fast copy (tested: contiguous, 4-byte aligned base)
// REMARK-NEXT: clamp_of_min: [subgroup-versioning] applied: store via %arrayidx5: sub-group block write in the fast copy (tested: contiguous, 16-byte aligned base)
// REMARK-NEXT: clamp_of_min: [subgroup-versioning] applied: versioned the region guarded by %cmp: a fast copy without the guard, with 1 block read(s) and 1 block write(s),{{.*}}
// MANIFEST-NOT: {{.}}
kernel void clamp_of_min(global const float *in, global float *out, int n, int w)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[clamp(min(i, w - 1), 0, n)];
}
