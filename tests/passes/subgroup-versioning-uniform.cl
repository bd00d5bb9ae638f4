// subgroup-versioning with the uniform test: kernels that declare their
// sub-group size (16) and work-group size (32 wide, a multiple of 16).  The
// lane analysis under those sizes proves `p[get_global_id(0)]` (size_t, no
// 32-bit wrap) contiguous in every full sub-group, and with L.x a multiple
// of S a sub-group is partial only in a work-group narrower than L.x (the
// last one of a non-uniform NDRange).  So the test is uniform per
// sub-group: WorkgroupSize.x == 32, the store's lane-0 base 16-byte aligned
// (a 32-bit AND; the load's Aligned 4 operand already covers its base) and,
// with a guard, OpGroupAll of the guard.  No OpGroupIAdd, no per-lane
// address difference, no SubgroupMaxSize.  copy_undeclared (no declared
// sizes) keeps the general test.  RUN versions without the cost model
// (--target=none); --verify (the runner's) covers partial work-groups,
// global offsets and buffers 4 bytes into an allocation.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK-LABEL: %copy_declared = OpFunction
// CHECK: [[WS:%[0-9]+]] = OpLoad %v3ulong %gl_WorkGroupSize
// CHECK-NEXT: [[WX:%[0-9]+]] = OpCompositeExtract %ulong [[WS]] 0
// CHECK-NEXT: [[FULL:%[0-9]+]] = OpIEqual %bool [[WX]] %ulong_32
// CHECK: OpGroupBroadcast %ulong %uint_3 {{%[0-9]+}} %uint_0
// CHECK-NOT: OpGroupIAdd
// CHECK: [[A:%[0-9]+]] = OpBitwiseAnd %uint {{%[0-9]+}} %uint_15
// CHECK-NEXT: [[AL:%[0-9]+]] = OpIEqual %bool [[A]] %uint_0
// CHECK-NEXT: [[T:%[0-9]+]] = OpLogicalAnd %bool [[FULL]] [[AL]]
// CHECK-NEXT: OpBranchConditional [[T]] [[FAST:%[0-9]+]] [[SLOW:%[0-9]+]]
// CHECK: [[SLOW]] = OpLabel
// CHECK-NOT: OpSubgroupBlock
// CHECK: OpStore %arrayidx1
// CHECK: [[FAST]] = OpLabel
// CHECK: OpSubgroupBlockReadINTEL %uint
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK-LABEL: %guarded_declared = OpFunction
// CHECK: %cmp = OpULessThan %bool
// CHECK-NOT: OpGroupIAdd
// CHECK: [[ALL:%[0-9]+]] = OpGroupAll %bool %uint_3 %cmp
// CHECK-NEXT: [[GT:%[0-9]+]] = OpLogicalAnd %bool {{%[0-9]+}} [[ALL]]
// CHECK-NEXT: OpBranchConditional [[GT]]
// CHECK: OpSubgroupBlockReadINTEL %uint
// CHECK: OpSubgroupBlockWriteINTEL
// copy_int_index: `int i = get_global_id(0)` (the guard keeps clang's
// trunc and sext), sign-extended: i moves by one
// per lane modulo 2^32, and the extension is contiguous unless lane 0's i is
// within 15 of INT_MAX (the analysis cannot rule that out without a promise
// about the global offset); one signed comparison of lane 0's i, shared by
// both accesses.
// CHECK-LABEL: %copy_int_index = OpFunction
// CHECK-NOT: OpGroupIAdd
// CHECK: [[X0:%[0-9]+]] = OpGroupBroadcast %uint %uint_3 %conv %uint_0
// CHECK-NEXT: {{%[0-9]+}} = OpSLessThanEqual %bool [[X0]] %uint_2147483632
// CHECK-NOT: OpSLessThanEqual
// CHECK: OpGroupAll %bool %uint_3 {{%cmp[_0-9]*}}
// CHECK: OpBranchConditional
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK-LABEL: %copy_undeclared = OpFunction
// CHECK: OpGroupIAdd %uint %uint_3 Reduce
// CHECK: OpFunctionEnd
// REMARK-DAG: copy_declared: [subgroup-versioning] applied: versioned the kernel body: {{.*}}(test: uniform: the declared sizes prove contiguity in a full sub-group; work-group size x == LocalSize x, lane-0 bases aligned)
// REMARK-DAG: guarded_declared: [subgroup-versioning] applied: versioned the region guarded by %cmp: {{.*}}OpGroupAll of the guard)
// REMARK-DAG: copy_int_index: [subgroup-versioning] applied: versioned the region guarded by %cmp: {{.*}}(test: uniform: {{.*}}, lane 0's 32-bit index not within the sub-group size of its wrap, OpGroupAll of the guard)
// REMARK-DAG: copy_undeclared: [subgroup-versioning] applied: {{.*}}(test: sub-group add-reduction of the per-lane predicate == SubgroupMaxSize)
// MANIFEST-NOT: {{.}}
//
// With the cost model (plain -O2, dg2 and pvc): a two-access copy does not
// pay even for the uniform test; IGC agrees (ISA estimate of the fast path
// alone, sg_copy: dg2 37 -> 45, pvc 30 -> 36; docs/cost-model.md).
// RUN-MODEL: -O2
// MODEL-NOT: OpGroupAll
// MODEL-NOT: WorkGroupSize
// MODEL-REMARK: copy_declared: [subgroup-versioning] missed: no fast copy of the kernel body: the cost model says slower on pvc (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc{{(/[a-z]+)*}} {{[0-9]+}} -> {{[0-9]+}}{{(, [a-z/]+ [0-9]+ -> [0-9]+)*}} cycles
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void copy_declared(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}

__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void guarded_declared(global float *dst, global const float *src, ulong n)
{
    size_t i = get_global_id(0);
    if (i < n)
        dst[i] = src[i] * 2.0f;
}

__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void copy_int_index(global int *dst, global const int *src, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}

kernel void copy_undeclared(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
