// block-io, refused: `dst[i] = src[1023 - i]` reads backwards, lane k's
// element 4 bytes below lane k-1's (stride -4), so the load stays a per-lane
// OpLoad: a block read at lane 0's address would read the sub-group's
// elements in the opposite order; likewise the store `dst[1023 - i]`.  The
// lane analysis gives a difference `a - b` the stride a.stride - b.stride;
// --verify (added by the runner) fails if either access is converted.
// (Mutation sweep, issue 33: the stride `a + sign * b` changed to `a + b`
// survived every other test.)
//
// RUN: --passes=block-io --assume-aligned --target=dg2
// CHECK-LABEL: %reversed = OpFunction
// CHECK-NOT: OpSubgroupBlockReadINTEL
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK: OpFunctionEnd
// CHECK-LABEL: %reversed_store = OpFunction
// CHECK-NOT: OpSubgroupBlockWriteINTEL
// CHECK: OpFunctionEnd
// REMARK: reversed: [block-io] missed: load via %arrayidx: stride -4 bytes across lanes (block access needs 4)
// REMARK: reversed_store: [block-io] missed: store via %arrayidx{{[0-9]*}}: stride -4 bytes across lanes (block access needs 4)
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reversed(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[1023 - i];
}

__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reversed_store(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[1023 - i] = src[i] * 7;
}
