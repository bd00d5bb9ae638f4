// loop-spec-constants: twelve loops whose bounds are each a chain of seven
// operations with constants on one argument, n (xor, multiply, ..., >> 29),
// all read the select of n: every loop's compare chain starts at an
// instruction whose operand is n itself, and that instruction, and only
// it, is a use the pass rewrites (the others read n through it).  The pass
// keeps at most 64 such uses per argument (4 * MAX_CHAIN): listing every
// instruction of the chains (84 here) instead of the direct uses (12)
// would fill the table and leave the last loops' xors reading n, so that
// with the flag set their bounds would not fold.
//
// RUN: --passes=loop-spec-constants
// CHECK-LABEL: %many = OpFunction
// CHECK: %n_spec = OpSelect %uint %n_spec_flag %n_spec_value %n
// CHECK-COUNT-12: OpBitwiseXor %uint %n_spec %uint_
// CHECK: OpFunctionEnd
// REMARK: many: [loop-spec-constants] applied: argument 'n' bounds 12 loop(s): spec constants 0 (flag, false) and 1 (value) select it; unspecialized the bound is unchanged
#define LOOP(x1, m1, x2, m2, x3, m3)                                            \
    j = 0;                                                                      \
    do                                                                          \
        acc += a[j];                                                            \
    while (++j < ((((((n ^ x1) * m1) ^ x2) * m2) ^ x3) * m3) >> 29);

kernel void many(global const float *a, global float *out, uint n)
{
    float acc = 0.0f;
    uint j;
    LOOP(16u, 3u, 32u, 5u, 64u, 7u)
    LOOP(23u, 5u, 43u, 9u, 77u, 13u)
    LOOP(30u, 7u, 54u, 13u, 90u, 19u)
    LOOP(37u, 9u, 65u, 17u, 103u, 25u)
    LOOP(44u, 11u, 76u, 21u, 116u, 31u)
    LOOP(51u, 13u, 87u, 25u, 129u, 37u)
    LOOP(58u, 15u, 98u, 29u, 142u, 43u)
    LOOP(65u, 17u, 109u, 33u, 155u, 49u)
    LOOP(72u, 19u, 120u, 37u, 168u, 55u)
    LOOP(79u, 21u, 131u, 41u, 181u, 61u)
    LOOP(86u, 23u, 142u, 45u, 194u, 67u)
    LOOP(93u, 25u, 153u, 49u, 207u, 73u)
    out[get_global_id(0)] = acc;
}
