// padding_two: two guards; the copy's can go, the atomic's stays.
kernel void padding_two(global float *out, global const float *in, global int *hist,
                        int n, int m)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] * 3.0f;
    if (i < m)
        atomic_inc(&hist[0]);
}
