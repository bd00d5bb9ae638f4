// block-io: the guide's sub-group copy `dst[i] = src[i]` with a fixed
// work-group size of 32 and sub-group size 16.  Every lane of a sub-group
// reads and writes consecutive ints, so the load becomes one
// OpSubgroupBlockReadINTEL and (with the alignment promise a block write
// needs) the store one OpSubgroupBlockWriteINTEL, both at lane 0's address
// (an OpGroupBroadcast of the index).  The manifest states what the host
// must then do: uniform work-groups, dst 16-byte aligned, a global offset
// that is a multiple of 16.
//
// RUN: --passes=block-io --assume-aligned
// CHECK-DAG: OpCapability SubgroupBufferBlockIOINTEL
// CHECK-DAG: OpExtension "SPV_INTEL_subgroups"
// CHECK-LABEL: %copy16 = OpFunction
// CHECK: %call = OpCompositeExtract %ulong
// CHECK: [[LANE0:%[0-9]+]] = OpGroupBroadcast %ulong %uint_3 %call %uint_0
// CHECK: [[SRC:%[0-9]+]] = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %src [[LANE0]]
// CHECK-NEXT: [[V:%[0-9]+]] = OpSubgroupBlockReadINTEL %uint [[SRC]]
// CHECK: [[DST:%[0-9]+]] = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %dst [[LANE0]]
// CHECK-NEXT: OpSubgroupBlockWriteINTEL [[DST]] [[V]]
// CHECK-NOT: OpLoad %uint
// CHECK-NOT: OpStore
// CHECK: OpFunctionEnd
// REMARK: copy16: [block-io] applied: load via %arrayidx: sub-group block read (SG 16)
// REMARK-NEXT: copy16: [block-io] applied: store via %arrayidx1: sub-group block write (SG 16), argument alignment assumed
// MANIFEST: "copy16":
// MANIFEST: "requirement": "uniform_work_groups",
// MANIFEST: "requirement": "argument_alignment",
// MANIFEST-NEXT: "argument": 0,
// MANIFEST-NEXT: "name": "dst",
// MANIFEST-NEXT: "bytes": 16,
// MANIFEST-NEXT: "origin": "--assume-aligned"
// MANIFEST: "requirement": "global_offset",
// MANIFEST-NEXT: "dimension": 0,
// MANIFEST-NEXT: "multiple_of": 16,
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void copy16(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
