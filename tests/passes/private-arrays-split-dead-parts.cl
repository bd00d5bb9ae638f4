// private-arrays, split priced by its live parts: of float4 v[16] (256 B)
// only .x is ever accessed (component 0: every access chain ends in index
// 0), so after a split only the 64 B x part is live.  Next to the 64 B
// float w[16] that frees IGC's register budget (reg_total): before, v and w
// (320 B) are both in private memory; after, the x part and w (128 B) fit,
// w moves into registers, and its dynamic index costs per-lane indirect
// moves there, which the model prices above the private messages: the
// split is refused.  Counting a part as live when only component 0 is used
// would price all four parts (256 + 64 B, still over the budget), keep w in
// memory and make the split.  --target=none splits without asking.
// (llvm-spirv-15 puts the second loop's block after its exit: block-order.)
//
// RUN: --passes=block-order,private-arrays
// CHECK: %v = OpVariable %_ptr_Function__arr_v4float_ulong_16 Function
// REMARK: split_dead_parts: [private-arrays] missed: split 'v[16]' not made: the cost model says slower on {{[a-z0-9/]+}} (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}
// REMARK-NOT: applied: split
//
// RUN-NONE: --passes=block-order,private-arrays --target=none
// NONE-NOT: OpVariable %_ptr_Function__arr_v4float
// NONE-REMARK: split_dead_parts: [private-arrays] applied: split: 'v[16]' of 4-component vectors -> 4 scalar arrays
kernel void split_dead_parts(global const float *in, global float *out)
{
    int x = get_global_id(0);
    float4 v[16];
    float w[16];
    for (int i = 0; i < 16; i++) {
        v[i].x = in[x + i];
        w[i] = in[2 * x + i];
    }
    float s = 0.0f;
    for (int i = 0; i < 16; i++)
        s += v[(x + i) & 15].x * w[(x + 3 * i) & 15];
    out[x] = s;
}
