// xeopt-test: -O2
// barrier_local: work-group tree reduction through a local-memory tile with
// barriers; one partial sum per group written to global.
#define WG 64
__attribute__((reqd_work_group_size(WG, 1, 1)))
kernel void barrier_local(global const float *in, global float *partial)
{
    local float tile[WG];
    int l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (l < s)
            tile[l] += tile[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = tile[0];
}
