// block-io: 64-bit elements have block reads and writes too
// (cl_intel_subgroups_long: intel_sub_group_block_read_ul and _write_ul), so
// the sub-group copy of block-io-copy.cl on ulong converts like the one on
// int: one OpSubgroupBlockReadINTEL %ulong and one
// OpSubgroupBlockWriteINTEL, at lane 0's address.  The 8-bit to 64-bit
// widths are the ones the extensions have (block_access.c).
//
// RUN: --passes=block-io --assume-aligned --target=dg2,bmg,lnl,ptl
// (not pvc: IGC 2.40 makes these block messages itself there; block-io-copy.cl)
// CHECK-LABEL: %copy_ulong = OpFunction
// CHECK: [[V:%[0-9]+]] = OpSubgroupBlockReadINTEL %ulong
// CHECK: OpSubgroupBlockWriteINTEL {{%[0-9]+}} [[V]]
// CHECK-NOT: OpLoad %ulong
// CHECK-NOT: OpStore
// CHECK: OpFunctionEnd
// REMARK: copy_ulong: [block-io] applied: load via %arrayidx: sub-group block read (SG 16)
// REMARK-NEXT: copy_ulong: [block-io] applied: store via %arrayidx1: sub-group block write (SG 16), argument alignment assumed
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void copy_ulong(global ulong *dst, global const ulong *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
