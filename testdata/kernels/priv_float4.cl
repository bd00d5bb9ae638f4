// xeopt-test: -O2
// priv_float4: private `float4 v[8]` written and read per component with a
// dynamic element index; tests vector-element private accesses.
kernel void priv_float4(global const float *in, global float *out, int sel)
{
    size_t i = get_global_id(0);
    float4 v[8];
    for (int k = 0; k < 8; k++) {
        v[k].x = in[i * 8 + k];
        v[k].y = v[k].x * 2.0f;
        v[k].z = v[k].x + 1.0f;
        v[k].w = -v[k].x;
    }
    int j = sel & 7;
    v[j].y += 3.0f;
    out[i] = v[j].x + v[j].y + v[(j + 1) & 7].z + v[(j + 3) & 7].w;
}
