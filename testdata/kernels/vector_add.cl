// xeopt-test: -O2
// vector_add: the simplest streaming kernel, c[i] = a[i] + b[i] on floats.
// Baseline for every pass: nothing should change, output must stay valid.
kernel void vector_add(global const float *a, global const float *b,
                       global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
