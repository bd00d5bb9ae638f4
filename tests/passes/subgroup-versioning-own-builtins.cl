// subgroup-versioning: the general test reads the lane number
// (SubgroupLocalInvocationId) and the sub-group size (SubgroupMaxSize)
// from the kernel's own Input variables when it already declares them
// (fast_copy.c, builtin_var): here get_sub_group_local_id() and
// get_max_sub_group_size() left both.  The lane number the per-lane
// contiguity test compares with is a load of the SubgroupLocalInvocationId
// variable, the reduction is compared with a load of the SubgroupMaxSize
// one, and no further built-in variable is added (the entry point's
// interface stays the three the input has).  Taking another u32 Input
// variable instead (the lane number for the size, the size for the lane
// number) would make the test never pass: the fast copy would be dead.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK: OpEntryPoint Kernel {{%[0-9]+}} "own_builtins" %__spirv_BuiltInGlobalInvocationId %__spirv_BuiltInSubgroupLocalInvocationId %__spirv_BuiltInSubgroupMaxSize{{$}}
// CHECK: OpDecorate %__spirv_BuiltInGlobalInvocationId BuiltIn GlobalInvocationId
// CHECK: OpDecorate %__spirv_BuiltInSubgroupLocalInvocationId BuiltIn SubgroupLocalInvocationId
// CHECK: OpDecorate %__spirv_BuiltInSubgroupMaxSize BuiltIn SubgroupMaxSize
// CHECK-NOT: OpDecorate {{.*}} BuiltIn
// CHECK-LABEL: %own_builtins = OpFunction
// CHECK: %cmp = OpSLessThan %bool %conv %n
// CHECK-NEXT: [[LID:%[0-9]+]] = OpLoad %uint %__spirv_BuiltInSubgroupLocalInvocationId{{$}}
// CHECK: [[MAX:%[0-9]+]] = OpLoad %uint %__spirv_BuiltInSubgroupMaxSize{{$}}
// CHECK: [[LANE0:%[0-9]+]] = OpGroupBroadcast %uint %uint_3 %conv %uint_0
// CHECK-NEXT: [[DIFF:%[0-9]+]] = OpISub %uint %conv [[LANE0]]
// CHECK-NEXT: [[CONTIG:%[0-9]+]] = OpIEqual %bool [[DIFF]] [[LID]]
// CHECK: [[LANEPRED:%[0-9]+]] = OpSelect %uint [[CONTIG]] %uint_1 %uint_0
// CHECK-NEXT: [[PRED:%[0-9]+]] = OpSelect %uint %cmp [[LANEPRED]] %uint_0
// CHECK-NEXT: [[SUM:%[0-9]+]] = OpGroupIAdd %uint %uint_3 Reduce [[PRED]]
// CHECK-NEXT: [[FULL:%[0-9]+]] = OpIEqual %bool [[SUM]] [[MAX]]
// CHECK: OpSubgroupBlockReadINTEL
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK: OpFunctionEnd
// REMARK: own_builtins: [subgroup-versioning] applied: versioned the region guarded by %cmp: a fast copy without the guard, with 1 block read(s) and 1 block write(s),{{.*}}
// MANIFEST-NOT: {{.}}
kernel void own_builtins(global const float *in, global float *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] + (float)get_sub_group_local_id() + (float)get_max_sub_group_size();
}
