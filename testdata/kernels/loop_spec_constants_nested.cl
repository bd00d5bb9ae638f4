// xeopt-test: -O2
// Nested loops bounded by two arguments (the inner guard is hoisted out of
// the outer loop by clang) and a count-down loop `for (j = inner; j > 0; j--)`
// whose trip count comes through the initial value.
kernel void nested(global const float *a, global float *out, int rows, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < inner; j++)
            acc += a[(i * rows + r) * inner + j];
    for (int j = inner; j > 0; j--)
        acc *= 0.5f;
    out[i] = acc;
}
