// xeopt-test: -O0
// gas_phi_mixed: a generic pointer that is either a global or a local
// pointer depending on a run-time condition (select/phi of two spaces). The
// pass must keep it generic.
kernel void gas_phi_mixed(global float *g, local float *l, global float *out,
                          int useLocal)
{
    size_t i = get_global_id(0);
    size_t li = get_local_id(0);
    l[li] = g[i] + 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float *p;
    if (useLocal)
        p = l + li;
    else
        p = g + i;
    float *q = (i & 1) ? p : (float *)(g + i);
    out[i] = *p + *q;
}
