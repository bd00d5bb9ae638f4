// xeopt-test: -O2
// sum_inner: the guide's specialization-constant example,
// `for (j = 0; j < inner; j++) acc += a[i*inner + j]` with `inner` a kernel
// argument. The spec-constant pass turns `inner` into an OpSpecConstant.
kernel void sum_inner(global const float *a, global float *out, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < inner; j++)
        acc += a[i * inner + j];
    out[i] = acc;
}
