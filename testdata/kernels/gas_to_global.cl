// xeopt-test: -O0
// gas_to_global: to_global() applied to a generic pointer that is known to
// point to global memory: the pass can fold the dynamic cast away.
kernel void gas_to_global(global float *buf, float s)
{
    size_t i = get_global_id(0);
    float *p = (float *)(buf + i);
    global float *gp = to_global(p);
    if (gp)
        *gp = *gp * s;
}
