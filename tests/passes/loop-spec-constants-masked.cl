// loop-spec-constants: a bound masked by a constant, `n & ~3` (a loop that
// steps by 4, and the trip count LLVM gives a loop it vectorized by 4, as
// clang 21's SPIR-V backend does with byte copies), is arithmetic with a
// constant like `n - 1`: the mask reads the select of the argument, so
// unspecialized the bound is the same and specialized it folds.  A bound
// masked by another argument (`n & mask` in sum_masked) depends on two
// arguments: the loop is left alone, with the remark saying so.
//
// RUN: --passes=loop-spec-constants
// CHECK-LABEL: %sum4 = OpFunction
// CHECK: [[BOUND:%n_spec]] = OpSelect %uint %n_spec_flag %n_spec_value %n
// CHECK: OpBitwiseAnd %uint [[BOUND]] %uint_4294967292
// CHECK-LABEL: %sum_masked = OpFunction
// CHECK-NOT: OpSelect
// CHECK: OpFunctionEnd
// REMARK: sum4: [loop-spec-constants] note: loop for.body: exit bound computed from argument 'n' (index 2), 1 guard(s) before the loop
// REMARK-NEXT: sum4: [loop-spec-constants] applied: argument 'n' bounds 1 loop(s): spec constants 0 (flag, false) and 1 (value) select it; unspecialized the bound is unchanged
// REMARK: sum_masked: [loop-spec-constants] missed: loop for.body: neither the exit bound nor (against a constant bound) the initial value is computed from a scalar integer kernel argument by arithmetic with constants
// MANIFEST: "sum4":
// MANIFEST: "argument": "n",
// MANIFEST-NOT: "sum_masked"
//
// RUN-SPEC: --passes=loop-spec-constants --specialize=sum4:n=10
// SPEC-DAG: %n_spec_flag = OpSpecConstantTrue %bool
// SPEC-DAG: %n_spec_value = OpSpecConstant %uint 10
// SPEC-REMARK: sum4: [loop-spec-constants] applied: argument 'n' bounds 1 loop(s): spec constants 0 (flag) and 1 (value) specialized to 10; the host must pass n = 10
kernel void sum4(global const float4 *a, global float *out, int n)
{
    int i = get_global_id(0);
    float4 acc = 0.0f;
    for (int j = 0; j < (n & ~3); j += 4)
        acc += a[i + j];
    out[i] = acc.x + acc.y + acc.z + acc.w;
}

kernel void sum_masked(global const float *a, global float *out, int n, int mask)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < (n & mask); j++)
        acc += a[i + j];
    out[i] = acc;
}
