// subgroup-versioning: the cost model allows a rewrite whose estimate is
// exactly the kernel's (not slower is enough, docs/cost-model.md), and
// compares with a relative tolerance of 1e-9 so that rounding in the sums
// cannot turn a tie into a refusal.  On dg2 (--target=dg2), with declared
// sizes (the uniform test, no checks: both loads say Aligned 4 and index
// with size_t), the two loads' block forms save 3 cycles in the model (the
// y-dependent src[i + gid(1)*64] costs lane0_lane, its lane-0 address is
// computed per lane anyway), paid by 0.9 of the sub-groups, and the test
// costs version_utest 2.7 = 0.9 * 3:
//  - tie: 44 -> 44 exactly;
//  - tie_rounded: 56 -> 56 in reals, 7e-15 over 56 in doubles.
// Both are versioned.  (A comparison that refused ties, or rounding, would
// leave both kernels as they are.)
//
// RUN: --passes=subgroup-versioning --target=dg2
// CHECK-LABEL: %tie = OpFunction
// CHECK: OpSubgroupBlockReadINTEL
// CHECK-LABEL: %tie_rounded = OpFunction
// CHECK: OpSubgroupBlockReadINTEL
// REMARK: tie: [subgroup-versioning] applied: versioned the kernel body: a fast copy with 2 block read(s) and 0 block write(s) {{.*}}(cost model: dg2 44 -> 44 cycles)
// REMARK: tie_rounded: [subgroup-versioning] applied: versioned the kernel body: a fast copy with 2 block read(s) and 0 block write(s) {{.*}}(cost model: dg2 56 -> 56 cycles)
// REMARK-NOT: missed: no fast copy
// MANIFEST-NOT: {{.}}
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void tie(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[2 * i] = src[i] + src[i + get_global_id(1) * 64];
}

__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void tie_rounded(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[2 * i] = src[i];
    dst[2 * i + 1] = src[i + get_global_id(1) * 64];
}
