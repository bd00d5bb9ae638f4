// xeopt-test: -O2
// pad_early_return: guard written as an early exit `if (i >= n) return;`.
// Padding pass: removable if the host rounds the buffers up.
kernel void pad_early_return(global float *y, global const float *x,
                             float a, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    y[i] = a * x[i] + y[i];
}
