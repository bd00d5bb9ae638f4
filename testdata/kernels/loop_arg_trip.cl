// xeopt-test: -O2
// loop_arg_trip: sum loop whose trip count `inner` is a kernel argument.
// Candidate for the spec-constant pass (bound -> OpSpecConstant).
kernel void loop_arg_trip(global const float *a, global float *out, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < inner; j++)
        acc += a[i * inner + j];
    out[i] = acc;
}
