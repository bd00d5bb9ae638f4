// loop-spec-constants, refused: the trip count is loaded from memory, not
// taken from a kernel argument, so there is nothing a specialization
// constant could stand for; the module keeps no spec constant and no
// manifest is written.
//
// RUN: --passes=loop-spec-constants
// CHECK-NOT: OpSpecConstant
// CHECK-NOT: SpecId
// REMARK: loaded_bound: [loop-spec-constants] missed: loop for.body: neither the exit bound nor (against a constant bound) the initial value is computed from a scalar integer kernel argument by arithmetic with constants
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
kernel void loaded_bound(global const float *a, global float *out, global const int *bounds)
{
    int i = get_global_id(0);
    int m = bounds[i];
    float acc = 0.0f;
    for (int j = 0; j < m; j++)
        acc += a[i * 32 + j];
    out[i] = acc;
}
