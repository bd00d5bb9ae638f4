// loop-spec-constants: a loop in a helper the kernel calls (ocloc keeps
// such helpers where clang inlines them).  At the call, the helper's
// parameter `len` is the value the kernel passes, here the argument n, and
// `from` is the constant 0 the call passes: the bound `from + len` is
// computed from n.
// The call passes the select of n instead, so unspecialized the helper
// gets n as before.  In range_from the call passes another argument as
// `from`: the bound depends on two arguments and stays.
//
// RUN: --passes=loop-spec-constants
// CHECK-LABEL: %range_sum = OpFunction
// CHECK: [[SEL:%n_spec]] = OpSelect %uint %n_spec_flag %n_spec_value %n
// CHECK: OpFunctionCall %void %sum_from %{{[a-z_0-9]+}} %{{[a-z_0-9]+}} %uint_0 [[SEL]]
// CHECK-LABEL: %range_from = OpFunction
// CHECK-NOT: OpSelect
// CHECK: OpFunctionCall %void %sum_from2 %{{[a-z_0-9]+}} %{{[a-z_0-9]+}} %start %n_0
// REMARK: range_sum: [loop-spec-constants] note: loop for.body (in sum_from): exit bound computed from argument 'n' (index 2), 1 guard(s) before the loop
// REMARK-NEXT: range_sum: [loop-spec-constants] applied: argument 'n' bounds 1 loop(s)
// REMARK: range_from: [loop-spec-constants] missed: loop for.body (in sum_from2): neither the exit bound nor (against a constant bound) the initial value is computed from a scalar integer kernel argument
// MANIFEST: "range_sum":
// MANIFEST: "argument": "n",
// MANIFEST-NOT: "range_from"
//
// RUN-SPEC: --passes=loop-spec-constants --specialize=range_sum:n=6
// SPEC-REMARK: range_sum: [loop-spec-constants] applied: argument 'n' bounds 1 loop(s): spec constants 0 (flag) and 1 (value) specialized to 6; the host must pass n = 6
__attribute__((noinline)) void sum_from(global const float *a, global float *out, int from,
                                        int len)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = from; j < from + len; j++)
        acc += a[i + j];
    out[i] = acc;
}

__attribute__((noinline)) void sum_from2(global const float *a, global float *out, int from,
                                         int len)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = from; j < from + len; j++)
        acc += a[i + j];
    out[i] = acc;
}

kernel void range_sum(global const float *a, global float *out, int n)
{
    sum_from(a, out, 0, n);
}

kernel void range_from(global const float *a, global float *out, int start, int n)
{
    sum_from2(a, out, start, n);
}
