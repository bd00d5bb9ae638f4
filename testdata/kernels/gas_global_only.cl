// xeopt-test: -O0
// gas_global_only: generic-pointer helper only ever called with global
// pointers: the generic-AS pass can rewrite it to global (CrossWorkgroup).
float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

kernel void gas_global_only(global const float *a, global const float *b,
                            global float *out)
{
    size_t i = get_global_id(0);
    out[i] = dot3(a + 3 * i, b + 3 * i);
}
