// loop-spec-constants with --specialize values at the edges of the bound's
// 32-bit type: a value is accepted when it is a 32-bit integer read as
// signed or unsigned, from -2^31 to 2^32 - 1 (4294967295 is the bit pattern
// of -1, and becomes the constant's literal word); one past either end is
// refused with a remark, and the constants keep their unspecialized
// defaults (flag false, value 0).
//
// RUN-LOW: --passes=loop-spec-constants --specialize=sum:inner=-2147483648
// LOW-DAG: %inner_spec_flag = OpSpecConstantTrue %bool
// LOW-DAG: %inner_spec_value = OpSpecConstant %uint 2147483648
// LOW-REMARK: sum: [loop-spec-constants] applied: argument 'inner' bounds 1 loop(s): spec constants 0 (flag) and 1 (value) specialized to -2147483648; the host must pass inner = -2147483648
//
// RUN-BELOW: --passes=loop-spec-constants --specialize=sum:inner=-2147483649
// BELOW-DAG: %inner_spec_flag = OpSpecConstantFalse %bool
// BELOW-DAG: %inner_spec_value = OpSpecConstant %uint 0
// BELOW-REMARK: sum: [loop-spec-constants] missed: --specialize value for argument 'inner' is not a 32-bit integer; the constants keep their unspecialized defaults
// BELOW-REMARK-NOT: specialized to
//
// RUN-HIGH: --passes=loop-spec-constants --specialize=sum:inner=4294967295
// HIGH-DAG: %inner_spec_flag = OpSpecConstantTrue %bool
// HIGH-DAG: %inner_spec_value = OpSpecConstant %uint 4294967295
// HIGH-REMARK: sum: [loop-spec-constants] applied: argument 'inner' bounds 1 loop(s): spec constants 0 (flag) and 1 (value) specialized to 4294967295;
//
// RUN-ABOVE: --passes=loop-spec-constants --specialize=sum:inner=4294967296
// ABOVE-DAG: %inner_spec_flag = OpSpecConstantFalse %bool
// ABOVE-REMARK: sum: [loop-spec-constants] missed: --specialize value for argument 'inner' is not a 32-bit integer; the constants keep their unspecialized defaults
kernel void sum(global const float *a, global float *out, int inner)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < inner; j++)
        acc += a[i * inner + j];
    out[i] = acc;
}
