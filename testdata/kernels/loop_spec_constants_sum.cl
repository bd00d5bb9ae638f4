// xeopt-test: -O2
// The guide's specialization-constant example: a sum loop whose trip count
// `inner` is a kernel argument, so IGC cannot unroll it.
kernel void sum(global const float *a, global float *out, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < inner; j++)
        acc += a[i * inner + j];
    out[i] = acc;
}
