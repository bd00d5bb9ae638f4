// xeopt-test: -O2
// convolution: the oneAPI GPU optimization guide's 1-D convolution with an
// M-tap filter, if/else bounds checks for the first and last work-groups,
// float data. Divergent control flow near the edges.
kernel void convolution(global const float *input, global const float *filter,
                        global float *output, int N, int M)
{
    int i = get_global_id(0);
    int group = get_group_id(0);
    int gSize = get_local_size(0);
    float t = 0.0f;

    if (group == 0 || group == N / gSize - 1) {
        if (i < M / 2) {
            for (int j = M / 2 - i, k = 0; j < M; ++j, ++k)
                t += input[k] * filter[j];
        } else if (i + M / 2 >= N) {
            for (int j = 0, k = i - M / 2; j < M / 2 + N - i; ++j, ++k)
                t += input[k] * filter[j];
        } else {
            for (int j = 0, k = i - M / 2; j < M; ++j, ++k)
                t += input[k] * filter[j];
        }
    } else {
        for (int j = 0, k = i - M / 2; j < M; ++j, ++k)
            t += input[k] * filter[j];
    }
    output[i] = t;
}
