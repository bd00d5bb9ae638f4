// loop-spec-constants: the guide's specialization-constant example, a sum
// whose trip count `inner` is a kernel argument.  The bound becomes
// `flag ? value : inner` with two fresh specialization constants (SpecId 0,
// the flag, default false; SpecId 1, the value), so unspecialized the kernel
// computes what it did and Level Zero can fold the loop by setting both.
// With --specialize=sum:inner=16 (RUN-SPEC) the defaults are the flag true
// and 16, and the manifest says the host must pass inner = 16.
//
// RUN: --passes=loop-spec-constants
// CHECK-DAG: OpDecorate [[FLAG:%inner_spec_flag]] SpecId 0
// CHECK-DAG: OpDecorate [[VALUE:%inner_spec_value]] SpecId 1
// CHECK-DAG: [[FLAG]] = OpSpecConstantFalse %bool
// CHECK-DAG: [[VALUE]] = OpSpecConstant %uint 0
// CHECK-LABEL: %sum = OpFunction
// CHECK: %inner = OpFunctionParameter %uint
// CHECK: [[BOUND:%inner_spec]] = OpSelect %uint [[FLAG]] [[VALUE]] %inner
// CHECK: OpSGreaterThan %bool [[BOUND]] %uint_0
// CHECK: OpFunctionEnd
// REMARK: sum: [loop-spec-constants] note: loop for.body: exit bound computed from argument 'inner' (index 2), 1 guard(s) before the loop
// REMARK-NEXT: sum: [loop-spec-constants] applied: argument 'inner' bounds 1 loop(s): spec constants 0 (flag, false) and 1 (value) select it; unspecialized the bound is unchanged
// MANIFEST: "sum":
// MANIFEST: "spec_constants":
// MANIFEST-NEXT: "argument": "inner",
// MANIFEST-NEXT: "index": 2,
// MANIFEST: "flag_spec_id": 0,
// MANIFEST-NEXT: "value_spec_id": 1,
// MANIFEST-NEXT: "flag_default": false,
// MANIFEST-NEXT: "value_default": "0",
//
// RUN-SPEC: --passes=loop-spec-constants --specialize=sum:inner=16
// SPEC-DAG: %inner_spec_flag = OpSpecConstantTrue %bool
// SPEC-DAG: %inner_spec_value = OpSpecConstant %uint 16
// SPEC-REMARK: sum: [loop-spec-constants] applied: argument 'inner' bounds 1 loop(s): spec constants 0 (flag) and 1 (value) specialized to 16; the host must pass inner = 16
// SPEC-MANIFEST: "flag_default": true,
// SPEC-MANIFEST-NEXT: "value_default": "16",
kernel void sum(global const float *a, global float *out, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < inner; j++)
        acc += a[i * inner + j];
    out[i] = acc;
}
