// block-io, refused: `dst[i] = src[2 * i]`.  The load's lanes are 8 bytes
// apart, so it stays a per-lane OpLoad (a block read needs consecutive
// elements) and the remark says why; the store is lane-contiguous and
// becomes a block write (--target=dg2: the cost model would refuse a lone
// conversion for pvc).
//
// RUN: --passes=block-io --assume-aligned --target=dg2
// CHECK-LABEL: %gather2 = OpFunction
// CHECK-NOT: OpSubgroupBlockReadINTEL
// CHECK: OpLoad %uint %arrayidx Aligned 4
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK: OpFunctionEnd
// REMARK: gather2: [block-io] missed: load via %arrayidx: stride 8 bytes across lanes (block access needs 4)
// REMARK-NEXT: gather2: [block-io] applied: store via %arrayidx1: sub-group block write (SG 16)
// MANIFEST: "requirement": "argument_alignment",
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void gather2(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[2 * i];
}
