// xeopt-test: -O2
// The sum kernel with the literal bound 16: the ISA that `--specialize
// sum:inner=16` must reach (IGC unrolls the loop fully).
kernel void sum16(global const float *a, global float *out, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < 16; j++)
        acc += a[i * inner + j];
    out[i] = acc;
}
