// block-io: the guide's sub-group copy `dst[i] = src[i]` with a fixed
// work-group size of 32 and sub-group size 16.  Every lane of a sub-group
// reads and writes consecutive ints, so the load becomes one
// OpSubgroupBlockReadINTEL and (with the alignment promise a block write
// needs) the store one OpSubgroupBlockWriteINTEL, both at lane 0's address
// (an OpGroupBroadcast of the index).  The manifest states what the host
// must then do: uniform work-groups, dst 16-byte aligned, a global offset
// that is a multiple of 16.  The devices are named: on pvc, IGC 2.40 makes
// both accesses block messages itself, the kernel declaring its work-group
// size, so with pvc a target (the default) the pass leaves them and says
// why (RUN-DEFAULT).
//
// RUN: --passes=block-io --assume-aligned --target=dg2,bmg,lnl,ptl
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
// RUN-DEFAULT: --passes=block-io --assume-aligned
// DEFAULT-REMARK: copy16: [block-io] missed: load via %arrayidx: not converted: on pvc IGC makes it a block message itself, the kernel declaring LocalSize, and the conversion only adds lane 0's base (estimate {{.*}}pvc {{[0-9]+}} -> {{[0-9]+}}{{.*}} cycles)
// DEFAULT-REMARK-NEXT: copy16: [block-io] missed: store via %arrayidx1: not converted: on pvc IGC makes it a block message itself
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
