// block-io: two loads from one base with a sub-group's gap between them,
// `src[i]` and `src[i + 32]` (SG 16): each becomes its own block read, and
// they are not merged into one 2-wide read (which would read src[i + 16]
// for the second).  A third load right after the first, `src[i + 16]`, is
// adjacent and merges with it.  --verify (the runner adds it) compares every
// output with the input's, so a merge across the gap fails in execution,
// not only in the text below.  (Mutation sweep, issue 33: the contiguity
// test `==` relaxed to `>=` survived every other test.)
//
// RUN: --passes=block-io --target=dg2
// CHECK-LABEL: %gap = OpFunction
// CHECK: OpSubgroupBlockReadINTEL %uint
// CHECK: OpSubgroupBlockReadINTEL %uint
// CHECK-NOT: OpSubgroupBlockReadINTEL %v2uint
// CHECK: OpFunctionEnd
// CHECK-LABEL: %gap_then_adjacent = OpFunction
// CHECK: OpSubgroupBlockReadINTEL %v2uint
// CHECK: OpSubgroupBlockReadINTEL %uint
// CHECK: OpFunctionEnd
// REMARK-NOT: gap: {{.*}}merged
// REMARK: gap_then_adjacent: [block-io] applied: loads via %arrayidx .. %arrayidx{{[0-9]*}}: merged into one 2-wide block read
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void gap(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    int a = src[i];
    int b = src[i + 32];
    dst[i] = a + 3 * b;
}

__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void gap_then_adjacent(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    int a = src[i];
    int b = src[i + 16];
    int c = src[i + 48];
    dst[i] = a + 3 * b - 5 * c;
}
