// xeopt-test: -O2 subgroups
/* Kernels for race detection (tests/test_racecheck.c, xeopt run --racecheck).
 * race_store and race_groups are written to race; the others are not. */

/* Work-items 2k and 2k+1 store to one element. */
kernel void race_store(global int *out)
{
    out[get_global_id(0) / 2] = (int)get_global_id(0);
}

/* Every work-group stores to the same elements: a race between groups only. */
kernel void race_groups(global int *out)
{
    out[get_local_id(0)] = (int)get_group_id(0);
}

/* Write, barrier, read another work-item's element: ordered. */
kernel void local_ordered(global int *out, local int *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = (int)get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[n - 1 - l];
}

/* The same without the barrier: a race. */
kernel void local_unordered(global int *out, local int *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = (int)get_global_id(0);
    out[get_global_id(0)] = tmp[n - 1 - l];
}

/* An atomic counter every work-item increments: not a race. */
kernel void atomic_count(global int *count)
{
    atomic_inc(count);
}

/* Lanes exchange through local memory across a sub-group barrier: ordered
 * (a work-group of one sub-group of 16). */
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void subgroup_ordered(global int *out, local int *tmp)
{
    size_t l = get_local_id(0);
    tmp[l] = (int)get_global_id(0);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[l ^ 1];
}

/* Two sub-groups block-write the same 16 elements: lanes of different
 * sub-groups race. */
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_write_race(global uint *out)
{
    intel_sub_group_block_write(out, (uint)get_global_id(0));
}
