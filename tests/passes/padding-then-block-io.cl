// padding, then block-io, on the -O2 pipeline: a guard keeps the copy's
// accesses in a divergent block, where block-io cannot use sub-group block
// messages (every lane must take part).  With the host's promises (padded
// buffers, aligned arguments, sub-group 16, local size 32) padding removes
// the guard first and block-io converts both accesses; the manifest
// collects both passes' contracts.
//
// RUN: -O2 --assume-padded --assume-aligned --subgroup-size=16 --local-size=32,1,1
// CHECK-DAG: OpExecutionMode [[K:%[0-9]+]] SubgroupSize 16
// CHECK-DAG: OpExecutionMode [[K]] LocalSize 32 1 1
// CHECK-LABEL: %guarded_copy = OpFunction
// CHECK-NOT: OpBranchConditional
// CHECK: [[V:%[0-9]+]] = OpSubgroupBlockReadINTEL %uint
// CHECK-NOT: OpBranchConditional
// CHECK: OpSubgroupBlockWriteINTEL {{%[0-9]+}} [[V]]
// CHECK: OpFunctionEnd
// REMARK: guarded_copy: [padding] applied: removed guard 'get_global_id(0) < n' (disjoint)
// REMARK-NEXT: guarded_copy: [block-io] applied: load via %arrayidx: sub-group block read (SG 16)
// REMARK-NEXT: guarded_copy: [block-io] applied: store via %arrayidx3: sub-group block write (SG 16), argument alignment assumed
// REMARK-NOT: missed
// MANIFEST: "padding":
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "arg": 0,
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "arg": 1,
// MANIFEST-DAG: "requirement": "subgroup_size",
// MANIFEST-DAG: "requirement": "local_size",
// MANIFEST-DAG: "requirement": "uniform_work_groups",
// MANIFEST-DAG: "requirement": "argument_alignment",
//
// Without the promises padding and block-io only say what they could do,
// and subgroup-versioning (--target=none: without asking the cost model,
// which refuses a lone copy) versions the guarded region instead.
// RUN-PLAIN: -O2 --target=none
// PLAIN: OpGroupIAdd %uint %uint_3 Reduce
// PLAIN-REMARK: guarded_copy: [padding] note: could remove guard 'get_global_id(0) < n'
// PLAIN-REMARK: guarded_copy: [block-io] missed: load via %arrayidx: unknown sub-group size
// PLAIN-REMARK: guarded_copy: [subgroup-versioning] applied: versioned the region guarded by %cmp
// PLAIN-MANIFEST-NOT: {{.}}
kernel void guarded_copy(global int *dst, global const int *src, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}
