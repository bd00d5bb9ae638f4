// xeopt-test: -O2
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
