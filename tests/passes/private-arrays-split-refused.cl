// private-arrays, split refused by the cost model: a float4[9] and a
// float4[4], dynamically indexed, 208 bytes per work-item together.  Split
// into float arrays they are still live together, over IGC's register
// budget on pvc (reg_total, 192 B): the parts stay in private memory and
// every whole-vector access becomes four messages (IGC 22.43, pvc: splitting
// u alone takes the ISA estimate from 545 to 752, both from 545 to 1122).
// The remark gives both estimates; --target=none splits without asking.
//
// RUN: --passes=private-arrays
// CHECK: %v = OpVariable %_ptr_Function__arr_v4float_ulong_9 Function
// CHECK: %u = OpVariable %_ptr_Function__arr_v4float_ulong_4 Function
// REMARK: split_refused: [private-arrays] missed: split 'v[9]' not made: the cost model says slower on pvc (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc{{(/[a-z]+)*}} {{[0-9]+}} -> {{[0-9]+}}{{(, [a-z/]+ [0-9]+ -> [0-9]+)*}} cycles; the 4 parts and the kernel's other private arrays exceed what IGC keeps in registers together, so a whole-vector access becomes one private-memory message per part)
// REMARK: split_refused: [private-arrays] missed: split 'u[4]' not made: the cost model says slower on pvc
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
//
// RUN-NONE: --passes=private-arrays --target=none
// NONE-NOT: OpVariable %_ptr_Function__arr_v4float
// NONE-REMARK: split_refused: [private-arrays] applied: split: 'v[9]' of 4-component vectors -> 4 scalar arrays
// NONE-REMARK: split_refused: [private-arrays] applied: split: 'u[4]' of 4-component vectors -> 4 scalar arrays
kernel void split_refused(global const float4 *in, global const float4 *k, global float4 *out,
                          int width)
{
    int x = get_global_id(0);
    float4 v[9];
    float4 u[4];
    for (int i = 0; i < 9; i++)
        v[i] = in[x + (i % 3) + (i / 3) * width] * 0.5f;
    for (int i = 0; i < 4; i++)
        u[i] = k[i] + (float4)(x);
    float4 s = 0.0f;
    for (int i = 0; i < 9; i++)
        s += v[(x + i) % 9] * u[(x + i) & 3];
    out[x] = s;
}
